import type { Clock } from '../common/clock';
import * as l10n from '../common/l10n';
import type { Logger } from '../common/logger';
import { registerSecret } from '../common/redact';
import { buildAuthorizeUrl, createAttemptSecrets } from './authorizeUrl';
import { pollDeviceToken } from './deviceFlow';
import { callbackIssuerProblem } from './discoveryChecks';
import type { FlowKind } from './flows';
import { validateIdToken, type IdTokenClaims } from './idToken';
import { LoopbackServer } from './loopbackServer';
import { asUserRefusal, OAuthError, SignInCancelledError, SignInTimeoutError } from './oauthErrors';
import { PendingAttempts } from './pendingAttempts';
import { sessionFromTokens } from './sessionManager';
import type { StoredSession } from './sessionStore';
import type { DeviceAuthorization, TokenClient, TokenResponse, UserInfo } from './tokenClient';
import type { AccountInfo, SignInOptions } from './types';

/** What the runner needs from the editor (the VS Code layer provides these; tests provide doubles). */
export interface SignInEnvironment {
  tokenClient: TokenClient;
  pending: PendingAttempts;
  clock: Clock;
  logger: Logger;
  scopes: readonly string[];
  /** vscode.env.language. */
  uiLocales?: string;
  timeoutSeconds: number;
  /** Opens the authorize URL in the user's browser (vscode.env.openExternal). */
  openExternal(url: string): Promise<boolean>;
  /** The redirect URI of the uriHandler flow, as vscode.env.asExternalUri yields it here. */
  uriHandlerRedirectUri(): Promise<string>;
  /** Shows the user code (device flow); the returned promise is ignored. */
  presentDeviceCode(authorization: DeviceAuthorization, signal: AbortSignal): void;
}

/** An AbortSignal that fires on the user's cancel or on the attempt's timeout, with the matching error. */
export function attemptSignal(clock: Clock, timeoutSeconds: number, cancel?: AbortSignal): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const timer = clock.setTimeout(() => controller.abort(new SignInTimeoutError(timeoutSeconds)), timeoutSeconds * 1000);
  const onCancel = () => controller.abort(new SignInCancelledError());
  if (cancel?.aborted) onCancel();
  cancel?.addEventListener('abort', onCancel, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      clock.clearTimeout(timer);
      cancel?.removeEventListener('abort', onCancel);
    },
  };
}

/** Rejects with the signal's reason when it aborts first. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export function isUserCancel(error: unknown): boolean {
  return error instanceof SignInCancelledError;
}

/** Runs one sign-in attempt with one flow, from the browser to a complete session record. */
export class SignInRunner {
  constructor(private readonly environment: SignInEnvironment) {}

  async run(flow: FlowKind, options: SignInOptions, cancel?: AbortSignal): Promise<StoredSession> {
    const { clock, timeoutSeconds, logger } = this.environment;
    const attempt = attemptSignal(clock, timeoutSeconds, cancel);
    logger.info(`Sign-in started (${flow}${options.tenantId ? `, tenant ${options.tenantId}` : ''}).`);
    try {
      const session = flow === 'deviceCode' ? await this.deviceFlow(options, attempt.signal) : await this.codeFlow(flow, options, attempt.signal);
      logger.info(`Signed in as ${session.account.label} (${session.account.id}) with ${flow}.`);
      return session;
    } catch (error) {
      logger.warn(`Sign-in with ${flow} ended: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    } finally {
      attempt.dispose();
    }
  }

  private async codeFlow(flow: 'uriHandler' | 'loopback', options: SignInOptions, signal: AbortSignal): Promise<StoredSession> {
    const { tokenClient, pending } = this.environment;
    const metadata = await raceAbort(tokenClient.discover(signal), signal);
    const secrets = await createAttemptSecrets();
    for (const secret of [secrets.state, secrets.nonce, secrets.codeVerifier]) registerSecret(secret);
    signal.throwIfAborted();
    let loopback: LoopbackServer | undefined;
    try {
      let redirectUri: string;
      if (flow === 'loopback') {
        loopback = await LoopbackServer.start({ onCallback: (parameters) => pending.handleCallback(parameters), logger: this.environment.logger });
        redirectUri = loopback.redirectUri;
      } else {
        redirectUri = await this.environment.uriHandlerRedirectUri();
      }
      signal.throwIfAborted();
      const url = buildAuthorizeUrl(metadata.authorization_endpoint, {
        clientId: tokenClient.clientId,
        redirectUri,
        scopes: this.environment.scopes,
        state: secrets.state,
        nonce: secrets.nonce,
        codeChallenge: secrets.codeChallenge,
        uiLocales: this.environment.uiLocales,
        loginHint: options.loginHint,
        forceLogin: options.forceLogin,
        tenantId: options.tenantId,
      });
      const callback = pending.wait(secrets.state);
      const onAbort = () => pending.cancel(secrets.state, signal.reason as Error);
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) onAbort();
      try {
        this.environment.logger.info(`Opening the authorize URL with redirect_uri ${redirectUri}.`);
        const opened = await this.environment.openExternal(url);
        if (!opened) throw new OAuthError('browser_not_opened', l10n.t('The browser could not be opened for sign-in.'));
        const { code, iss } = await callback.catch((error: unknown) => {
          throw asUserRefusal(error);
        });
        const issuerProblem = callbackIssuerProblem(iss, metadata.issuer, metadata.authorization_response_iss_parameter_supported === true);
        if (issuerProblem) throw new OAuthError('invalid_issuer', issuerProblem);
        const tokens = await tokenClient.exchangeCode(code, secrets.codeVerifier, redirectUri, signal);
        return await this.complete(tokens, metadata.issuer, secrets.nonce, signal);
      } finally {
        signal.removeEventListener('abort', onAbort);
        pending.cancel(secrets.state, new SignInCancelledError());
        callback.catch(() => undefined);
      }
    } finally {
      await loopback?.close();
    }
  }

  private async deviceFlow(options: SignInOptions, signal: AbortSignal): Promise<StoredSession> {
    const { tokenClient, clock, logger } = this.environment;
    const metadata = await raceAbort(tokenClient.discover(signal), signal);
    const extra: Record<string, string> = {};
    if (options.tenantId) extra.acr_values = `tenant:${options.tenantId}`;
    if (this.environment.uiLocales) extra.ui_locales = this.environment.uiLocales;
    const authorization = await tokenClient.startDeviceAuthorization(this.environment.scopes, extra, signal);
    this.environment.presentDeviceCode(authorization, signal);
    const tokens = await pollDeviceToken(tokenClient, authorization, { clock, logger, signal }).catch((error: unknown) => {
      throw asUserRefusal(error);
    });
    return this.complete(tokens, metadata.issuer, undefined, signal);
  }

  /** id_token checks, userinfo, and the session record. */
  private async complete(tokens: TokenResponse, issuer: string, nonce: string | undefined, signal: AbortSignal): Promise<StoredSession> {
    const { tokenClient, clock, logger } = this.environment;
    let claims: IdTokenClaims | undefined;
    if (tokens.id_token) {
      claims = validateIdToken(tokens.id_token, { issuer, clientId: tokenClient.clientId, nonce, now: clock.now() });
    } else if (this.environment.scopes.includes('openid')) {
      throw new OAuthError('invalid_response', l10n.t('The server answered without an identity token although openid was requested.'));
    }
    let userInfo: UserInfo | undefined;
    try {
      userInfo = await tokenClient.userInfo(tokens.access_token, signal);
      if (claims && userInfo.sub !== claims.sub) {
        throw new OAuthError('invalid_response', l10n.t('The user information belongs to another user than the identity token.'));
      }
    } catch (error) {
      if (error instanceof OAuthError && error.error === 'invalid_response') throw error;
      if (!claims) throw error;
      logger.warn(`userinfo failed, using the identity token's claims: ${String(error)}`);
    }
    const account = accountFrom(userInfo, claims);
    return sessionFromTokens(tokens, account, this.environment.scopes, {
      now: clock.now(),
      authUrl: tokenClient.authUrl,
      clientId: tokenClient.clientId,
    });
  }
}

function rolesOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((role): role is string => typeof role === 'string');
  return typeof value === 'string' ? [value] : [];
}

/** Account from userinfo (preferred) or the id_token: label = name, else given + family name, else sub. */
export function accountFrom(userInfo: UserInfo | undefined, claims: IdTokenClaims | undefined): AccountInfo {
  const source = { ...(claims ?? {}), ...(userInfo ?? {}) } as Partial<UserInfo>;
  const sub = String(source.sub);
  const fullName = [source.given_name, source.family_name].filter(Boolean).join(' ');
  const label = (typeof source.name === 'string' && source.name) || fullName || sub;
  return { id: sub, label, roles: rolesOf(source.role) };
}

/**
 * Tries the flows in order. When one fails or times out (not when the user cancels), `offerNext`
 * asks whether to try the next one.
 */
export async function signInWithFlows(
  flows: readonly FlowKind[],
  run: (flow: FlowKind) => Promise<StoredSession>,
  offerNext: (failed: FlowKind, error: unknown, next: FlowKind) => Promise<boolean>,
): Promise<StoredSession> {
  if (flows.length === 0) throw new OAuthError('no_flow', l10n.t('No sign-in method can work in this environment. Check the setting tenantApi.signInFlow.'));
  for (let index = 0; ; index++) {
    try {
      return await run(flows[index]);
    } catch (error) {
      const next = flows[index + 1];
      if (isUserCancel(error) || !next || !(await offerNext(flows[index], error, next))) throw error;
    }
  }
}
