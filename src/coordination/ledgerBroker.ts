import type { RateLimit } from '../api/limits';
import { LocalLedger } from '../api/localLedger';
import type { Slot, Withdraw } from '../api/rateLedger';
import type { Clock } from '../common/clock';
import type { Logger } from '../common/logger';
import type { JournaledCall } from './journal';
import type { AnswerTiming, BrokerMessage, DoneHow, EndedCall } from './protocol';

/** How long a new broker keeps the calls a vanished window had in flight before it takes that window for dead. */
export const JOIN_GRACE_MS = 300;

/** How long a logged call can still matter: the longest window, the margin and a takeover's grace. */
export function logHorizonMs(limits: readonly RateLimit[], safetyMarginMs: number): number {
  return Math.max(0, ...limits.map((limit) => limit.windowMs)) + Math.max(0, safetyMarginMs) + JOIN_GRACE_MS;
}


interface BrokerCall {
  window: string;
  id: number;
  /** Waiting for a slot. */
  withdraw?: Withdraw;
  /** Granted (or already in flight at a broker that died). */
  slot?: Slot;
  /** Reserved from the journal of a broker that died: ends as logged unless its window joins within JOIN_GRACE_MS. */
  provisional?: boolean;
}

export interface LedgerBrokerOptions {
  clock: Clock;
  limits: readonly RateLimit[];
  safetyMarginMs: () => number;
  logger: Logger;
  /** Sends a message to every window, this one included. */
  broadcast(message: BrokerMessage): void;
  /** Sends a message to one window. */
  send(window: string, message: BrokerMessage): void;
  /** Where every grant is recorded before it is handed out, and every end (see Journal). */
  journal: { granted(window: string, id: number): void; ended(window: string, id: number, logged: boolean): void };
}

const key = (window: string, id: number) => `${window}:${id}`;

/**
 * The broker's side of the ledger, without I/O: one LocalLedger (the engine) holds the log of
 * every window's calls and grants slots in the order the windows ask for them. A call in flight
 * counts in every window; one that ended is logged when its report arrives, with the round trip its
 * window measured (see the invariant in sharedRateLedger.ts).
 */
export class LedgerBroker {
  private readonly engine: LocalLedger;
  private readonly calls = new Map<string, BrokerCall>();
  /** Calls logged in the last longest window (by key), so that a joining window's report is not logged twice. */
  private readonly logged = new Map<string, number>();
  private graceTimer: unknown;
  /** While set, the engine's clock reads this (a call's send time, from the round trip its window measured). */
  private backdatedTo: number | undefined;

  constructor(private readonly options: LedgerBrokerOptions) {
    const clock = options.clock;
    this.engine = new LocalLedger({
      clock: { ...clock, monotonic: () => this.backdatedTo ?? clock.monotonic() },
      limits: options.limits,
      safetyMarginMs: options.safetyMarginMs,
      logger: options.logger,
    });
  }

  /** Monotonic ms (this process) until which every window is paused. */
  get pausedUntil(): number | undefined {
    return this.engine.pausedUntil;
  }

  logTimes(): number[] {
    return this.engine.logTimes();
  }

  want(window: string, id: number, front: boolean): void {
    const k = key(window, id);
    if (this.calls.has(k)) return;
    const call: BrokerCall = { window, id };
    this.calls.set(k, call);
    let granted = false;
    const withdraw = this.engine.ask({
      front,
      granted: (slot) => {
        granted = true;
        call.withdraw = undefined;
        call.slot = slot;
        this.options.journal.granted(window, id);
        this.options.send(window, { t: 'grant', w: window, id });
      },
      refused: () => this.calls.delete(k), // the broker stopped
    });
    if (!granted) call.withdraw = withdraw;
  }

  cancel(window: string, id: number): void {
    const call = this.calls.get(key(window, id));
    if (!call?.withdraw) return;
    this.calls.delete(key(window, id));
    call.withdraw();
  }

  done(window: string, id: number, how: DoneHow, answer?: AnswerTiming): void {
    const call = this.calls.get(key(window, id));
    if (!call?.slot) return;
    this.end(call, how, answer);
  }

  pause(ms: number): void {
    this.engine.pause(ms);
    const until = this.engine.pausedUntil;
    if (until !== undefined) this.options.broadcast({ t: 'pause', forMs: Math.max(0, until - this.options.clock.monotonic()) });
  }

  /**
   * A window (re)joins: its report is the truth about its calls. In flight: they hold a slot. Ended
   * recently and not logged yet (the previous broker died first): logged when they ended. Anything
   * else the journal had for it was never received by it: given back unused.
   */
  join(window: string, inFlight: readonly number[], ended: readonly EndedCall[]): void {
    const now = this.options.clock.monotonic();
    const flying = new Set(inFlight);
    const endedAgo = new Map(ended.map((call) => [call.id, call.agoMs]));
    for (const call of [...this.calls.values()]) {
      if (call.window !== window || !call.slot) continue;
      call.provisional = false;
      if (flying.has(call.id)) flying.delete(call.id);
      else this.end(call, endedAgo.has(call.id) ? 'failed' : 'unsent');
      endedAgo.delete(call.id);
    }
    for (const id of flying) {
      this.options.journal.granted(window, id);
      this.calls.set(key(window, id), { window, id, slot: this.engine.reserve() });
    }
    const late: number[] = [];
    for (const [id, agoMs] of endedAgo) {
      if (this.logged.has(key(window, id))) continue;
      this.logged.set(key(window, id), now - agoMs);
      late.push(now - agoMs);
    }
    if (late.length > 0) this.engine.restore(late);
  }

  /** The window's connection is gone: what it waited for is dropped, what it had in flight is logged now. */
  leave(window: string): void {
    for (const call of [...this.calls.values()]) {
      if (call.window !== window) continue;
      if (call.slot) this.end(call, 'failed');
      else this.cancel(window, call.id);
    }
  }

  /**
   * Takes over from a broker that died, with its journal: logged calls keep their times, calls in
   * flight keep a slot until their window joins or JOIN_GRACE_MS passes.
   */
  seed(journaled: Iterable<JournaledCall>): void {
    const times: number[] = [];
    for (const call of journaled) {
      if (call.loggedAt !== undefined) {
        this.logged.set(key(call.window, call.id), call.loggedAt);
        times.push(call.loggedAt);
      } else {
        this.calls.set(key(call.window, call.id), { window: call.window, id: call.id, slot: this.engine.reserve(), provisional: true });
      }
    }
    if (times.length > 0) this.engine.restore(times);
    this.graceTimer = this.options.clock.setTimeout(() => {
      this.graceTimer = undefined;
      for (const call of [...this.calls.values()]) if (call.provisional) this.end(call, 'failed');
    }, JOIN_GRACE_MS);
  }

  dispose(): void {
    if (this.graceTimer !== undefined) this.options.clock.clearTimeout(this.graceTimer);
    this.engine.dispose();
    this.calls.clear();
  }

  private end(call: BrokerCall, how: DoneHow, answer?: AnswerTiming): void {
    const k = key(call.window, call.id);
    this.calls.delete(k);
    const slot = call.slot!;
    const logged = how !== 'unsent';
    if (logged) {
      const now = this.options.clock.monotonic();
      // Sent one measured round trip before the report arrived: the estimator learns the window's
      // round trip, and the answer is taken to have come when the report did (no earlier than it did).
      this.backdatedTo = answer ? now - answer.roundTripMs : undefined;
      try {
        slot.markSent(answer?.origin ?? '');
      } finally {
        this.backdatedTo = undefined;
      }
      this.logged.set(k, now);
      this.pruneLogged();
    }
    if (how === 'answered') slot.markAnswered();
    else slot.release();
    this.options.journal.ended(call.window, call.id, logged);
  }

  private pruneLogged(): void {
    const horizon = this.options.clock.monotonic() - logHorizonMs(this.options.limits, this.options.safetyMarginMs());
    for (const [k, at] of this.logged) {
      if (at > horizon) break;
      this.logged.delete(k);
    }
  }
}
