import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import { apiErrors } from '../../api/errors';
import type { RateLimit } from '../../api/limits';
import type { QuotaTracker } from '../../api/quotaTracker';
import type { RateLedger, RequestScheduler, Slot } from '../../api/requestScheduler';
import type { Clock } from '../../common/clock';
import { Emitter, type Disposable } from '../../common/event';
import * as l10n from '../../common/l10n';
import type { Logger } from '../../common/logger';
import { fallbackScheduler, type WindowSnapshot } from './fallbackShare';
import type { LedgerKeys } from './ledgerKeys';
import { runScript, SCRIPTS, type LedgerScript } from './ledgerScripts';
import { QuotaSharing } from './quotaSharing';
import { reasonOf } from './redisConnection';

/*
 * One application's rate-limit ledger in Redis, for every process on every machine that reaches it
 * (CI runners, editors). Same contract and same guarantee as RequestScheduler: no interval of a
 * limit's window holds more than its `max` calls counted by the server.
 *
 * Why it holds:
 * 1. One decider, one clock. Every grant is one Lua script (ledgerScripts.ts ACQUIRE) that reads
 *    every limit's log and the calls in flight and records the call, atomically, on the Redis
 *    server's clock (TIME): the machines' clocks never meet. A process takes a slot only from the
 *    script's reply; a reply that does not come (timeout, lost connection) is "not acquired".
 * 2. The count-time estimate: a call counts in every window from its grant until its process reports
 *    its end; then it is logged at the server's time of that report (the entry is moved when the
 *    answer comes, as the local log moves it). That is countTimeEstimate.ts's 'answer' rule with a
 *    delay d >= 0 added: the report leaves after the answer arrived. Its condition, pre_y + post_x +
 *    margin + d >= answer_x - counted_x, holds whatever the delays since the right side is <= 0. The
 *    fastest round trip is not taken off: machines reach the platform by different paths, and a floor
 *    measured on one path (one machine's pre + post) says nothing about another's `pre`, which the
 *    condition needs; across windows of one machine (SharedRateLedger) it does, here it cannot.
 *    So roundTripFloor is undefined, and a 429 changes nothing in how calls are logged.
 * 3. A process that dies with calls in flight: each holds a lease, renewed every third of it while
 *    the call is in flight; a lease that runs out is logged at its end, after the call ended.
 * 4. Redis lost (connection closed, command failed or timed out): calls in flight settle (their lease
 *    logs them in Redis, their end is logged locally too), waiting and later calls go through a local
 *    ledger at this process's share of the limits (fallbackShare.ts), seeded with the windows of the
 *    last reply. That bound is an estimate (a process that has not asked Redis lately misses the
 *    others' latest calls), and it assumes at most `expectedProcesses` processes. Redis is used
 *    again once it answers and a longest window has passed since the loss (the calls before it no
 *    longer matter, even when Redis came back empty), with this process's local calls of the last
 *    window written back first.
 * 5. A 429 pause is a key every acquire reads; quota states are a hash per organization (QuotaSharing).
 */

export interface RedisRateLedgerOptions {
  connection: Redis;
  /** A second connection for the events channel (a subscribed connection can send nothing else). */
  subscriber: Redis;
  keys: LedgerKeys;
  clock: Clock;
  limits: readonly RateLimit[];
  safetyMarginMs: () => number;
  logger: Logger;
  quota?: QuotaTracker;
  /** How many processes share the application when Redis is away (fallbackShare.ts). */
  expectedProcesses: number;
  /** A call's lease in Redis (renewed while in flight). Default 15 s. */
  leaseMs?: number;
  /** The longest wait for a call in flight to end before asking again. Default 100 ms. */
  pollMs?: number;
  /** How often a process on its local share checks whether Redis is back. Default 250 ms. */
  retryMs?: number;
}

interface Waiter {
  front: boolean;
  resolve(slot: Slot): void;
  reject(error: unknown): void;
  detach(): void;
  /** While the local ledger has it. */
  handed?: AbortController;
}

type AcquireReply = [number, string, string, ...number[]];

export class RedisRateLedger implements RateLedger, Disposable {
  private readonly processId = randomBytes(8).toString('hex');
  private nextId = 1;
  private mode: 'redis' | 'local' = 'redis';
  private readonly queue: Waiter[] = [];
  private pumping = false;
  private wake: (() => void) | undefined;
  /** Calls granted by Redis and not ended, with their slot in the local ledger after a loss. */
  private readonly flight = new Map<string, { reserved?: Slot }>();
  private snapshot: WindowSnapshot | undefined;
  private localPausedUntil: number | undefined;
  private fallback: RequestScheduler | undefined;
  private fallbackInFlight = 0;
  /** Calls this process logged locally while Redis was away (this clock), to write back on return. */
  private fallbackEnded: Array<{ id: string; at: number }> = [];
  private lostAt = 0;
  private warned = false;
  private returnTimer: unknown;
  private renewTimer: ReturnType<typeof setInterval> | undefined;
  private disposed = false;
  private readonly quotaSharing?: QuotaSharing;
  private readonly changes = new Emitter<void>();
  readonly onDidChange = this.changes.event;

  constructor(private readonly options: RedisRateLedgerOptions) {
    const { connection, subscriber } = options;
    for (const client of [connection, subscriber]) {
      client.on('close', () => this.lose(new Error('connection closed')));
    }
    subscriber.on('message', (_channel: string, message: string) => this.onEvent(message));
    if (options.quota) {
      this.quotaSharing = new QuotaSharing(connection, options.keys, options.quota, options.keys.events, () => this.mode === 'redis', options.logger);
    }
  }

  /** Subscribes to the events and adopts the shared quota states; the connections are open. */
  async start(): Promise<void> {
    // Loaded now, so that EVALSHA finds them: a NOSCRIPT costs a second round trip (and could come after a QUIT).
    for (const script of Object.values(SCRIPTS)) await this.options.connection.call('SCRIPT', 'LOAD', script.source);
    await this.options.subscriber.subscribe(this.options.keys.events);
    await this.refreshPause();
    await this.quotaSharing?.start();
  }

  /** 'redis' while Redis decides, 'local' while this process is on its share of the limits. */
  get using(): 'redis' | 'local' {
    return this.mode;
  }

  get pausedUntil(): number | undefined {
    const until = this.mode === 'local' ? this.fallback?.state.pausedUntil : this.localPausedUntil;
    return until !== undefined && until > this.options.clock.monotonic() ? until : undefined;
  }

  roundTripFloor(): number | undefined {
    return undefined; // calls are logged at answer times (see the invariant, 2)
  }

  logTimes(): number[] {
    return this.mode === 'local' && this.fallback ? this.fallback.logTimes() : []; // the log is in Redis
  }

  acquire(options: { front?: boolean; signal: AbortSignal }): Promise<Slot> {
    if (this.disposed || options.signal.aborted) return Promise.reject(apiErrors.cancelled());
    return new Promise<Slot>((resolve, reject) => {
      const onAbort = () => this.cancel(waiter);
      const waiter: Waiter = {
        front: options.front === true,
        resolve,
        reject,
        detach: () => options.signal.removeEventListener('abort', onAbort),
      };
      options.signal.addEventListener('abort', onAbort, { once: true });
      if (waiter.front) this.queue.unshift(waiter);
      else this.queue.push(waiter);
      if (this.mode === 'local') this.handToFallback(waiter);
      else void this.pump();
    });
  }

  pause(ms: number): void {
    if (this.mode === 'local') {
      this.fallback?.pause(ms);
      return;
    }
    this.setPausedFor(ms);
    this.script(SCRIPTS.pause, [this.options.keys.pause], [ms, this.options.keys.events]).then(
      (runsFor) => this.setPausedFor(Number(runsFor)),
      (error) => this.lose(error),
    );
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const waiter of this.queue.splice(0)) {
      waiter.detach();
      waiter.handed?.abort();
      waiter.reject(apiErrors.cancelled());
    }
    this.wake?.();
    if (this.returnTimer !== undefined) this.options.clock.clearTimeout(this.returnTimer);
    clearInterval(this.renewTimer);
    this.quotaSharing?.dispose();
    this.fallback?.dispose();
    // QUIT after the commands already sent (the last calls' ends), so that no call waits for its lease.
    for (const client of [this.options.connection, this.options.subscriber]) {
      if (client.status === 'ready') client.quit().catch(() => client.disconnect());
      else client.disconnect();
    }
    this.changes.dispose();
  }

  // ---- Redis decides ------------------------------------------------------------------------------

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (!this.disposed && this.mode === 'redis' && this.queue.length > 0) {
        const waiter = this.queue[0];
        const id = `${this.processId}:${this.nextId++}`;
        let reply: AcquireReply;
        try {
          reply = (await this.script(SCRIPTS.acquire, this.acquireKeys(), this.acquireArgs(id))) as AcquireReply;
        } catch (error) {
          this.lose(error);
          break;
        }
        const [granted, waitText, pausedText, ...counts] = reply;
        this.snapshot = { at: this.options.clock.monotonic(), counts: counts.map(Number) };
        if (granted === 1) {
          this.grant(waiter, id);
          continue;
        }
        this.setPausedFor(Number(pausedText));
        const wait = Number(waitText);
        await this.sleep(wait < 0 ? (this.options.pollMs ?? 100) : wait);
      }
    } finally {
      this.pumping = false;
    }
    if (!this.disposed && this.mode === 'redis' && this.queue.length > 0) void this.pump();
  }

  private grant(waiter: Waiter, id: string): void {
    const slot = this.redisSlot(id);
    const index = this.queue.indexOf(waiter);
    if (index < 0) return slot.release(); // cancelled while Redis answered
    this.queue.splice(index, 1);
    waiter.detach();
    waiter.resolve(slot);
  }

  private redisSlot(id: string): Slot {
    let state: 'granted' | 'sent' | 'done' = 'granted';
    this.flight.set(id, {});
    this.startRenewing();
    const finish = (how: 'logged' | 'unsent') => {
      if (state === 'done') return;
      state = 'done';
      const call = this.flight.get(id);
      this.flight.delete(id);
      if (call?.reserved) {
        if (how === 'logged') call.reserved.markFailed();
        else call.reserved.release();
      }
      // While Redis is away the call's lease logs it there (invariant, 3).
      if (this.mode !== 'redis') return;
      this.script(SCRIPTS.done, this.acquireKeys(), [id, how, this.keyTtlMs(), this.options.keys.events]).catch((error) => this.lose(error));
    };
    return {
      markSent: () => {
        if (state === 'granted') state = 'sent';
      },
      markAnswered: () => finish('logged'),
      markFailed: () => finish('logged'),
      release: () => finish(state === 'sent' ? 'logged' : 'unsent'),
    };
  }

  private startRenewing(): void {
    if (this.renewTimer) return;
    const lease = this.leaseMs();
    this.renewTimer = setInterval(() => {
      if (this.flight.size === 0) {
        clearInterval(this.renewTimer);
        this.renewTimer = undefined;
        return;
      }
      if (this.mode !== 'redis') return;
      this.script(SCRIPTS.renew, [this.options.keys.flight], [lease, this.keyTtlMs(), ...this.flight.keys()]).catch((error) => this.lose(error));
    }, lease / 3);
    this.renewTimer.unref?.();
  }

  private acquireKeys(): string[] {
    const { keys } = this.options;
    return [keys.flight, keys.pause, ...keys.logs];
  }

  private acquireArgs(id: string): Array<string | number> {
    const margin = Math.max(0, this.options.safetyMarginMs());
    return [id, this.leaseMs(), margin, this.keyTtlMs(), ...this.options.limits.flatMap((limit) => [limit.windowMs, limit.max])];
  }

  private leaseMs(): number {
    return this.options.leaseMs ?? 15_000;
  }

  /** Keys outlive the longest window and a lease; then nothing in them matters. */
  private keyTtlMs(): number {
    return Math.ceil(this.longestSpanMs() + this.leaseMs() + 1000);
  }

  private longestSpanMs(): number {
    return Math.max(0, ...this.options.limits.map((limit) => limit.windowMs)) + Math.max(0, this.options.safetyMarginMs());
  }

  private script(which: LedgerScript, keys: string[], args: Array<string | number>): Promise<unknown> {
    return runScript(this.options.connection, which, keys, args);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms >= 1 ? setTimeout(() => done(), Math.floor(ms)) : setImmediate(() => done());
      const done = () => {
        if (ms >= 1) clearTimeout(timer as ReturnType<typeof setTimeout>);
        else clearImmediate(timer as ReturnType<typeof setImmediate>);
        this.wake = undefined;
        resolve();
      };
      this.wake = done;
    });
  }

  private onEvent(message: string): void {
    if (message === 'done') this.wake?.();
    else if (message === 'pause') void this.refreshPause().then(() => this.wake?.(), () => undefined);
    else if (message.startsWith('quota:')) void this.quotaSharing?.fetch(message.slice('quota:'.length)).catch(() => undefined);
  }

  private async refreshPause(): Promise<void> {
    this.setPausedFor(Number(await this.script(SCRIPTS.pausedFor, [this.options.keys.pause], [])));
  }

  private setPausedFor(ms: number): void {
    const until = ms > 0 ? this.options.clock.monotonic() + ms : undefined;
    if (until === this.localPausedUntil) return;
    if (until !== undefined && this.localPausedUntil !== undefined && Math.abs(until - this.localPausedUntil) < 1) return;
    this.localPausedUntil = until;
    this.changes.fire();
  }

  private cancel(waiter: Waiter): void {
    const index = this.queue.indexOf(waiter);
    if (index < 0) return;
    this.queue.splice(index, 1);
    waiter.detach();
    waiter.handed?.abort();
    waiter.reject(apiErrors.cancelled());
  }

  // ---- Redis lost: this process's share, locally --------------------------------------------------

  private lose(error: unknown): void {
    if (this.disposed || this.mode === 'local') return;
    this.mode = 'local';
    this.lostAt = this.options.clock.monotonic();
    const { logger } = this.options;
    if (!this.warned) {
      this.warned = true;
      logger.warn(
        l10n.t(
          'Rate-limit ledger: Redis cannot be reached ({0}); this process goes on with its own ledger at 1/{1} of the limits until Redis answers again.',
          reasonOf(error),
          this.options.expectedProcesses,
        ),
      );
    }
    this.fallback = fallbackScheduler({ ...this.options, processes: this.options.expectedProcesses, snapshot: this.snapshot });
    this.fallback.onDidChange(() => this.changes.fire());
    const pausedFor = (this.localPausedUntil ?? 0) - this.lostAt;
    if (pausedFor > 0) this.fallback.pause(pausedFor);
    this.fallbackEnded = [];
    for (const call of this.flight.values()) call.reserved = this.fallback.reserve();
    this.fallbackInFlight = 0;
    for (const waiter of this.queue) this.handToFallback(waiter);
    this.wake?.();
    this.scheduleReturn();
    this.changes.fire();
  }

  private handToFallback(waiter: Waiter): void {
    const fallback = this.fallback!;
    const handed = new AbortController();
    waiter.handed = handed;
    // In the queue's order (the calls to the front are at its head already).
    fallback.acquire({ signal: handed.signal }).then(
      (slot) => {
        const index = this.queue.indexOf(waiter);
        if (waiter.handed !== handed || index < 0) return slot.release();
        this.queue.splice(index, 1);
        waiter.handed = undefined;
        waiter.detach();
        waiter.resolve(this.fallbackSlot(slot));
      },
      (error) => {
        const index = this.queue.indexOf(waiter);
        if (waiter.handed !== handed || index < 0) return; // taken back for Redis, or cancelled
        this.queue.splice(index, 1);
        waiter.detach();
        waiter.reject(error);
      },
    );
  }

  private fallbackSlot(slot: Slot): Slot {
    const id = `${this.processId}:${this.nextId++}`;
    let sent = false;
    let done = false;
    this.fallbackInFlight++;
    const finish = (logged: boolean, end: () => void) => {
      if (done) return;
      done = true;
      this.fallbackInFlight--;
      if (logged) this.fallbackEnded.push({ id, at: this.options.clock.monotonic() });
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
    const retry = this.options.retryMs ?? 250;
    const at = Math.max(this.lostAt + this.longestSpanMs(), this.options.clock.monotonic()) + retry;
    this.returnTimer = this.options.clock.setTimeout(() => {
      this.returnTimer = undefined;
      void this.tryReturn();
    }, at - this.options.clock.monotonic());
  }

  /** Back to Redis once it answers, a longest window after the loss, with nothing of the local ledger in flight. */
  private async tryReturn(): Promise<void> {
    if (this.disposed || this.mode !== 'local') return;
    // The seed below is the proof that Redis answers again (after a timeout the connection never closed).
    const ready = this.options.connection.status === 'ready' && this.options.subscriber.status === 'ready';
    if (!ready || this.fallbackInFlight > 0) return this.scheduleReturn();
    const now = this.options.clock.monotonic();
    const horizon = now - this.longestSpanMs();
    const seeds = this.fallbackEnded.filter((call) => call.at > horizon).flatMap((call) => [call.id, now - call.at]);
    try {
      await this.script(SCRIPTS.seed, this.options.keys.logs, [this.keyTtlMs(), ...seeds]);
      await this.refreshPause();
    } catch {
      return this.scheduleReturn();
    }
    if (this.disposed || this.mode !== 'local' || this.fallbackInFlight > 0) return this.mode === 'local' ? this.scheduleReturn() : undefined;
    this.backToRedis();
  }

  private backToRedis(): void {
    this.mode = 'redis';
    for (const waiter of this.queue) {
      const handed = waiter.handed;
      waiter.handed = undefined;
      handed?.abort();
    }
    this.fallback?.dispose();
    this.fallback = undefined;
    this.options.logger.info(l10n.t('Rate-limit ledger: Redis answers again; this process shares the limits through it again.'));
    this.changes.fire();
    // Quota changes made meanwhile were not shared.
    this.quotaSharing?.start().catch(() => undefined);
    void this.pump();
  }
}
