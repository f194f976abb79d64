import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import { apiErrors } from '../../api/errors';
import type { RateLimit } from '../../api/limits';
import type { QuotaTracker } from '../../api/quotaTracker';
import type { RateLedger, SlotAsk, Withdraw } from '../../api/rateLedger';
import type { Clock } from '../../common/clock';
import { Emitter } from '../../common/event';
import type { Logger } from '../../common/logger';
import type { WindowSnapshot } from './fallbackShare';
import { LeasedCalls } from './leasedCalls';
import type { LedgerKeys } from './ledgerKeys';
import { runScript, SCRIPTS, type LedgerScript } from './ledgerScripts';
import { QuotaSharing } from './quotaSharing';
import { RedisOutage, type Waiter } from './redisOutage';

/*
 * One application's rate-limit ledger in Redis, for every process on every machine that reaches it
 * (CI runners, editors). Same contract and same guarantee as the local log (LocalLedger): no interval of a
 * limit's window holds more than its `max` calls counted by the server.
 *
 * Why it holds:
 * 1. One decider, one clock. Every grant is one Lua script (ledgerScripts.ts ACQUIRE) that reads
 *    every limit's log and the calls in flight and records the call, atomically, on the Redis
 *    server's clock (TIME): the machines' clocks never meet. A process takes a slot only from the
 *    script's reply; a reply that does not come (timeout, lost connection) is "not acquired".
 *    TIME is the Redis host's wall clock: a forward step of it (time sync) ages every logged call by
 *    the step, and only the safety margin covers that.
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
 * 4. Redis lost: this process's share of the limits, locally, until Redis answers again (redisOutage.ts).
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

type AcquireReply = [number, string, string, ...number[]];

export class RedisRateLedger implements RateLedger {
  private readonly processId = randomBytes(8).toString('hex');
  private nextId = 1;
  private readonly queue: Waiter[] = [];
  private pumping = false;
  private wake: (() => void) | undefined;
  private readonly flight: LeasedCalls;
  private snapshot: WindowSnapshot | undefined;
  private localPausedUntil: number | undefined;
  /** While Redis is lost. */
  private outage: RedisOutage | undefined;
  private warned = false;
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
    this.flight = new LeasedCalls({
      leaseMs: this.leaseMs(),
      lost: () => this.outage !== undefined,
      reportEnd: (id, how) => {
        this.script(SCRIPTS.done, this.acquireKeys(), [id, how, this.keyTtlMs(), options.keys.events]).catch((error) => this.lose(error));
      },
      renew: (ids) => {
        this.script(SCRIPTS.renew, [options.keys.flight], [this.leaseMs(), this.keyTtlMs(), ...ids]).catch((error) => this.lose(error));
      },
    });
    if (options.quota) {
      this.quotaSharing = new QuotaSharing(connection, options.keys, options.quota, options.keys.events, () => this.outage === undefined, options.logger);
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
    return this.outage ? 'local' : 'redis';
  }

  get pausedUntil(): number | undefined {
    const until = this.outage ? this.outage.pausedUntil : this.localPausedUntil;
    return until !== undefined && until > this.options.clock.monotonic() ? until : undefined;
  }

  roundTripFloor(): number | undefined {
    return undefined; // calls are logged at answer times (see the invariant, 2)
  }

  logTimes(): number[] {
    return this.outage ? this.outage.logTimes() : []; // the log is in Redis
  }

  ask(ask: SlotAsk): Withdraw {
    if (this.disposed) {
      ask.refused(apiErrors.cancelled());
      return () => undefined;
    }
    const waiter: Waiter = { ask };
    if (ask.front) this.queue.unshift(waiter);
    else this.queue.push(waiter);
    if (this.outage) this.outage.hand(waiter);
    else void this.pump();
    return () => this.withdraw(waiter);
  }

  pause(ms: number): void {
    if (this.outage) {
      this.outage.pause(ms);
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
      waiter.handed?.();
      waiter.ask.refused(apiErrors.cancelled());
    }
    this.wake?.();
    this.flight.dispose();
    this.quotaSharing?.dispose();
    this.outage?.dispose();
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
      while (!this.disposed && !this.outage && this.queue.length > 0) {
        const waiter = this.queue[0];
        const id = this.callId();
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
    if (!this.disposed && !this.outage && this.queue.length > 0) void this.pump();
  }

  private grant(waiter: Waiter, id: string): void {
    const slot = this.flight.slot(id);
    const index = this.queue.indexOf(waiter);
    if (index < 0) return slot.release(); // withdrawn while Redis answered
    this.queue.splice(index, 1);
    waiter.ask.granted(slot);
  }

  private callId(): string {
    return `${this.processId}:${this.nextId++}`;
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

  private withdraw(waiter: Waiter): void {
    const index = this.queue.indexOf(waiter);
    if (index < 0) return;
    this.queue.splice(index, 1);
    waiter.handed?.();
  }

  // ---- Redis lost: this process's share, locally --------------------------------------------------

  private lose(error: unknown): void {
    if (this.disposed || this.outage) return;
    const outage = new RedisOutage({
      ...this.options,
      queue: this.queue,
      snapshot: this.snapshot,
      pausedUntil: this.localPausedUntil,
      callId: () => this.callId(),
      changed: () => this.changes.fire(),
      longestSpanMs: () => this.longestSpanMs(),
      connected: () => this.options.connection.status === 'ready' && this.options.subscriber.status === 'ready',
      writeBack: (calls) => this.writeBack(calls),
      backToRedis: () => this.backToRedis(),
    });
    this.outage = outage;
    if (!this.warned) {
      this.warned = true;
      outage.warn(error);
    }
    outage.begin(this.flight.values());
    this.wake?.();
    this.changes.fire();
  }

  private async writeBack(calls: Array<string | number>): Promise<void> {
    await this.script(SCRIPTS.seed, this.options.keys.logs, [this.keyTtlMs(), ...calls]);
    await this.refreshPause();
  }

  private backToRedis(): void {
    const outage = this.outage;
    this.outage = undefined;
    outage?.end();
    this.changes.fire();
    // Quota changes made meanwhile were not shared.
    this.quotaSharing?.start().catch(() => undefined);
    void this.pump();
  }
}
