import * as vscode from 'vscode';
import { TokenRefreshError } from '../errors';
import type { SessionManager } from '../sessionManager';
import type { StoredSession } from '../sessionStore';
import type { SignInOptions } from '../types';

export const AUTH_PROVIDER_ID = 'tenant-api';
export const AUTH_PROVIDER_LABEL = 'Tenant API';

export function toAuthenticationSession(session: StoredSession): vscode.AuthenticationSession {
  return {
    id: session.account.id,
    accessToken: session.accessToken,
    account: { id: session.account.id, label: session.account.label },
    scopes: session.scopes,
  };
}

const covers = (session: StoredSession, scopes: readonly string[] | undefined) =>
  !scopes || scopes.every((scope) => session.scopes.includes(scope));

/** The Accounts-menu face of the session manager; one session per account (id = sub). */
export class TenantApiAuthenticationProvider implements vscode.AuthenticationProvider, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>();
  readonly onDidChangeSessions = this.changes.event;
  private readonly subscription: { dispose(): void };

  constructor(
    private readonly sessions: SessionManager,
    private readonly signIn: (options: SignInOptions, scopes: readonly string[]) => Promise<StoredSession>,
  ) {
    this.subscription = sessions.onDidChange(({ added, removed, changed }) =>
      this.changes.fire({
        added: added.map(toAuthenticationSession),
        removed: removed.map(toAuthenticationSession),
        changed: changed.map(toAuthenticationSession),
      }));
  }

  dispose(): void {
    this.subscription.dispose();
    this.changes.dispose();
  }

  async getSessions(scopes: readonly string[] | undefined, options: vscode.AuthenticationProviderSessionOptions = {}): Promise<vscode.AuthenticationSession[]> {
    const all = await this.sessions.getSessions();
    const result: vscode.AuthenticationSession[] = [];
    for (const session of all) {
      if (options.account && options.account.id !== session.account.id) continue;
      if (!covers(session, scopes)) continue;
      // Hand out a token that is valid now. A session that ended (invalid_grant) is left out; one that
      // could not be refreshed for now (network) is kept, since the user is still signed in.
      try {
        result.push(toAuthenticationSession(await this.sessions.getFreshSession({ accountId: session.account.id })));
      } catch (error) {
        if (error instanceof TokenRefreshError) result.push(toAuthenticationSession(session));
      }
    }
    return result;
  }

  async createSession(scopes: readonly string[], _options: vscode.AuthenticationProviderSessionOptions = {}): Promise<vscode.AuthenticationSession> {
    // Another account (one is signed in), or the first after a sign-out: show the login form.
    const forceLogin = (await this.sessions.getSessions()).length > 0 || (await this.sessions.signedOutSinceSignIn());
    const session = await this.signIn({ forceLogin: forceLogin || undefined }, scopes);
    return toAuthenticationSession(session);
  }

  async removeSession(sessionId: string): Promise<void> {
    await this.sessions.removeSession(sessionId);
  }
}
