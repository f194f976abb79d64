import { randomBytes } from 'node:crypto';
import { Emitter, type Event } from '../common/event';
import type { BrokerLink } from './brokerLink';
import { takeBrokerRole, type BrokerRole, type ChannelOptions, type OwnBroker } from './brokerRole';
import type { BrokerMessage, QuotaState } from './protocol';
import { SessionChannel } from './sessionChannel';
import { SharedRateLedger } from './sharedRateLedger';

/**
 * One application's channel between this window (an editor window, a runner) and the other windows
 * of the user on this machine: the connection to the application's broker, or the broker itself
 * (brokerRole.ts elects it). It carries three things, each with its own part:
 * - `rate`: the application's rate-limit ledger shared by every window (sharedRateLedger.ts);
 * - `quota`: readings, weekly stops and resumes (QuotaRelay);
 * - `sessions`: refreshed sessions, for windows that do not see each other's secret storage (sessionChannel.ts).
 * A broker that goes away is replaced by the next election; each part takes up with the new one.
 */
export class WindowChannel {
  readonly windowId = randomBytes(16).toString('hex');
  readonly rate: SharedRateLedger;
  readonly quota: QuotaRelay;
  readonly sessions: SessionChannel;
  private link: BrokerLink | undefined;
  private broker: OwnBroker | undefined;
  private disposed = false;
  private readonly roleChanges = new Emitter<'broker' | 'window'>();
  /** After each election: whether this window became the broker. */
  readonly onRole: Event<'broker' | 'window'> = this.roleChanges.event;

  constructor(private readonly options: ChannelOptions) {
    const link = () => this.link;
    this.rate = new SharedRateLedger(options, { link, engine: () => this.broker?.core });
    this.quota = new QuotaRelay({ link, broker: () => this.broker });
    this.sessions = new SessionChannel({ link, server: () => this.broker?.server });
  }

  /** Joins the application's broker or becomes it; resolves once slots can be asked for. */
  async start(): Promise<void> {
    await this.elect();
  }

  get isBroker(): boolean {
    return this.broker !== undefined;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.sessions.dispose();
    this.rate.dispose();
    this.link?.close();
    this.link = undefined;
    this.broker?.server.close();
    this.broker?.core.dispose();
    this.broker?.journal.close();
    this.broker = undefined;
    this.quota.dispose();
    this.roleChanges.dispose();
  }

  private elect(): Promise<void> {
    return takeBrokerRole(this.options, {
      windowId: this.windowId,
      isDisposed: () => this.disposed,
      report: () => this.rate.report(),
      deliver: (message) => this.onBrokerMessage(message),
      relayed: (message) =>
        message.t === 'quota' ? this.quota.received(message.state) : this.sessions.received({ store: message.store, session: message.session }),
      lost: (reason) => this.lost(reason),
      joined: (role) => this.joined(role),
    });
  }

  private joined(role: BrokerRole): void {
    this.link = role.link;
    if (role.role === 'broker') {
      this.broker = role.broker;
      this.rate.joined(undefined);
    } else {
      this.rate.joined(role.welcome.pausedForMs);
      for (const state of role.welcome.quota) this.quota.received(state);
    }
    this.options.logger.info(
      role.role === 'window'
        ? 'Rate-limit ledger: joined the broker of the other windows'
        : `Rate-limit ledger: this window is the broker${role.tookOver > 0 ? ` (took over ${role.tookOver} calls of the last minute)` : ''}`,
    );
    this.roleChanges.fire(role.role);
  }

  private lost(reason: string): void {
    if (this.disposed) return;
    this.link = undefined;
    this.sessions.lost();
    this.options.logger.warn(`Rate-limit ledger: lost the broker (${reason}); electing another`);
    void this.elect();
  }

  /** A message from the broker, to the part it belongs to. */
  private onBrokerMessage(message: BrokerMessage): void {
    switch (message.t) {
      case 'grant':
        if (message.w === this.windowId) this.rate.granted(message.id);
        return;
      case 'pause':
        return this.rate.paused(message.forMs);
      case 'quota':
        return this.quota.received(message.state);
      case 'session':
        return this.sessions.received({ store: message.store, session: message.session });
      case 'synced':
        return this.sessions.synced(message.n);
      case 'challenge':
      case 'welcome':
        return;
    }
  }
}

/** The quota part of a window's channel: readings, weekly stops and resumes, relayed to every window. */
export class QuotaRelay {
  private readonly states = new Emitter<QuotaState>();
  /** Quota states from other windows. */
  readonly onQuota: Event<QuotaState> = this.states.event;

  constructor(private readonly route: { link(): BrokerLink | undefined; broker(): OwnBroker | undefined }) {}

  /** Tells the other windows of a quota change made here. */
  share(state: QuotaState): void {
    const broker = this.route.broker();
    if (broker) broker.server.broadcast({ t: 'quota', state });
    else this.route.link()?.send({ t: 'quota', state });
  }

  received(state: QuotaState): void {
    this.states.fire(state);
  }

  dispose(): void {
    this.states.dispose();
  }
}
