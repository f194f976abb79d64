import type { Event } from '../common/event';
import type { Logger } from '../common/logger';
import { registerSecret } from '../common/redact';
import type { SecretStore } from '../common/secretStore';
import type { AccountInfo } from './types';

/*
 * SecretStorage layout (the only place sign-in data is kept; nothing secret in settings,
 * globalState, files or logs):
 *
 *   tenantApi.auth.sessions            JSON string[]: the account ids (`sub`) that have a session, in sign-in order.
 *                                      An index only: the per-account key below is the truth.
 *   tenantApi.auth.session/<sub>       JSON StoredSession (below): access token, refresh token, id_token,
 *                                      expiry (ms since epoch), granted scopes, account (id, label, roles),
 *                                      order (to tell newer data from stale, see laterSession),
 *                                      updatedAt (ms since epoch, when it was written),
 *                                      authUrl and clientId the tokens came from.
 *   tenantApi.auth.clientSecret        the client secret, only when the registered client has one
 *                                      (command Tenant API: Set Client Secret).
 *   tenantApi.auth.signedOut           "1" after a sign-out until the next sign-in (not a secret; kept here
 *                                      so that every window sees it): the next sign-in shows the login form.
 *
 * In desktop VS Code SecretStorage is shared by every window; onDidChange reports each key another
 * window writes, which is how a refresh or sign-out done elsewhere reaches this window. In the
 * browser editor (code-server) a page does not see another page's writes: refreshed sessions reach
 * it over the windows' connection instead (SessionManager's peers, src/coordination).
 */
import { CLIENT_SECRET_KEY, SESSION_KEY_PREFIX, SESSIONS_INDEX_KEY } from '../common/sessionSecretNames';
export { CLIENT_SECRET_KEY, SESSION_KEY_PREFIX, SESSIONS_INDEX_KEY };
export const SIGNED_OUT_KEY = 'tenantApi.auth.signedOut';

export interface StoredSession {
  version: 1;
  account: AccountInfo;
  accessToken: string;
  refreshToken?: string;
  idToken?: string;
  /** Access token expiry, ms since the epoch. */
  expiresAt: number;
  scopes: string[];
  /** When this record was written, ms since the epoch (a wall clock: it orders sessions only in a tie). */
  updatedAt: number;
  /** The session's place in its account's history (see laterSession); absent in records written before it. */
  order?: number;
  authUrl: string;
  clientId: string;
}

/**
 * Whether `a` is a later session of an account than `b`. By `order`, not by the wall clock: a clock
 * stepped back (an NTP correction, a suspended laptop) makes a newer updatedAt look older, and a
 * window that keeps the older session spends a refresh token already used and is signed out.
 * `order` is a hybrid logical clock: a session's is the larger of one more than the order of the
 * session it came from and the wall clock, so a refresh is always later than the session whose
 * refresh token it spent, on any clock (one refresh per refresh token across windows: the lock),
 * while two sign-ins that know nothing of each other are ordered by time, as before.
 * Why not a counter the broker assigns, or the token's issue time: windows learn sessions from shared
 * storage too, where no broker numbered them (desktop, or a window alone), and an access token may be
 * opaque, with no issue time (an id_token is not always reissued on refresh). A record written before
 * `order` existed counts its updatedAt; a tie is broken by updatedAt.
 */
export function laterSession(a: StoredSession, b: StoredSession): boolean {
  const [oa, ob] = [orderOf(a), orderOf(b)];
  return oa !== ob ? oa > ob : a.updatedAt > b.updatedAt;
}

/**
 * The one rule for "which of two sessions of an account is newer": how `candidate` (read from storage,
 * or handed on by another window) stands to `held` (the one this window has): the same tokens, a newer
 * session (other tokens, and not an earlier session: laterSession), or an older one (stale data).
 */
export function compareSessions(candidate: StoredSession, held: StoredSession): 'same' | 'newer' | 'older' {
  if (candidate.accessToken === held.accessToken && candidate.refreshToken === held.refreshToken) return 'same';
  return laterSession(held, candidate) ? 'older' : 'newer';
}

/** Whether `candidate` replaces `held` (compareSessions). */
export function isNewerSession(candidate: StoredSession, held: StoredSession): boolean {
  return compareSessions(candidate, held) === 'newer';
}

/**
 * A stored session as read: found; gone (signed out, or a record that cannot be used); or unreadable
 * (the storage failed, so nothing is known: what this window holds stays as it is).
 */
export type SessionRead = { kind: 'found'; session: StoredSession } | { kind: 'gone' } | { kind: 'unreadable' };

/** The session a read found, if any. */
export function foundSession(read: SessionRead): StoredSession | undefined {
  return read.kind === 'found' ? read.session : undefined;
}

const orderOf = (session: StoredSession | undefined) => (session ? (session.order ?? session.updatedAt) : 0);

/** The order of a session that follows `previous` (or none), written at `now` (see laterSession). */
export function nextOrder(previous: StoredSession | undefined, now: number): number {
  return Math.max(orderOf(previous) + 1, now);
}

export type StoreChange = { kind: 'index' } | { kind: 'session'; id: string } | { kind: 'clientSecret' };

export class SessionStore {
  constructor(
    private readonly secrets: SecretStore,
    private readonly logger: Logger,
  ) {}

  /** Which part of the layout a changed key belongs to; undefined for keys that are not ours. */
  static classify(key: string): StoreChange | undefined {
    if (key === SESSIONS_INDEX_KEY) return { kind: 'index' };
    if (key === CLIENT_SECRET_KEY) return { kind: 'clientSecret' };
    if (key.startsWith(SESSION_KEY_PREFIX)) return { kind: 'session', id: key.slice(SESSION_KEY_PREFIX.length) };
    return undefined;
  }

  get onDidChange(): Event<{ key: string }> {
    return this.secrets.onDidChange;
  }

  async readIndex(): Promise<string[]> {
    const raw = await this.secrets.get(SESSIONS_INDEX_KEY);
    if (!raw) return [];
    try {
      const ids = JSON.parse(raw) as unknown;
      return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
    } catch {
      this.logger.warn('The stored session index is not valid JSON; ignoring it.');
      return [];
    }
  }

  /** The stored session, undefined when there is none (or it is unreadable). Storage errors propagate. */
  async read(id: string): Promise<StoredSession | undefined> {
    const raw = await this.secrets.get(SESSION_KEY_PREFIX + id);
    if (!raw) return undefined;
    try {
      const session = JSON.parse(raw) as StoredSession;
      if (session.version !== 1 || typeof session.accessToken !== 'string' || !session.account?.id) {
        this.logger.warn(`The stored session of account ${id} has an unknown shape; ignoring it.`);
        return undefined;
      }
      registerSecret(session.accessToken);
      registerSecret(session.refreshToken);
      registerSecret(session.idToken);
      return session;
    } catch {
      this.logger.warn(`The stored session of account ${id} is not valid JSON; ignoring it.`);
      return undefined;
    }
  }

  /** The stored session of `id` as found, gone or unreadable (a storage error is logged, never thrown). */
  async lookup(id: string): Promise<SessionRead> {
    try {
      const session = await this.read(id);
      return session ? { kind: 'found', session } : { kind: 'gone' };
    } catch (error) {
      this.logger.warn(`Could not read the stored session of ${id}: ${String(error)}`);
      return { kind: 'unreadable' };
    }
  }

  async readAll(): Promise<StoredSession[]> {
    const sessions: StoredSession[] = [];
    for (const id of await this.readIndex()) {
      const session = await this.read(id);
      if (session) sessions.push(session);
    }
    return sessions;
  }

  async write(session: StoredSession): Promise<void> {
    await this.secrets.store(SESSION_KEY_PREFIX + session.account.id, JSON.stringify(session));
    const index = await this.readIndex();
    if (!index.includes(session.account.id)) {
      await this.secrets.store(SESSIONS_INDEX_KEY, JSON.stringify([...index, session.account.id]));
    }
  }

  async remove(id: string): Promise<void> {
    await this.secrets.delete(SESSION_KEY_PREFIX + id);
    const index = await this.readIndex();
    if (index.includes(id)) {
      await this.secrets.store(SESSIONS_INDEX_KEY, JSON.stringify(index.filter((other) => other !== id)));
    }
  }

  /** Whether an account was signed out since the last sign-in (in any window). */
  async wasSignedOut(): Promise<boolean> {
    return (await this.secrets.get(SIGNED_OUT_KEY)) === '1';
  }

  async setSignedOut(signedOut: boolean): Promise<void> {
    if (signedOut) await this.secrets.store(SIGNED_OUT_KEY, '1');
    else if (await this.wasSignedOut()) await this.secrets.delete(SIGNED_OUT_KEY);
  }

  async getClientSecret(): Promise<string | undefined> {
    const secret = await this.secrets.get(CLIENT_SECRET_KEY);
    registerSecret(secret);
    return secret || undefined;
  }

  async setClientSecret(secret: string | undefined): Promise<void> {
    if (secret) {
      registerSecret(secret);
      await this.secrets.store(CLIENT_SECRET_KEY, secret);
    } else {
      await this.secrets.delete(CLIENT_SECRET_KEY);
    }
  }
}
