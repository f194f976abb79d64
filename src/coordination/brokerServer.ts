import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Server, Socket } from 'node:net';
import { laterSession } from '../auth/sessionStore';
import type { Logger } from '../common/logger';
import type { LedgerBroker } from './ledgerBroker';
import { LineChannel } from './lineChannel';
import { parseClientMessage, type BrokerMessage, type ClientMessage, type QuotaState } from './protocol';

/** HMAC of `nonce` for `role` with the user's key: each side proves it read the key file. */
export function proof(key: Buffer, role: 'broker' | 'window', nonce: string): string {
  return createHmac('sha256', key).update(`${role}:${nonce}`).digest('hex');
}

export function proofMatches(key: Buffer, role: 'broker' | 'window', nonce: string, given: string): boolean {
  const expected = Buffer.from(proof(key, role, nonce), 'hex');
  const actual = Buffer.from(given, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export const newNonce = () => randomBytes(16).toString('hex');

export interface BrokerServerHooks {
  /** What a joining window gets: the pause in force and the quota of every organization. */
  welcome(): { pausedForMs: number; quota: QuotaState[] };
  /** A window reported a quota change or a refreshed session (already relayed to the other windows). */
  relayed(message: RelayedMessage): void;
}

/** What a window tells every other window through the broker. */
export type RelayedMessage = Extract<ClientMessage, { t: 'quota' } | { t: 'session' }>;
type SessionMessage = Extract<ClientMessage, { t: 'session' }>;

interface Connection {
  channel: LineChannel;
  window?: string;
  nonce?: string;
}

/**
 * Serves the windows of one application: the handshake (hello, challenge, join), then each window's
 * messages to the LedgerBroker, and the broker's messages to every joined window.
 */
export class BrokerServer {
  private readonly joined = new Map<string, Connection>();
  /**
   * The newest session of each account and secret store relayed while this broker ran (memory only):
   * a window that joins later (a page opened after the refresh, whose storage may show the older
   * tokens) gets them before the answer to its `sync`.
   */
  private readonly sessions = new Map<string, { message: SessionMessage; from?: string }>();

  constructor(
    private readonly server: Server,
    private readonly key: Buffer,
    private readonly broker: () => LedgerBroker,
    private readonly hooks: BrokerServerHooks,
    private readonly logger: Logger,
  ) {}

  accept(socket: Socket): void {
    const connection: Connection = { channel: undefined as unknown as LineChannel };
    connection.channel = new LineChannel(
      socket,
      (line) => {
        const message = parseClientMessage(line);
        return message !== undefined && this.handle(connection, message);
      },
      (reason) => this.closed(connection, reason),
    );
  }

  sendTo(window: string, message: BrokerMessage): void {
    this.joined.get(window)?.channel.send(message);
  }

  broadcast(message: BrokerMessage): void {
    for (const connection of this.joined.values()) connection.channel.send(message);
  }

  /** A session the broker's own window refreshed: to every other window, and kept for later ones. */
  shareSession(message: SessionMessage): void {
    this.keep(message, undefined);
    this.broadcast(message);
  }

  close(): void {
    this.sessions.clear();
    this.server.close();
    for (const connection of this.joined.values()) connection.channel.close();
    this.joined.clear();
  }

  /** False: the message does not belong here, and the connection is closed. */
  private handle(connection: Connection, message: ClientMessage): boolean {
    if (!connection.window) {
      if (message.t === 'hello' && connection.nonce === undefined) {
        connection.nonce = newNonce();
        connection.channel.send({ t: 'challenge', nonce: connection.nonce, proof: proof(this.key, 'broker', message.nonce) });
        return true;
      }
      if (message.t !== 'join' || connection.nonce === undefined || !proofMatches(this.key, 'window', connection.nonce, message.proof)) {
        this.logger.warn('Rate-limit broker: refused a connection that did not prove the key');
        return false;
      }
      const previous = this.joined.get(message.w);
      connection.window = message.w;
      this.joined.set(message.w, connection);
      previous?.channel.close('replaced');
      this.broker().join(message.w, message.inFlight, message.ended);
      connection.channel.send({ t: 'welcome', ...this.hooks.welcome() });
      return true;
    }
    const window = connection.window;
    switch (message.t) {
      case 'want':
        this.broker().want(window, message.id, message.front);
        return true;
      case 'cancel':
        this.broker().cancel(window, message.id);
        return true;
      case 'done':
        this.broker().done(window, message.id, message.how, message.answer);
        return true;
      case 'pause':
        this.broker().pause(message.ms);
        return true;
      case 'session':
      case 'quota':
        if (message.t === 'session') this.keep(message, window);
        // Relayed in the order received, before any later `synced` to anyone (see SessionChannel.sync).
        for (const other of this.joined.values()) if (other !== connection) other.channel.send(message);
        this.hooks.relayed(message);
        return true;
      case 'sync':
        for (const { message: session, from } of this.sessions.values()) if (from !== window) connection.channel.send(session);
        connection.channel.send({ t: 'synced', n: message.n });
        return true;
      default:
        return false;
    }
  }

  private keep(message: SessionMessage, from: string | undefined): void {
    const key = `${message.store}\n${message.session.account.id}`;
    const known = this.sessions.get(key);
    if (!known || !laterSession(known.message.session, message.session)) this.sessions.set(key, { message, from });
  }

  private closed(connection: Connection, reason: string): void {
    if (!connection.window || this.joined.get(connection.window) !== connection) return;
    this.joined.delete(connection.window);
    this.logger.info(`Rate-limit broker: window ${connection.window.slice(0, 8)} left (${reason})`);
    this.broker().leave(connection.window);
  }
}
