import type { RateLimit } from '../../api/limits';
import type { LocalLedger } from '../../api/localLedger';
import type { Slot, SlotAsk, Withdraw } from '../../api/rateLedger';
import type { Clock } from '../../common/clock';
import type { Disposable } from '../../common/event';
import * as l10n from '../../common/l10n';
import type { Logger } from '../../common/logger';
import { fallbackLedger, type WindowSnapshot } from './fallbackShare';
import { reasonOf } from './redisConnection';

/*
 * Redis lost (connection closed, command failed or timed out): calls in flight settle (their lease
 * logs them in Redis, their end is logged locally too), waiting and later calls go through a local
 * ledger at this process's share of the limits (fallbackShare.ts), seeded with the windows of the
 * last reply. That bound is an estimate (a process that has not asked Redis lately misses the
 * others' latest calls), and it assumes at most `expectedProcesses` processes. Redis is used
 * again once it answers and a longest window has passed since the loss (the calls before it no
 * longer matter, even when Redis came back empty), with this process's local calls of the last
 * window written back first.
 */

/** A call waiting in the ledger's queue for a slot. */
export interface Waiter {
  ask: SlotAsk;
  /** While the local ledger has it: takes it back. */
  handed?: Withdraw;
}

/** What an outage needs of the ledger it stands in for. */
export interface OutageHost {
  clock: Clock;
  limits: readonly RateLimit[];
  safetyMarginMs: () => number;
  logger: Logger;
  expectedProcesses: number;
  /** How often to check whether Redis is back. Default 250 ms. */
  retryMs?: number;
  /** The ledger's waiting calls, in order; a call leaves it when it gets its slot or its error. */
  queue: Waiter[];
  /** The windows of the last reply, undefined when Redis never answered an acquire. */
  snapshot: WindowSnapshot | undefined;
  /** Until when (this clock) the last reply said the application is paused. */
  pausedUntil: number | undefined;
  callId(): string;
  changed(): void;
  longestSpanMs(): number;
  /** Both connections are open. */
  connected(): boolean;
  /** Logs these calls (id, ms ago) in Redis and reads the pause again; fails while Redis does not answer. */
  writeBack(calls: Array<string | number>): Promise<void>;
  backToRedis(): void;
}

/** One loss of Redis, from the loss to the return: this process's share of the limits, locally. */
export class RedisOutage implements Disposable {
  private readonly fallback: LocalLedger;
  private readonly lostAt: number;
  private inFlight = 0;
  /** Calls this process logged locally while Redis was away (this clock), to write back on return. */
  private readonly ended: Array<{ id: string; at: number }> = [];
  private returnTimer: unknown;
  private disposed = false;

  constructor(private readonly host: OutageHost) {
    this.lostAt = host.clock.monotonic();
    const { clock, limits, safetyMarginMs, logger } = host;
    this.fallback = fallbackLedger({ clock, limits, safetyMarginMs, logger, processes: host.expectedProcesses, snapshot: host.snapshot });
    this.fallback.onDidChange(() => host.changed());
  }

  warn(error: unknown): void {
    this.host.logger.warn(
      l10n.t(
        'Rate-limit ledger: Redis cannot be reached ({0}); this process goes on with its own ledger at 1/{1} of the limits until Redis answers again.',
        reasonOf(error),
        this.host.expectedProcesses,
      ),
    );
  }

  /** Takes over the calls in flight (each gets a slot here) and the waiting ones. */
  begin(callsInFlight: Iterable<{ reserved?: Slot }>): void {
    const pausedFor = (this.host.pausedUntil ?? 0) - this.lostAt;
    if (pausedFor > 0) this.fallback.pause(pausedFor);
    for (const call of callsInFlight) call.reserved = this.fallback.reserve();
    for (const waiter of [...this.host.queue]) this.hand(waiter);
    this.scheduleReturn();
  }

  get pausedUntil(): number | undefined {
    return this.fallback.pausedUntil;
  }

  logTimes(): number[] {
    return this.fallback.logTimes();
  }

  pause(ms: number): void {
    this.fallback.pause(ms);
  }

  /** In the queue's order (the calls to the front are at its head already). */
  hand(waiter: Waiter): void {
    const leave = () => {
      const index = this.host.queue.indexOf(waiter);
      if (index >= 0) this.host.queue.splice(index, 1);
      waiter.handed = undefined;
      return index >= 0;
    };
    let answered = false;
    const handed = this.fallback.ask({
      front: false,
      granted: (slot) => {
        answered = true;
        if (leave()) waiter.ask.granted(this.slot(slot));
        else slot.release();
      },
      refused: (error) => {
        answered = true;
        if (leave()) waiter.ask.refused(error);
      },
    });
    if (!answered) waiter.handed = handed;
  }

  /** The waiting calls go back to Redis; the local ledger is dropped. */
  end(): void {
    for (const waiter of this.host.queue) {
      const handed = waiter.handed;
      waiter.handed = undefined;
      handed?.();
    }
    this.fallback.dispose();
    this.host.logger.info(l10n.t('Rate-limit ledger: Redis answers again; this process shares the limits through it again.'));
  }

  dispose(): void {
    this.disposed = true;
    if (this.returnTimer !== undefined) this.host.clock.clearTimeout(this.returnTimer);
    this.fallback.dispose();
  }

  private slot(slot: Slot): Slot {
    const id = this.host.callId();
    let sent = false;
    let done = false;
    this.inFlight++;
    const finish = (logged: boolean, end: () => void) => {
      if (done) return;
      done = true;
      this.inFlight--;
      if (logged) this.ended.push({ id, at: this.host.clock.monotonic() });
      end();
    };
    return {
      markSent: (origin) => {
        sent = true;
        slot.markSent(origin);
      },
      markAnswered: () => finish(true, () => slot.markAnswered()),
      markFailed: () => finish(true, () => slot.markFailed()),
      release: () => finish(sent, () => slot.release()),
    };
  }

  private scheduleReturn(): void {
    const { clock } = this.host;
    const retry = this.host.retryMs ?? 250;
    const at = Math.max(this.lostAt + this.host.longestSpanMs(), clock.monotonic()) + retry;
    this.returnTimer = clock.setTimeout(() => {
      this.returnTimer = undefined;
      void this.tryReturn();
    }, at - clock.monotonic());
  }

  /** Back to Redis once it answers, a longest window after the loss, with nothing of the local ledger in flight. */
  private async tryReturn(): Promise<void> {
    if (this.disposed) return;
    // The write-back below is the proof that Redis answers again (after a timeout the connection never closed).
    if (!this.host.connected() || this.inFlight > 0) return this.scheduleReturn();
    const now = this.host.clock.monotonic();
    const horizon = now - this.host.longestSpanMs();
    const calls = this.ended.filter((call) => call.at > horizon).flatMap((call) => [call.id, now - call.at]);
    try {
      await this.host.writeBack(calls);
    } catch {
      return this.scheduleReturn();
    }
    if (this.disposed || this.inFlight > 0) return this.scheduleReturn();
    this.host.backToRedis();
  }
}
