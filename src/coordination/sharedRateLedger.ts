import { randomBytes } from 'node:crypto';
import { apiErrors } from '../api/errors';
import type { RateLimit } from '../api/limits';
import type { RateLedger, Slot, SlotAsk, Withdraw } from '../api/rateLedger';
import type { Clock } from '../common/clock';
import { Emitter, type Event } from '../common/event';
import type { Logger } from '../common/logger';
import type { BrokerLink } from './brokerLink';
import { takeBrokerRole, type BrokerRole, type OwnBroker } from './brokerRole';
import { logHorizonMs } from './ledgerBroker';
import type { AnswerTiming, BrokerMessage, DoneHow, EndedCall, QuotaState, SessionRecord } from './protocol';
import type { RuntimeDir } from './runtimeDir';

/*
 * One rate-limit ledger per application (authUrl + clientId) for every window of the editor on
 * this machine: a window's side (its calls, their slots, the broker's messages); joining the broker
 * or becoming it is brokerRole.ts's job.
 *
 * Invariant: the calls of all windows together keep the guarantee that one window's scheduler
 * gives its own calls (see RequestScheduler and countTimeEstimate.ts): no interval of a limit's
 * window holds more than its `max` calls counted by the server.
 *
 * Why it holds:
 * 1. One decider. The windows elect a broker: whoever listens on the application's socket in the
 *    user-only directory (runtimeDir.ts). A socket file nobody answers on is replaced only under a
 *    lock and after a second failed connection (election.ts), so two windows never both grant. A
 *    window takes a slot only from the broker it has joined: its own process (direct calls) or the
 *    one at the other end of an open connection that proved the user's key.
 * 2. The broker's engine is a RequestScheduler holding every window's calls: a call counts in
 *    every window from its grant until its window reports how it ended. An answered call is then
 *    logged as countTimeEstimate.ts argues for one window, with two changes that only move entries
 *    later: its answer time is when the report reaches the broker (after the answer reached the
 *    window), and the round trips are measured at the windows (send to headers, exact) and fed to
 *    the engine's estimator, so the floor is the fastest round trip of any window to that origin,
 *    the same network path. With a = the answer at the window and d >= 0 the report's delay, the
 *    next call is granted at (a + d - Rmin) + window + margin, so the condition of
 *    countTimeEstimate.ts becomes pre_y + post_x + margin + d >= Rmin: weaker than for one window.
 *    A 429 for the second or minute makes the engine log answer times for good, for every window.
 *    A failed or given-up call is logged when its report arrives.
 * 3. A broker that dies (kill -9) takes no knowledge with it: it writes every grant, and every
 *    end, to its journal (journal.ts) with a synchronous write before anyone can act on it, and
 *    the journal outlives it. The next broker starts from the journal (logged calls at their time,
 *    with no round trip taken off: no earlier than the old broker's entry; calls in flight as in
 *    flight), then each window that joins corrects its own part: its calls in flight keep a slot,
 *    its calls that ended while nobody listened are logged at (arrival of its report - their age),
 *    no earlier than their end; grants it never received are given back. Calls of a window that
 *    never joins within JOIN_GRACE_MS (the dead one) are logged at that moment, after they can
 *    have been counted, and stop counting one window later: nobody waits on a dead window's
 *    reservations longer than their window. A window that loses its broker keeps its waiting calls
 *    and asks the next broker for them: none is lost, and none is sent twice, since a call leaves
 *    only from the window that owns it and only once per grant.
 * 4. A 429 pause is the engine's, so it holds every window back; it is also sent to every window
 *    for its status. Quota states (readings, weekly stops, resumes) are relayed to every window.
 *    So are refreshed sessions (memory only: the journal never sees them), for windows whose secret
 *    storage does not show another window's writes (the browser editor); see `sync`.
 * What it assumes: windows are processes of one user on one machine; a request already written by
 * a window killed in mid-call reaches the server within JOIN_GRACE_MS of its death.
 */

interface LocalCall {
  state: 'waiting' | 'granted' | 'sent';
  ask: SlotAsk;
}

export interface SharedRateLedgerOptions {
  dir: RuntimeDir;
  appKey: string;
  clock: Clock;
  /** The application's limits (scaled like the scheduler's). */
  limits: readonly RateLimit[];
  safetyMarginMs: () => number;
  logger: Logger;
  /** The quota of every organization, for windows joining while this one is the broker. */
  quotaStates: () => QuotaState[];
}

/** How long `sync` waits for the broker's answer before it gives up. */
const SYNC_TIMEOUT_MS = 1000;

/** A refreshed session relayed between windows, and the secret store (environment) it belongs to. */
export interface RelayedSession {
  store: string;
  session: SessionRecord;
}
export class SharedRateLedger implements RateLedger {
  readonly windowId = randomBytes(16).toString('hex');
  private nextId = 1;
  private readonly calls = new Map<number, LocalCall>();
  /** This window's calls that ended and were logged, with when (this clock), for a new broker. */
  private readonly ended: Array<{ id: number; at: number }> = [];
  private link: BrokerLink | undefined;
  private broker: OwnBroker | undefined;
  private localPausedUntil: number | undefined;
  private unsentPauseMs = 0;
  private disposed = false;
  private readonly changes = new Emitter<void>();
  private readonly quotaChanges = new Emitter<QuotaState>();
  private readonly roleChanges = new Emitter<'broker' | 'window'>();
  private readonly sessionChanges = new Emitter<RelayedSession>();
  private nextSync = 1;
  private readonly syncs = new Map<number, (reached: boolean) => void>();
  readonly onDidChange: Event<void> = this.changes.event;
  /** Quota states from other windows. */
  readonly onQuota: Event<QuotaState> = this.quotaChanges.event;
  /** Sessions other windows refreshed. */
  readonly onSession: Event<RelayedSession> = this.sessionChanges.event;
  /** After each election: whether this window became the broker. */
  readonly onRole: Event<'broker' | 'window'> = this.roleChanges.event;

  constructor(private readonly options: SharedRateLedgerOptions) {}

  /** Joins the application's broker or becomes it; resolves once slots can be asked for. */
  async start(): Promise<void> {
    await this.elect();
  }

  get isBroker(): boolean {
    return this.broker !== undefined;
  }

  get pausedUntil(): number | undefined {
    const until = this.broker ? this.broker.core.pausedUntil : this.localPausedUntil;
    return until !== undefined && until > this.options.clock.monotonic() ? until : undefined;
  }

  roundTripFloor(): number | undefined {
    return undefined; // across windows calls are logged at answer times (see the invariant, 2)
  }

  logTimes(): number[] {
    return this.broker ? this.broker.core.logTimes() : []; // the log is the broker's
  }

  ask(ask: SlotAsk): Withdraw {
    if (this.disposed) {
      ask.refused(apiErrors.cancelled());
      return () => undefined;
    }
    const id = this.nextId++;
    const call: LocalCall = { state: 'waiting', ask };
    this.calls.set(id, call);
    this.link?.send({ t: 'want', id, front: ask.front });
    return () => {
      if (this.calls.get(id) !== call || call.state !== 'waiting') return;
      this.calls.delete(id);
      this.link?.send({ t: 'cancel', id });
    };
  }

  pause(ms: number): void {
    const until = this.options.clock.monotonic() + ms;
    if (this.localPausedUntil === undefined || this.localPausedUntil < until) this.localPausedUntil = until;
    if (this.link) this.link.send({ t: 'pause', ms });
    else this.unsentPauseMs = Math.max(this.unsentPauseMs, ms);
    this.changes.fire();
  }

  /** Tells the other windows of a quota change made here. */
  shareQuota(state: QuotaState): void {
    if (this.broker) this.broker.server.broadcast({ t: 'quota', state });
    else this.link?.send({ t: 'quota', state });
  }

  /** Hands a session this window refreshed to every other window (see `sync`). */
  shareSession(relayed: RelayedSession): void {
    const message = { t: 'session' as const, ...relayed };
    if (this.broker) this.broker.server.shareSession(message);
    else this.link?.send(message);
  }

  /**
   * Resolves true once every message the broker relayed to this window before now has reached it,
   * false when there is no broker to ask (or it did not answer within SYNC_TIMEOUT_MS). The broker
   * relays each window's message to the others before it handles that window's next one, and answers
   * a `sync` on the same connection as its relays, after sending again the newest session of each
   * account it relayed (for a window that joined after the relay): so after `shareSession` + `sync` in
   * one window, a `sync` begun later in another resolves after that window has received the session.
   */
  sync(): Promise<boolean> {
    if (this.broker) return Promise.resolve(true);
    const link = this.link;
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

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const settle of [...this.syncs.values()]) settle(false);
    for (const [id, call] of this.calls) {
      if (call.state !== 'waiting') continue;
      this.calls.delete(id);
      call.ask.refused(apiErrors.cancelled());
    }
    this.link?.close();
    this.link = undefined;
    this.broker?.server.close();
    this.broker?.core.dispose();
    this.broker?.journal.close();
    this.broker = undefined;
    this.changes.dispose();
    this.quotaChanges.dispose();
    this.sessionChanges.dispose();
    this.roleChanges.dispose();
  }

  // ---- the role: window or broker (brokerRole.ts) --------------------------------------------

  private elect(): Promise<void> {
    return takeBrokerRole(this.options, {
      windowId: this.windowId,
      isDisposed: () => this.disposed,
      report: () => this.report(),
      deliver: (message) => this.onBrokerMessage(message),
      relayed: (message) =>
        message.t === 'quota' ? this.quotaChanges.fire(message.state) : this.sessionChanges.fire({ store: message.store, session: message.session }),
      lost: (reason) => this.lost(reason),
      joined: (role) => this.joined(role),
    });
  }

  private joined(role: BrokerRole): void {
    this.link = role.link;
    if (role.role === 'broker') {
      this.broker = role.broker;
    } else {
      this.localPausedUntil = role.welcome.pausedForMs > 0 ? this.options.clock.monotonic() + role.welcome.pausedForMs : undefined;
      for (const state of role.welcome.quota) this.quotaChanges.fire(state);
    }
    this.afterJoin();
    this.options.logger.info(
      role.role === 'window'
        ? 'Rate-limit ledger: joined the broker of the other windows'
        : `Rate-limit ledger: this window is the broker${role.tookOver > 0 ? ` (took over ${role.tookOver} calls of the last minute)` : ''}`,
    );
    this.roleChanges.fire(role.role);
  }

  /** Asks the (new) broker for every call still waiting, in order, and sends a pause it missed. */
  private afterJoin(): void {
    if (this.unsentPauseMs > 0) {
      this.link!.send({ t: 'pause', ms: this.unsentPauseMs });
      this.unsentPauseMs = 0;
    }
    const waiting = [...this.calls.entries()].filter(([, call]) => call.state === 'waiting');
    for (const [id, call] of [...waiting.filter(([, c]) => c.ask.front).reverse(), ...waiting.filter(([, c]) => !c.ask.front)]) {
      this.link!.send({ t: 'want', id, front: call.ask.front });
    }
    this.changes.fire();
  }

  private lost(reason: string): void {
    if (this.disposed) return;
    this.link = undefined;
    for (const settle of [...this.syncs.values()]) settle(false);
    this.options.logger.warn(`Rate-limit ledger: lost the broker (${reason}); electing another`);
    void this.elect();
  }

  /** What this window tells a new broker about its calls (see the invariant, 3). */
  private report(): { inFlight: number[]; ended: EndedCall[] } {
    const now = this.options.clock.monotonic();
    this.pruneEnded(now);
    return {
      inFlight: [...this.calls.entries()].filter(([, call]) => call.state !== 'waiting').map(([id]) => id),
      ended: this.ended.map((call) => ({ id: call.id, agoMs: Math.max(0, now - call.at) })),
    };
  }

  // ---- messages from the broker ---------------------------------------------------------------

  private onBrokerMessage(message: BrokerMessage): void {
    switch (message.t) {
      case 'grant':
        if (message.w === this.windowId) this.granted(message.id);
        return;
      case 'pause':
        this.localPausedUntil = this.options.clock.monotonic() + message.forMs;
        this.changes.fire();
        return;
      case 'quota':
        this.quotaChanges.fire(message.state);
        return;
      case 'session':
        this.sessionChanges.fire({ store: message.store, session: message.session });
        return;
      case 'synced':
        this.syncs.get(message.n)?.(true);
        return;
      case 'challenge':
      case 'welcome':
        return;
    }
  }

  private granted(id: number): void {
    const call = this.calls.get(id);
    if (!call || call.state !== 'waiting') {
      if (!call) this.link?.send({ t: 'done', id, how: 'unsent' });
      return;
    }
    call.state = 'granted';
    call.ask.granted(this.slot(id, call));
  }

  private slot(id: number, call: LocalCall): Slot {
    const now = () => this.options.clock.monotonic();
    let sent = { at: 0, origin: '' };
    const finish = (how: DoneHow, answer?: AnswerTiming) => {
      if (this.calls.get(id) !== call) return;
      this.calls.delete(id);
      if (how !== 'unsent') {
        this.ended.push({ id, at: now() });
        if (this.ended.length > 1000) this.pruneEnded(now());
      }
      this.link?.send(answer ? { t: 'done', id, how, answer } : { t: 'done', id, how });
    };
    return {
      markSent: (origin) => {
        if (call.state !== 'granted') return;
        call.state = 'sent';
        sent = { at: now(), origin };
      },
      markAnswered: () =>
        call.state === 'sent' ? finish('answered', { origin: sent.origin, roundTripMs: Math.max(0, now() - sent.at) }) : finish('failed'),
      markFailed: () => finish('failed'),
      release: () => finish(call.state === 'sent' ? 'released' : 'unsent'),
    };
  }

  private pruneEnded(now: number): void {
    const horizon = now - this.horizonMs();
    let drop = 0;
    while (drop < this.ended.length && this.ended[drop].at <= horizon) drop++;
    if (drop > 0) this.ended.splice(0, drop);
  }

  private horizonMs(): number {
    return logHorizonMs(this.options.limits, this.options.safetyMarginMs());
  }
}
