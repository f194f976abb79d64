import type { Clock } from '../common/clock';
import { Emitter, type Disposable, type Event } from '../common/event';
import type { Logger } from '../common/logger';
import { silentLogger } from '../common/logger';
import { type CountTimeEstimate, CountTimeEstimator, type LogEntry } from './countTimeEstimate';
import { apiErrors } from './errors';
import type { RateLimit } from './limits';
import type { QueueState, QueueView } from './types';

/**
 * A granted slot. Call `markSent(origin)` right before the request leaves and `markAnswered()` as
 * soon as the response headers arrive, or `markFailed()` when the exchange ends without them: the
 * log entry is worked out from those moments (see CountTimeEstimator). Call `release()` instead when
 * the request is not sent after all (the slot is given back unused).
 */
export interface Slot {
  markSent(origin: string): void;
  markAnswered(): void;
  markFailed(): void;
  release(): void;
}

export interface AcquireOptions {
  signal?: AbortSignal;
  /** 1-based position while waiting; 0 when the slot is granted. */
  onPosition?: (position: number) => void;
  /** Retries of calls already in flight go to the head of the queue and are not refused when it is full. */
  front?: boolean;
}

export interface RequestSchedulerOptions {
  clock: Clock;
  limits: readonly RateLimit[];
  /** Added to every window (read on each decision, so a settings change applies at once). */
  safetyMarginMs: () => number;
  maxQueueLength: () => number;
  /** Default 'fastest-round-trip'. */
  countTimeEstimate?: () => CountTimeEstimate;
  logger?: Logger;
  /**
   * Where slots come from when several processes (editor windows) share the application's limits
   * (src/coordination). Without one, this scheduler's own log decides: one process, as before.
   */
  ledger?: RateLedger;
}

/**
 * A log of calls shared with other processes: it grants slots in FIFO order across all of them and
 * applies a 429 pause everywhere. The scheduler keeps its own queue in front of it (positions,
 * length limit, cancellation) and hands each waiting call to the ledger in order.
 */
export interface RateLedger {
  acquire(options: { front?: boolean; signal: AbortSignal }): Promise<Slot>;
  pause(ms: number): void;
  /** Monotonic ms (this process's clock) until which every window is paused. */
  readonly pausedUntil: number | undefined;
  readonly onDidChange: Event<void>;
  roundTripFloor(origin: string): number | undefined;
  logTimes(): number[];
}

interface Waiter {
  resolve(slot: Slot): void;
  reject(error: unknown): void;
  options: AcquireOptions;
  position: number;
  detachAbort?: () => void;
}

/**
 * One scheduler per application for all its limits: a sliding log on the monotonic clock. Each entry
 * is the moment the server is taken to have counted a call, somewhere between our send and its
 * answer (CountTimeEstimator says where). A call may go at `now` when, for every limit, fewer than
 * `max` entries lie in (now - windowMs - margin, now], counting each call still in flight as inside
 * every window. With entries at answer times, no interval of length windowMs then holds more than
 * `max` arrivals whatever the delays, so the server's fixed windows (starting at any request) are
 * never exceeded; with the fastest-round-trip estimate, that holds while the floor of the delays
 * does (a 429 switches back to answer times).
 */
export class RequestScheduler implements QueueView {
  /** Ordered by `at`: the answer time (or failure time, or in 'send' mode the send time) of each call. */
  private readonly log: LogEntry[] = [];
  private pending = 0;
  private readonly queue: Waiter[] = [];
  private pausedUntil: number | undefined;
  private cancelTimer: (() => void) | undefined;
  private timerAt: number | undefined;
  private readonly changes = new Emitter<QueueState>();
  readonly onDidChange = this.changes.event;
  private readonly logger: Logger;
  private readonly longestWindowMs: number;
  private readonly estimator: CountTimeEstimator;
  private readonly ledgerSubscription?: Disposable;

  constructor(private readonly options: RequestSchedulerOptions) {
    this.logger = options.logger ?? silentLogger;
    this.estimator = new CountTimeEstimator(options.countTimeEstimate ?? (() => 'fastest-round-trip'), options.safetyMarginMs);
    this.longestWindowMs = Math.max(0, ...options.limits.map((limit) => limit.windowMs));
    this.ledgerSubscription = options.ledger?.onDidChange(() => this.changes.fire(this.state));
  }

  get length(): number {
    return this.queue.length;
  }

  get state(): QueueState {
    return { length: this.queue.length, pausedUntil: this.options.ledger ? this.options.ledger.pausedUntil : this.pausedUntil };
  }

  /** The round trip taken off answer times on `origin` (see CountTimeEstimator); for tests and diagnostics. */
  roundTripFloor(origin: string): number | undefined {
    return this.options.ledger ? this.options.ledger.roundTripFloor(origin) : this.estimator.floor(origin);
  }

  /** When the calls in the log are taken to have been counted (monotonic ms), oldest first. */
  logTimes(): number[] {
    if (this.options.ledger) return this.options.ledger.logTimes();
    const times = this.log.map((entry) => this.estimator.countedAt(entry));
    // In the log's order already, unless origins with different round-trip floors interleave.
    for (let i = 1; i < times.length; i++) if (times[i] < times[i - 1]) return times.sort((a, b) => a - b);
    return times;
  }

  acquire(options: AcquireOptions = {}): Promise<Slot> {
    if (options.signal?.aborted) return Promise.reject(apiErrors.cancelled());
    if (!options.front && this.queue.length >= this.options.maxQueueLength()) {
      return Promise.reject(apiErrors.queueFull(this.options.maxQueueLength()));
    }
    return new Promise<Slot>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, options, position: 0 };
      if (options.signal) {
        const signal = options.signal;
        const onAbort = () => this.cancel(waiter);
        signal.addEventListener('abort', onAbort, { once: true });
        waiter.detachAbort = () => signal.removeEventListener('abort', onAbort);
      }
      if (options.front) this.queue.unshift(waiter);
      else this.queue.push(waiter);
      if (this.options.ledger) this.askLedger(this.options.ledger, waiter);
      else this.pump();
      this.afterQueueChange();
    });
  }

  /** With a shared ledger: the waiter stays in our queue (position, cancellation) until the ledger grants it. */
  private askLedger(ledger: RateLedger, waiter: Waiter): void {
    const abort = new AbortController();
    const detach = waiter.detachAbort;
    waiter.detachAbort = () => {
      detach?.();
      abort.abort();
    };
    const leave = () => {
      const index = this.queue.indexOf(waiter);
      if (index >= 0) this.queue.splice(index, 1);
      detach?.();
      this.afterQueueChange();
    };
    ledger.acquire({ front: waiter.options.front, signal: abort.signal }).then(
      (slot) => {
        if (!this.queue.includes(waiter)) return slot.release(); // cancelled meanwhile
        leave();
        waiter.options.onPosition?.(0);
        waiter.resolve(slot);
      },
      (error) => {
        if (!this.queue.includes(waiter)) return;
        leave();
        waiter.reject(error);
      },
    );
  }

  /** Reserves a slot at once, beyond the limits: for a call another process already sent (src/coordination). */
  reserve(): Slot {
    this.pending++;
    return this.slot();
  }

  /** Adds calls counted elsewhere (answer or failure times on this clock) to the log (src/coordination). */
  restore(times: readonly number[]): void {
    for (const at of times) this.insert({ at });
    this.pump();
  }

  /**
   * After a 429 for the second or minute: stop granting slots until `ms` from now (a longer running
   * pause is kept), and log answer times from now on.
   */
  pause(ms: number): void {
    if (this.options.ledger) return this.options.ledger.pause(ms);
    if (this.estimator.distrust()) this.logger.warn('Rate limit: a 429 despite the throttle; calls are logged at their answer times from now on');
    const until = this.options.clock.monotonic() + ms;
    if (this.pausedUntil !== undefined && this.pausedUntil >= until) return;
    this.pausedUntil = until;
    this.logger.info(`Rate limit: queue paused for ${Math.round(ms)} ms`);
    this.schedule(until);
    this.changes.fire(this.state);
  }

  /** Cancels every waiting call (e.g. on sign-out or when the extension stops). */
  dispose(): void {
    this.ledgerSubscription?.dispose();
    for (const waiter of this.queue.splice(0)) {
      waiter.detachAbort?.();
      waiter.reject(apiErrors.cancelled());
    }
    this.clearTimer();
    this.changes.fire(this.state);
    this.changes.dispose();
  }

  /** How long until a slot is free: 0 = now, Infinity = when a call in flight is answered. */
  private waitForSlot(now: number): number {
    const margin = Math.max(0, this.options.safetyMarginMs());
    this.prune(now, margin);
    const counted = this.logTimes();
    let wait = 0;
    for (const limit of this.options.limits) {
      const span = limit.windowMs + margin;
      // Calls counted in (now - span, now].
      let first = counted.length;
      while (first > 0 && counted[first - 1] > now - span) first--;
      const inWindow = counted.length - first;
      const excess = inWindow + this.pending - limit.max;
      if (excess < 0) continue;
      if (excess >= inWindow) return Infinity;
      // The (excess + 1)-th oldest call in the window must leave it.
      wait = Math.max(wait, counted[first + excess] + span - now);
    }
    return wait;
  }

  /** Drops calls that can no longer be in any window (each was counted at `at` at the latest). */
  private prune(now: number, margin: number): void {
    const horizon = now - this.longestWindowMs - margin;
    let drop = 0;
    while (drop < this.log.length && this.log[drop].at <= horizon) drop++;
    if (drop > 0) this.log.splice(0, drop);
  }

  private pump(): void {
    if (this.options.ledger) return; // the ledger grants
    let changed = false;
    let granted = false;
    if (this.pausedUntil !== undefined && this.options.clock.monotonic() >= this.pausedUntil) {
      this.pausedUntil = undefined;
      changed = true;
    }
    while (this.queue.length > 0) {
      const now = this.options.clock.monotonic();
      if (this.pausedUntil !== undefined) {
        this.schedule(this.pausedUntil);
        break;
      }
      const wait = this.waitForSlot(now);
      if (wait === Infinity) break; // markAnswered/release will pump again
      if (wait > 0) {
        this.schedule(now + wait);
        break;
      }
      const waiter = this.queue.shift()!;
      waiter.detachAbort?.();
      this.pending++;
      granted = true;
      waiter.options.onPosition?.(0);
      waiter.resolve(this.slot());
    }
    if (granted) this.afterQueueChange();
    else if (changed) this.changes.fire(this.state);
  }

  private slot(): Slot {
    let state: 'granted' | 'sent' | 'done' = 'granted';
    let sentAt = 0;
    let sentTo = '';
    const now = () => this.options.clock.monotonic();
    const finish = (entry: () => LogEntry | undefined) => {
      if (state === 'done') return;
      const logged = entry();
      state = 'done';
      this.pending--;
      if (logged) this.insert(logged);
      this.pump();
    };
    return {
      markSent: (origin) => {
        if (state !== 'granted') return;
        state = 'sent';
        sentAt = now();
        sentTo = origin;
      },
      markAnswered: () => finish(() => (state === 'sent' ? this.estimator.answered(sentTo, sentAt, now()) : { at: now() })),
      markFailed: () => finish(() => (state === 'sent' ? this.estimator.failed(sentAt, now()) : { at: now() })),
      // Once sent, the call may have been counted: it is logged even when released.
      release: () => finish(() => (state === 'sent' ? this.estimator.failed(sentAt, now()) : undefined)),
    };
  }

  /** Entries arrive nearly in order ('send' mode logs send times in the order the answers come). */
  private insert(entry: LogEntry): void {
    let at = this.log.length;
    while (at > 0 && this.log[at - 1].at > entry.at) at--;
    this.log.splice(at, 0, entry);
  }

  private cancel(waiter: Waiter): void {
    const index = this.queue.indexOf(waiter);
    if (index < 0) return;
    this.queue.splice(index, 1);
    waiter.detachAbort?.();
    waiter.reject(apiErrors.cancelled());
    this.pump();
    this.afterQueueChange();
  }

  private afterQueueChange(): void {
    this.queue.forEach((waiter, index) => {
      if (waiter.position !== index + 1) {
        waiter.position = index + 1;
        waiter.options.onPosition?.(index + 1);
      }
    });
    if (this.queue.length === 0) this.clearTimerIfIdle();
    this.changes.fire(this.state);
  }

  private schedule(at: number): void {
    if (this.timerAt !== undefined && this.timerAt <= at && this.cancelTimer !== undefined) return;
    this.clearTimer();
    this.timerAt = at;
    const clock = this.options.clock;
    const delay = Math.max(0, at - clock.monotonic());
    const fire = () => {
      this.cancelTimer = undefined;
      this.timerAt = undefined;
      this.pump();
    };
    // A timer fires up to a millisecond either side of its time (pump() checks the clock, so never
    // early in effect). Waiting out the last fraction on the event loop's next turns instead of
    // another timer saves about a millisecond per window: half a percent of the throughput.
    if (delay < 1 && clock.setImmediate) {
      const handle = clock.setImmediate(fire);
      this.cancelTimer = () => clock.clearImmediate?.(handle);
    } else {
      const handle = clock.setTimeout(fire, clock.setImmediate ? Math.floor(delay) : Math.ceil(delay));
      this.cancelTimer = () => clock.clearTimeout(handle);
    }
  }

  private clearTimerIfIdle(): void {
    if (this.pausedUntil === undefined) this.clearTimer();
  }

  private clearTimer(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.timerAt = undefined;
  }
}
