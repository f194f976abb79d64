import { Emitter, type Event } from '../common/event';
import type { BrokerServer } from './brokerServer';
import type { BrokerLink } from './brokerLink';
import type { SessionRecord } from './protocol';

/** A refreshed session relayed between windows, and the secret store (environment) it belongs to. */
export interface RelayedSession {
  store: string;
  session: SessionRecord;
}

/** Where the relay's messages go: the link to the broker, or the broker's server when this window is the broker. */
export interface SessionRoute {
  link(): BrokerLink | undefined;
  server(): BrokerServer | undefined;
}

/** How long `sync` waits for the broker's answer before it gives up. */
const SYNC_TIMEOUT_MS = 1000;

/**
 * The session part of a window's channel (windowChannel.ts): sessions refreshed in one window handed
 * to the others, for windows whose secret storage does not show another window's writes (the browser
 * editor). Memory only: the broker keeps the newest session of each account and store while it runs
 * (for windows that join later) and its journal never sees them.
 */
export class SessionChannel {
  private nextSync = 1;
  private readonly syncs = new Map<number, (reached: boolean) => void>();
  private readonly sessions = new Emitter<RelayedSession>();
  private disposed = false;
  /** Sessions other windows refreshed. */
  readonly onSession: Event<RelayedSession> = this.sessions.event;

  constructor(private readonly route: SessionRoute) {}

  /** Hands a session this window refreshed to every other window (see `sync`). */
  publish(relayed: RelayedSession): void {
    const message = { t: 'session' as const, ...relayed };
    const server = this.route.server();
    if (server) server.shareSession(message);
    else this.route.link()?.send(message);
  }

  /**
   * Resolves true once every session the broker relayed to this window before now has reached it,
   * false when there is no broker to ask (or it did not answer within SYNC_TIMEOUT_MS). The broker
   * relays each window's message to the others before it handles that window's next one, and answers
   * a `sync` on the same connection as its relays, after sending again the newest session of each
   * account it relayed (for a window that joined after the relay): so after `publish` + `sync` in
   * one window, a `sync` begun later in another resolves after that window has received the session.
   */
  sync(): Promise<boolean> {
    if (this.route.server()) return Promise.resolve(true);
    const link = this.route.link();
    if (!link || this.disposed) return Promise.resolve(false);
    const n = this.nextSync++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle(false), SYNC_TIMEOUT_MS);
      const settle = (reached: boolean) => {
        clearTimeout(timer);
        this.syncs.delete(n);
        resolve(reached);
      };
      this.syncs.set(n, settle);
      link.send({ t: 'sync', n });
    });
  }

  /** A session another window published. */
  received(relayed: RelayedSession): void {
    this.sessions.fire(relayed);
  }

  /** The broker's answer to the sync `n`. */
  synced(n: number): void {
    this.syncs.get(n)?.(true);
  }

  /** The broker is gone: the syncs waiting for it answer false. */
  lost(): void {
    for (const settle of [...this.syncs.values()]) settle(false);
  }

  dispose(): void {
    this.disposed = true;
    this.lost();
    this.sessions.dispose();
  }
}
