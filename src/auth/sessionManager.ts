import type { Clock } from '../common/clock';
import { Emitter, type Disposable, type Event } from '../common/event';
import * as l10n from '../common/l10n';
import type { Logger } from '../common/logger';
import { forgetSecret } from '../common/redact';
import { SignInRequiredError, TokenRefreshError } from './errors';
import { OAuthError } from './oauthErrors';
import { SessionRelay, type SessionPeers } from './sessionRelay';
import { SessionStore, compareSessions, foundSession, isNewerSession, nextOrder, type StoredSession } from './sessionStore';
import type { TokenClient, TokenResponse } from './tokenClient';
import type { AccessTokenSource, AccountInfo, SessionState } from './types';

export interface SessionChange {
  added: StoredSession[];
  removed: StoredSession[];
  changed: StoredSession[];
}

export interface SessionManagerOptions {
  store: SessionStore;
  /** The token client for the current settings (authUrl, clientId may change). */
  tokenClient: () => TokenClient;
  clock: Clock;
  logger: Logger;
  /** tenantApi.refreshSkewSeconds. */
  refreshSkewSeconds: () => number;
  /**
   * The configured server (tenantApi.authUrl, clientId). Sessions from another server stay stored
   * but are not used, so that a token never goes to the hosts of another configuration.
   */
  currentServer?: () => { authUrl: string; clientId: string };
  /**
   * Held around each refresh by every window of the editor (src/coordination/refreshLock): one
   * refresh per refresh token; a window that waited for it finds the new tokens stored and adopts them.
   */
  refreshLock?: <T>(name: string, task: () => Promise<T>) => Promise<T>;
  /**
   * After an invalid_grant, how long to wait for another window's new tokens to be stored before the
   * session is taken as ended (a window without the lock may have used the refresh token first). Default 2000.
   */
  raceGraceMs?: number;
  /**
   * The other windows of the editor (src/coordination): a refresh done here is handed to them, and
   * theirs are adopted here, for editors whose windows do not see each other's secret storage writes
   * (the browser editor). Memory only: what arrives is stored in this window's SecretStorage.
   */
  peers?: SessionPeers;
}

export type { SessionPeers };

const trimSlash = (value: string) => value.replace(/\/+$/, '');

/** Access tokens without expires_in are assumed to last this long. */
const DEFAULT_LIFETIME_SECONDS = 300;

/** Builds the stored record from a token response. */
export function sessionFromTokens(
  tokens: TokenResponse,
  account: AccountInfo,
  requestedScopes: readonly string[],
  context: { now: number; authUrl: string; clientId: string },
  previous?: StoredSession,
): StoredSession {
  return {
    version: 1,
    account,
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token ?? previous?.refreshToken,
    idToken: tokens.id_token ?? previous?.idToken,
    expiresAt: context.now + (tokens.expires_in ?? DEFAULT_LIFETIME_SECONDS) * 1000,
    scopes: tokens.scope ? tokens.scope.split(' ').filter(Boolean) : [...(previous?.scopes ?? requestedScopes)],
    updatedAt: context.now,
    order: nextOrder(previous, context.now),
    authUrl: context.authUrl,
    clientId: context.clientId,
  };
}

/**
 * Sessions of every signed-in account: refresh before expiry (single-flight per account), pick-up of
 * changes other windows make to SecretStorage (never overwriting newer data with stale), sign-out.
 * A refresh refused with invalid_grant ends that session; a network failure or a storage error never does.
 */
export class SessionManager implements AccessTokenSource, SessionState, Disposable {
  private readonly sessions = new Map<string, StoredSession>();
  private loading?: Promise<void>;
  private loaded = false;
  private readonly refreshes = new Map<string, Promise<StoredSession>>();
  /** Accounts this window is signing out: their storage notifications are our own. */
  private readonly removing = new Set<string>();
  private activeId?: string;
  private readonly changes = new Emitter<SessionChange>();
  private readonly simpleChanges = new Emitter<void>();
  private readonly subscriptions: Disposable[];
  private readonly relay: SessionRelay;

  /** Detailed changes, for vscode.AuthenticationProvider.onDidChangeSessions. */
  readonly onDidChange: Event<SessionChange> = this.changes.event;
  readonly onDidChangeSessions: Event<void> = this.simpleChanges.event;

  constructor(private readonly options: SessionManagerOptions) {
    this.relay = new SessionRelay(options.peers, {
      known: (id) => this.sessions.get(id),
      adopt: (session) => this.adopt(session),
      readStored: (id) => options.store.lookup(id),
      write: (session) => options.store.write(session),
      logger: options.logger,
    });
    this.subscriptions = [this.relay, options.store.onDidChange(({ key }) => void this.onStoreChange(key))];
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changes.dispose();
    this.simpleChanges.dispose();
  }

  private get logger(): Logger {
    return this.options.logger;
  }

  /** Loads the stored sessions once; a storage error is logged and retried on the next call. */
  private ensureLoaded(): Promise<void> {
    if (this.loaded) return Promise.resolve();
    this.loading ??= (async () => {
      try {
        const stored = await this.options.store.readAll();
        for (const session of stored) {
          const known = this.sessions.get(session.account.id);
          if (!known || compareSessions(session, known) !== 'older') this.sessions.set(session.account.id, session);
        }
        this.loaded = true;
      } catch (error) {
        this.logger.warn(`Could not read the stored sessions (will retry): ${String(error)}`);
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }

  /** Whether a session belongs to the configured server. */
  private usable(session: StoredSession): boolean {
    const server = this.options.currentServer?.();
    return !server || (trimSlash(session.authUrl) === trimSlash(server.authUrl) && session.clientId === server.clientId);
  }

  async getSessions(): Promise<StoredSession[]> {
    await this.ensureLoaded();
    return [...this.sessions.values()].filter((session) => this.usable(session));
  }

  /** Call when tenantApi.authUrl or clientId changed: the usable sessions may differ. */
  serverChanged(): void {
    const all = [...this.sessions.values()];
    this.changes.fire({
      added: all.filter((session) => this.usable(session)),
      removed: all.filter((session) => !this.usable(session)),
      changed: [],
    });
    this.simpleChanges.fire();
  }

  async getAccounts(): Promise<AccountInfo[]> {
    return (await this.getSessions()).map((session) => session.account);
  }

  activeAccount(): AccountInfo | undefined {
    const active = this.activeId ? this.sessions.get(this.activeId) : undefined;
    if (active && this.usable(active)) return active.account;
    return [...this.sessions.values()].find((session) => this.usable(session))?.account;
  }

  setActiveAccount(accountId: string): void {
    if (this.activeId === accountId) return;
    this.activeId = accountId;
    this.simpleChanges.fire();
  }

  async getAccessToken(options: { forceRefresh?: boolean; accountId?: string } = {}): Promise<string> {
    const session = await this.getFreshSession(options);
    return session.accessToken;
  }

  /** The session with an access token valid beyond the skew, refreshing it when needed. */
  async getFreshSession(options: { forceRefresh?: boolean; accountId?: string } = {}): Promise<StoredSession> {
    await this.ensureLoaded();
    const id = options.accountId ?? this.activeAccount()?.id;
    const session = id ? this.sessions.get(id) : undefined;
    if (!id || !session || !this.usable(session)) throw new SignInRequiredError();
    if (!options.forceRefresh && !this.needsRefresh(session)) return session;
    return this.refreshOnce(id, options.forceRefresh === true);
  }

  private needsRefresh(session: StoredSession): boolean {
    return session.expiresAt - this.options.refreshSkewSeconds() * 1000 <= this.options.clock.now();
  }

  /** Single-flight: concurrent callers for one account share one refresh. */
  private refreshOnce(id: string, force: boolean): Promise<StoredSession> {
    let refresh = this.refreshes.get(id);
    if (!refresh) {
      refresh = this.refreshAcrossWindows(id, force).finally(() => this.refreshes.delete(id));
      this.refreshes.set(id, refresh);
    }
    return refresh;
  }

  /** The refresh under the cross-window lock of this session, when there is one. */
  private refreshAcrossWindows(id: string, force: boolean): Promise<StoredSession> {
    const session = this.sessions.get(id);
    const lock = this.options.refreshLock;
    if (!lock || !session) return this.refresh(id, force);
    return lock(`refresh\n${trimSlash(session.authUrl)}\n${session.clientId}\n${id}`, () => this.refresh(id, force));
  }

  private async refresh(id: string, force: boolean): Promise<StoredSession> {
    const before = this.sessions.get(id);
    if (!before) throw new SignInRequiredError();
    // Tokens another window stored while we waited for the lock may have reached us already.
    if (!force && !this.needsRefresh(before)) return before;
    const current = await this.latestFromOtherWindows(id, before);
    if (current !== before && (force || !this.needsRefresh(current))) return current;

    if (!current.refreshToken) {
      if (!force && current.expiresAt > this.options.clock.now()) return current;
      this.logger.info(`Session of ${id} expired and has no refresh token; signing out.`);
      await this.end(id);
      throw new SignInRequiredError(l10n.t('Your Tenant API session has expired. Sign in again.'));
    }

    const client = this.options.tokenClient();
    let tokens: TokenResponse;
    try {
      tokens = await client.refresh(current.refreshToken, current.scopes);
    } catch (error) {
      if (error instanceof OAuthError && error.error === 'invalid_grant') {
        // Rotation: another window may have used this refresh token and stored (or is storing) the next one.
        const newer = await this.newerAfterRace(id, current);
        if (newer) {
          this.logger.info(`Refresh token of ${id} was rotated by another window; using its tokens.`);
          this.adopt(newer);
          return newer;
        }
        this.logger.warn(`Refresh of ${id} refused (invalid_grant); the session ends.`);
        await this.end(id);
        throw new SignInRequiredError(l10n.t('Your Tenant API session has ended or was revoked. Sign in again.'));
      }
      this.logger.warn(`Refresh of ${id} failed, keeping the session: ${String(error)}`);
      if (!force && current.expiresAt > this.options.clock.now()) return current;
      throw new TokenRefreshError(l10n.t('Could not refresh the Tenant API sign-in: {0}', error instanceof Error ? error.message : String(error)), error);
    }

    const next = sessionFromTokens(tokens, current.account, current.scopes, {
      now: this.options.clock.now(),
      authUrl: current.authUrl,
      clientId: current.clientId,
    }, current);

    // Compare before writing: never resurrect a session signed out elsewhere, never overwrite newer tokens.
    const latest = await this.options.store.lookup(id);
    if (latest.kind === 'gone') {
      this.logger.info(`Session of ${id} was signed out in another window during the refresh.`);
      this.forget(id);
      void client.revoke(next.refreshToken ?? next.accessToken, next.refreshToken ? 'refresh_token' : 'access_token').catch(() => undefined);
      throw new SignInRequiredError();
    }
    if (latest.kind === 'found' && isNewerSession(latest.session, current)) {
      this.logger.info(`Another window stored newer tokens for ${id}; keeping those.`);
      this.adopt(latest.session);
      return latest.session;
    }
    this.sessions.set(id, next);
    if (current.accessToken !== next.accessToken) forgetSecretsOf(current, next);
    try {
      await this.options.store.write(next);
    } catch (error) {
      this.logger.warn(`Could not store the refreshed tokens of ${id} (kept in memory): ${String(error)}`);
    }
    this.logger.info(`Refreshed the access token of ${id}; it expires at ${new Date(next.expiresAt).toISOString()}.`);
    this.changes.fire({ added: [], removed: [], changed: [next] });
    this.simpleChanges.fire();
    // Before the lock is released: the next window to take it finds these tokens (see SessionChannel.sync in src/coordination).
    await this.relay.publish(next);
    return next;
  }

  /**
   * What the other windows did with this session before we spend its refresh token: the tokens they
   * handed on (the window that refreshed just before us released the lock after handing them on), or
   * stored; `current` when neither; SignInRequiredError when another window signed out.
   */
  private async latestFromOtherWindows(id: string, current: StoredSession): Promise<StoredSession> {
    const synced = await this.relay.sync(id, current);
    if (!synced) throw new SignInRequiredError();
    if (synced !== current) return synced;
    const stored = await this.options.store.lookup(id);
    if (stored.kind === 'gone') {
      this.forget(id);
      throw new SignInRequiredError();
    }
    if (stored.kind === 'found' && isNewerSession(stored.session, current)) {
      this.logger.info(`Using the tokens another window refreshed for ${id}.`);
      this.adopt(stored.session);
      return stored.session;
    }
    return current;
  }

  /**
   * After an invalid_grant: a newer session than `current` once one is stored or relayed, or after
   * raceGraceMs (a window that won the race for its refresh token stores the next one a moment after
   * our refusal); undefined when none came, or the session is gone (signed out elsewhere).
   */
  private async newerAfterRace(id: string, current: StoredSession): Promise<StoredSession | undefined> {
    const newer = (...candidates: Array<StoredSession | undefined>) => candidates.find((candidate) => candidate && isNewerSession(candidate, current));
    const first = await this.options.store.lookup(id);
    if (first.kind === 'gone') return undefined;
    const early = newer(foundSession(first), this.sessions.get(id));
    if (early) return early;
    await this.changeOf(id, this.options.raceGraceMs ?? 2000);
    return newer(this.sessions.get(id), foundSession(await this.options.store.lookup(id)));
  }

  /** Resolves when the stored session of `id` changes or another window relays one, or after `graceMs`. */
  private changeOf(id: string, graceMs: number): Promise<void> {
    const { clock, store } = this.options;
    return new Promise<void>((resolve) => {
      const watching: Disposable[] = [];
      const done = () => {
        clock.clearTimeout(timer);
        for (const subscription of watching) subscription.dispose();
        resolve();
      };
      const timer = clock.setTimeout(done, graceMs);
      watching.push(
        store.onDidChange(({ key }) => {
          const change = SessionStore.classify(key);
          if (change?.kind === 'session' && change.id === id) done();
        }),
      );
      // A session relayed by the window that won: the relay (subscribed first) has adopted it when this runs.
      const fromPeer = this.relay.onSessionOf(id, done);
      if (fromPeer) watching.push(fromPeer);
    });
  }

  private adopt(session: StoredSession): void {
    const previous = this.sessions.get(session.account.id);
    this.sessions.set(session.account.id, session);
    const change: SessionChange = previous
      ? { added: [], removed: [], changed: [session] }
      : { added: [session], removed: [], changed: [] };
    this.changes.fire(change);
    this.simpleChanges.fire();
  }

  /** Drops a session from memory (it is already gone from storage) and tells listeners. */
  private forget(id: string): StoredSession | undefined {
    const session = this.sessions.get(id);
    if (!session) return undefined;
    this.sessions.delete(id);
    if (this.activeId === id) this.activeId = undefined;
    this.changes.fire({ added: [], removed: [session], changed: [] });
    this.simpleChanges.fire();
    return session;
  }

  /** Ends a session: memory and storage (a storage error is logged, the session is gone for this window). */
  private async end(id: string): Promise<StoredSession | undefined> {
    const session = this.forget(id);
    try {
      await this.options.store.remove(id);
    } catch (error) {
      this.logger.warn(`Could not delete the stored session of ${id}: ${String(error)}`);
    }
    return session;
  }

  /** After a successful sign-in. */
  async addSession(signedIn: StoredSession): Promise<void> {
    await this.ensureLoaded();
    const previous = this.sessions.get(signedIn.account.id);
    // Later than any session of the account this window knows (see laterSession).
    const session = { ...signedIn, order: Math.max(signedIn.order ?? signedIn.updatedAt, nextOrder(previous, signedIn.updatedAt)) };
    this.sessions.set(session.account.id, session);
    this.activeId ??= session.account.id;
    try {
      await this.options.store.write(session);
    } catch (error) {
      this.logger.warn(`Could not store the new session (kept in memory for this window): ${String(error)}`);
    }
    this.changes.fire(previous ? { added: [], removed: [], changed: [session] } : { added: [session], removed: [], changed: [] });
    this.simpleChanges.fire();
    await this.rememberSignOut(false);
  }

  /**
   * True after a sign-out until the next sign-in: the browser may still hold the signed-out user's
   * session at the server, so the next sign-in asks for the login form (prompt=login) instead of
   * signing that user in again without asking.
   */
  async signedOutSinceSignIn(): Promise<boolean> {
    try {
      return await this.options.store.wasSignedOut();
    } catch (error) {
      this.logger.warn(`Could not read the sign-out marker: ${String(error)}`);
      return false;
    }
  }

  private async rememberSignOut(signedOut: boolean): Promise<void> {
    try {
      await this.options.store.setSignedOut(signedOut);
    } catch (error) {
      this.logger.warn(`Could not store the sign-out marker: ${String(error)}`);
    }
  }

  /** Sign-out: deletes the secrets, revokes the refresh token (best effort), tells listeners. */
  async removeSession(id: string): Promise<void> {
    await this.ensureLoaded();
    const session = this.sessions.get(id) ?? foundSession(await this.options.store.lookup(id));
    this.removing.add(id);
    try {
      await this.options.store.remove(id);
    } finally {
      this.removing.delete(id);
    }
    this.forget(id);
    await this.rememberSignOut(true);
    if (session) {
      const client = this.options.tokenClient();
      const token = session.refreshToken ?? session.accessToken;
      try {
        const revoked = await client.revoke(token, session.refreshToken ? 'refresh_token' : 'access_token');
        this.logger.info(revoked ? `Revoked the tokens of ${id}.` : `The server offers no revocation; the tokens of ${id} expire on their own.`);
      } catch (error) {
        this.logger.warn(`Token revocation failed (signed out anyway): ${String(error)}`);
      }
      forgetSecretsOf(session);
    }
  }

  /** A key changed, possibly in another window: bring memory in line with storage. */
  private async onStoreChange(key: string): Promise<void> {
    const change = SessionStore.classify(key);
    if (!change || change.kind === 'clientSecret') return;
    if (change.kind === 'session') return this.syncSession(change.id);
    try {
      const ids = new Set(await this.options.store.readIndex());
      for (const id of ids) if (!this.sessions.has(id)) await this.syncSession(id);
      for (const id of [...this.sessions.keys()]) if (!ids.has(id)) await this.syncSession(id);
    } catch (error) {
      this.logger.warn(`Could not read the session index after a change: ${String(error)}`);
    }
  }

  private async syncSession(id: string): Promise<void> {
    const read = await this.options.store.lookup(id);
    if (read.kind === 'unreadable') return; // transient storage error: keep what we have
    const known = this.sessions.get(id);
    if (read.kind === 'gone') {
      if (known && !this.removing.has(id)) {
        this.logger.info(`Session of ${id} was removed in another window.`);
        this.forget(id);
      }
      return;
    }
    const stored = read.session;
    if (!known) {
      this.logger.info(`Session of ${id} was added in another window.`);
      this.adopt(stored);
      return;
    }
    const standing = compareSessions(stored, known);
    if (standing === 'newer') {
      this.logger.info(`Session of ${id} was refreshed in another window.`);
      this.adopt(stored);
    } else if (standing === 'older') {
      this.logger.info(`Ignored stale session data for ${id} from storage.`);
    } else if (stored.account.label !== known.account.label) {
      this.adopt(stored);
    }
  }
}

function forgetSecretsOf(session: StoredSession, keep?: StoredSession): void {
  for (const value of [session.accessToken, session.refreshToken, session.idToken]) {
    if (value && value !== keep?.refreshToken && value !== keep?.idToken) forgetSecret(value);
  }
}
