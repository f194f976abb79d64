import type { Disposable, Event } from '../common/event';
import type { Logger } from '../common/logger';
import { registerSecret } from '../common/redact';
import { isNewerSession, type SessionRead, type StoredSession } from './sessionStore';

/** The other windows, for sessions refreshed in one and needed in all. */
export interface SessionPeers {
  /** Hands a session refreshed here to the other windows; resolves once the broker relayed it (or at once, alone). */
  publish(session: StoredSession): Promise<void>;
  /** Resolves once the sessions the other windows published before now have reached onSession. */
  sync(): Promise<void>;
  readonly onSession: Event<StoredSession>;
}

/** What the relay needs of the window's sessions. */
export interface RelayedSessions {
  /** The session of an account this window holds. */
  known(id: string): StoredSession | undefined;
  /** Takes a session as this window's (memory, listeners). */
  adopt(session: StoredSession): void;
  /** The stored record: found, gone or unreadable. */
  readStored(id: string): Promise<SessionRead>;
  write(session: StoredSession): Promise<void>;
  logger: Logger;
}

const trimSlash = (value: string) => value.replace(/\/+$/, '');

/**
 * Sessions handed between the windows of the editor (src/coordination), for editors whose windows do
 * not see each other's secret storage writes (the browser editor): a refresh done here is published,
 * and a later session of an account signed in here, refreshed elsewhere, is adopted and stored in
 * this window's storage. Memory only on the way; without peers every step is a no-op.
 */
export class SessionRelay implements Disposable {
  private readonly subscription: Disposable | undefined;

  constructor(
    private readonly peers: SessionPeers | undefined,
    private readonly sessions: RelayedSessions,
  ) {
    this.subscription = peers?.onSession((session) => this.adoptFromPeer(session));
  }

  dispose(): void {
    this.subscription?.dispose();
  }

  /** Hands a session refreshed here to the other windows (before the refresh lock is released). */
  async publish(session: StoredSession): Promise<void> {
    await this.peers?.publish(session).catch((error: unknown) => this.sessions.logger.warn(`Could not hand the refreshed tokens to the other windows: ${String(error)}`));
  }

  /**
   * The session of `id` once the other windows' published sessions reached this one: `current`, or
   * the later one adopted meanwhile; undefined when the account is no longer signed in here.
   */
  async sync(id: string, current: StoredSession): Promise<StoredSession | undefined> {
    if (!this.peers) return current;
    await this.peers.sync().catch((error: unknown) => this.sessions.logger.warn(`Could not reach the other windows before a refresh: ${String(error)}`));
    const latest = this.sessions.known(id);
    if (!latest) return undefined;
    return isNewerSession(latest, current) ? latest : current;
  }

  /** Calls `listener` when a session of `id` arrives from another window (after it was adopted). */
  onSessionOf(id: string, listener: () => void): Disposable | undefined {
    return this.peers?.onSession((session) => session.account.id === id && listener());
  }

  /**
   * A session another window refreshed: later tokens of an account signed in here are adopted and
   * stored in this window's secret storage (which, in the browser editor, another window's write does
   * not reach). Sessions of accounts not signed in here, of another server, or not later than ours are ignored.
   */
  private adoptFromPeer(session: StoredSession): void {
    const id = session.account.id;
    const known = this.sessions.known(id);
    if (!known || trimSlash(known.authUrl) !== trimSlash(session.authUrl) || known.clientId !== session.clientId) return;
    if (!isNewerSession(session, known)) return;
    for (const secret of [session.accessToken, session.refreshToken, session.idToken]) registerSecret(secret);
    this.sessions.logger.info(`Session of ${id} was refreshed in another window; using its tokens.`);
    this.sessions.adopt(session);
    void this.storeAdopted(session);
  }

  private async storeAdopted(session: StoredSession): Promise<void> {
    const stored = await this.sessions.readStored(session.account.id);
    if (stored.kind === 'gone' || (stored.kind === 'found' && !isNewerSession(session, stored.session))) return; // signed out, or already there
    try {
      await this.sessions.write(session);
    } catch (error) {
      this.sessions.logger.warn(`Could not store the tokens another window refreshed (kept in memory): ${String(error)}`);
    }
  }
}
