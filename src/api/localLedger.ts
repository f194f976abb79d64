import type { Clock } from '../common/clock';
import { Emitter } from '../common/event';
import type { Logger } from '../common/logger';
import { silentLogger } from '../common/logger';
import { CountTimeEstimator, type CountTimeRule, type LogEntry } from './countTimeEstimate';
import { apiErrors } from './errors';
import type { RateLimit } from './limits';
import { RateLog } from './rateLog';
import type { RateLedger, Slot, SlotAsk, Withdraw } from './rateLedger';

export interface LocalLedgerOptions {
  clock: Clock;
  limits: readonly RateLimit[];
  /** Added to every window (read on each decision, so a settings change applies at once). */
  safetyMarginMs: () => number;
  /** Default: CountTimeEstimator in 'fastest-round-trip' mode. */
  countTime?: CountTimeRule;
  logger?: Logger;
}

/**
 * The ledger of one process: a sliding log on the monotonic clock. Each entry is the moment the
 * server is taken to have counted a call, somewhere between our send and its answer (CountTimeRule
 * says where). A call may go at `now` when, for every limit, fewer than `max` entries lie in
 * (now - windowMs - margin, now], counting each call still in flight as inside every window. With
 * entries at answer times, no interval of length windowMs then holds more than `max` arrivals whatever
 * the delays, so the server's fixed windows (starting at any request) are never exceeded; with the
 * fastest-round-trip estimate, that holds while the floor of the delays does (a 429 switches back to
 * answer times). Also the engine of the windows' broker (ledgerBroker.ts) and of a process that lost
 * Redis (redisOutage.ts).
 */
export class LocalLedger implements RateLedger {
  private readonly log: RateLog;
  private pending = 0;
  private readonly waiting: SlotAsk[] = [];
  private paused: number | undefined;
  private cancelTimer: (() => void) | undefined;
  private timerAt: number | undefined;
  private pumping = false;
  private pumpAgain = false;
  private readonly changes = new Emitter<void>();
  readonly onDidChange = this.changes.event;
  private readonly logger: Logger;
  private readonly countTime: CountTimeRule;

  constructor(private readonly options: LocalLedgerOptions) {
    this.logger = options.logger ?? silentLogger;
    this.countTime = options.countTime ?? new CountTimeEstimator(() => 'fastest-round-trip', options.safetyMarginMs);
    this.log = new RateLog(options.limits, (origin) => this.countTime.floor(origin));
  }

  get pausedUntil(): number | undefined {
    return this.paused;
  }

  roundTripFloor(origin: string): number | undefined {
    return this.countTime.floor(origin);
  }

  logTimes(): number[] {
    return this.log.countedTimes();
  }

  ask(ask: SlotAsk): Withdraw {
    if (ask.front) this.waiting.unshift(ask);
    else this.waiting.push(ask);
    this.pump();
    return () => {
      const index = this.waiting.indexOf(ask);
      if (index < 0) return;
      this.waiting.splice(index, 1);
      this.pump();
    };
  }

  /** A slot at once, beyond the limits: for a call another process already sent (the broker, a lost Redis). */
  reserve(): Slot {
    this.pending++;
    return this.slot();
  }

  /** Adds calls counted elsewhere (answer or failure times on this clock) to the log. */
  restore(times: readonly number[]): void {
    for (const at of times) this.log.insert({ at });
    this.pump();
  }

  pause(ms: number): void {
    if (this.countTime.distrust()) this.logger.warn('Rate limit: a 429 despite the throttle; calls are logged at their answer times from now on');
    const until = this.options.clock.monotonic() + ms;
    if (this.paused !== undefined && this.paused >= until) return;
    this.paused = until;
    this.logger.info(`Rate limit: queue paused for ${Math.round(ms)} ms`);
    this.schedule(until);
    this.changes.fire();
  }

  dispose(): void {
    for (const ask of this.waiting.splice(0)) ask.refused(apiErrors.cancelled());
    this.clearTimer();
    this.changes.dispose();
  }

  private pump(): void {
    if (this.pumping) {
      this.pumpAgain = true; // a grant's listener asked or withdrew: go round once more
      return;
    }
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        this.grantWhatFits();
      } while (this.pumpAgain);
    } finally {
      this.pumping = false;
    }
    if (this.waiting.length === 0 && this.paused === undefined) this.clearTimer();
  }

  private grantWhatFits(): void {
    const clock = this.options.clock;
    if (this.paused !== undefined && clock.monotonic() >= this.paused) {
      this.paused = undefined;
      this.changes.fire();
    }
    while (this.waiting.length > 0) {
      if (this.paused !== undefined) return this.schedule(this.paused);
      const now = clock.monotonic();
      const wait = this.log.waitForSlot(now, Math.max(0, this.options.safetyMarginMs()), this.pending);
      if (wait === Infinity) return; // a call in flight ends first, and pumps again
      if (wait > 0) return this.schedule(now + wait);
      const ask = this.waiting.shift()!;
      this.pending++;
      ask.granted(this.slot());
    }
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
      if (logged) this.log.insert(logged);
      this.pump();
    };
    return {
      markSent: (origin) => {
        if (state !== 'granted') return;
        state = 'sent';
        sentAt = now();
        sentTo = origin;
      },
      markAnswered: () => finish(() => (state === 'sent' ? this.countTime.answered(sentTo, sentAt, now()) : { at: now() })),
      markFailed: () => finish(() => (state === 'sent' ? this.countTime.failed(sentAt, now()) : { at: now() })),
      // Once sent, the call may have been counted: it is logged even when released.
      release: () => finish(() => (state === 'sent' ? this.countTime.failed(sentAt, now()) : undefined)),
    };
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
    // early in effect). Set a millisecond short, it never fires late; the last millisecond or two are
    // waited out on the event loop's next turns, a few per grant, so a window never starts late.
    if (delay < 2 && clock.setImmediate) {
      const handle = clock.setImmediate(fire);
      this.cancelTimer = () => clock.clearImmediate?.(handle);
    } else {
      const handle = clock.setTimeout(fire, clock.setImmediate ? Math.floor(delay) - 1 : Math.ceil(delay));
      this.cancelTimer = () => clock.clearTimeout(handle);
    }
  }

  private clearTimer(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    this.timerAt = undefined;
  }
}
