import { apiErrors } from '../api/errors';
import type { RateLimit } from '../api/limits';
import type { RateLedger, Slot, SlotAsk, Withdraw } from '../api/rateLedger';
import type { Clock } from '../common/clock';
import { Emitter, type Event } from '../common/event';
import type { BrokerLink } from './brokerLink';
import { logHorizonMs, type LedgerBroker } from './ledgerBroker';
import type { AnswerTiming, DoneHow, EndedCall } from './protocol';

/*
 * One rate-limit ledger per application (authUrl + clientId) for every window of the editor on
 * this machine: a window's side of it (its calls, their slots), the rate part of its channel to the
 * other windows (windowChannel.ts, which joins the broker or becomes it through brokerRole.ts).
 *
 * Invariant: the calls of all windows together keep the guarantee that one window's own log
 * gives its calls (see LocalLedger and countTimeEstimate.ts): no interval of a limit's
 * window holds more than its `max` calls counted by the server.
 *
 * Why it holds:
 * 1. One decider. The windows elect a broker: whoever listens on the application's socket in the
 *    user-only directory (runtimeDir.ts). A socket file nobody answers on is replaced only under a
 *    lock and after a second failed connection (election.ts), so two windows never both grant. A
 *    window takes a slot only from the broker it has joined: its own process (direct calls) or the
 *    one at the other end of an open connection that proved the user's key.
 * 2. The broker's engine is a LocalLedger holding every window's calls: a call counts in
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
 *    for its status.
 * What it assumes: windows are processes of one user on one machine; a request already written by
 * a window killed in mid-call reaches the server within JOIN_GRACE_MS of its death.
 */

interface LocalCall {
  state: 'waiting' | 'granted' | 'sent';
  ask: SlotAsk;
}

export interface SharedRateLedgerOptions {
  clock: Clock;
  /** The application's limits (scaled like the scheduler's). */
  limits: readonly RateLimit[];
  safetyMarginMs: () => number;
}

/** How the rate part reaches the broker (its channel's link), and the broker's engine when this window runs it. */
export interface RateRoute {
  link(): BrokerLink | undefined;
  engine(): LedgerBroker | undefined;
}

export class SharedRateLedger implements RateLedger {
  private nextId = 1;
  private readonly calls = new Map<number, LocalCall>();
  /** This window's calls that ended and were logged, with when (this clock), for a new broker. */
  private readonly ended: Array<{ id: number; at: number }> = [];
  private localPausedUntil: number | undefined;
  private unsentPauseMs = 0;
  private disposed = false;
  private readonly changes = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changes.event;

  constructor(
    private readonly options: SharedRateLedgerOptions,
    private readonly route: RateRoute,
  ) {}

  get pausedUntil(): number | undefined {
    const engine = this.route.engine();
    const until = engine ? engine.pausedUntil : this.localPausedUntil;
    return until !== undefined && until > this.options.clock.monotonic() ? until : undefined;
  }

  roundTripFloor(): number | undefined {
    return undefined; // across windows calls are logged at answer times (see the invariant, 2)
  }

  logTimes(): number[] {
    return this.route.engine()?.logTimes() ?? []; // the log is the broker's
  }

  ask(ask: SlotAsk): Withdraw {
    if (this.disposed) {
      ask.refused(apiErrors.cancelled());
      return () => undefined;
    }
    const id = this.nextId++;
    const call: LocalCall = { state: 'waiting', ask };
    this.calls.set(id, call);
    this.route.link()?.send({ t: 'want', id, front: ask.front });
    return () => {
      if (this.calls.get(id) !== call || call.state !== 'waiting') return;
      this.calls.delete(id);
      this.route.link()?.send({ t: 'cancel', id });
    };
  }

  pause(ms: number): void {
    const until = this.options.clock.monotonic() + ms;
    if (this.localPausedUntil === undefined || this.localPausedUntil < until) this.localPausedUntil = until;
    const link = this.route.link();
    if (link) link.send({ t: 'pause', ms });
    else this.unsentPauseMs = Math.max(this.unsentPauseMs, ms);
    this.changes.fire();
  }

  /** Refuses the calls still waiting; the channel closes the connection. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const [id, call] of this.calls) {
      if (call.state !== 'waiting') continue;
      this.calls.delete(id);
      call.ask.refused(apiErrors.cancelled());
    }
    this.changes.dispose();
  }

  // ---- from the channel ------------------------------------------------------------------------

  /** What this window tells a new broker about its calls (see the invariant, 3). */
  report(): { inFlight: number[]; ended: EndedCall[] } {
    const now = this.options.clock.monotonic();
    this.pruneEnded(now);
    return {
      inFlight: [...this.calls.entries()].filter(([, call]) => call.state !== 'waiting').map(([id]) => id),
      ended: this.ended.map((call) => ({ id: call.id, agoMs: Math.max(0, now - call.at) })),
    };
  }

  /**
   * Joined a (new) broker, which says how long the application is paused (undefined: this window is
   * the broker): asks it for every call still waiting, in order, and sends a pause it missed.
   */
  joined(pausedForMs: number | undefined): void {
    if (pausedForMs !== undefined) this.localPausedUntil = pausedForMs > 0 ? this.options.clock.monotonic() + pausedForMs : undefined;
    const link = this.route.link()!;
    if (this.unsentPauseMs > 0) {
      link.send({ t: 'pause', ms: this.unsentPauseMs });
      this.unsentPauseMs = 0;
    }
    const waiting = [...this.calls.entries()].filter(([, call]) => call.state === 'waiting');
    for (const [id, call] of [...waiting.filter(([, c]) => c.ask.front).reverse(), ...waiting.filter(([, c]) => !c.ask.front)]) {
      link.send({ t: 'want', id, front: call.ask.front });
    }
    this.changes.fire();
  }

  /** The broker paused every window for `forMs`. */
  paused(forMs: number): void {
    this.localPausedUntil = this.options.clock.monotonic() + forMs;
    this.changes.fire();
  }

  granted(id: number): void {
    const call = this.calls.get(id);
    if (!call || call.state !== 'waiting') {
      if (!call) this.route.link()?.send({ t: 'done', id, how: 'unsent' });
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
      this.route.link()?.send(answer ? { t: 'done', id, how, answer } : { t: 'done', id, how });
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
    const horizon = now - logHorizonMs(this.options.limits, this.options.safetyMarginMs());
    let drop = 0;
    while (drop < this.ended.length && this.ended[drop].at <= horizon) drop++;
    if (drop > 0) this.ended.splice(0, drop);
  }
}
