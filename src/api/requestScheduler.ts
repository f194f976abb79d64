import type { Clock } from '../common/clock';
import { Emitter, type Disposable } from '../common/event';
import { countedSlot, type MeteredCall } from './countedSlot';
import { apiErrors } from './errors';
import { LocalLedger, type LocalLedgerOptions } from './localLedger';
import type { RateLedger, Slot, Withdraw } from './rateLedger';
import type { QueueState, QueueView } from './types';

export type { RateLedger, Slot, SlotAsk } from './rateLedger';
export type { MeteredCall } from './countedSlot';

export interface AcquireOptions {
  signal?: AbortSignal;
  /** 1-based position while waiting; 0 when the slot is granted. */
  onPosition?: (position: number) => void;
  /** Retries of calls already in flight go to the head of the queue and are not refused when it is full. */
  front?: boolean;
}

export interface RequestSchedulerOptions {
  /** Where the slots come from; the scheduler owns it (disposed with it). */
  ledger: RateLedger;
  maxQueueLength: () => number;
  /** The ledger's clock: a call's wait and when it left (onDidCall). */
  clock: Pick<Clock, 'now' | 'monotonic'>;
}

interface Waiter {
  resolve(slot: Slot): void;
  reject(error: unknown): void;
  options: AcquireOptions;
  position: number;
  /** Monotonic ms when it asked. */
  askedAt: number;
  withdraw?: Withdraw;
  detachAbort?: () => void;
}

/**
 * The queue of one application's calls in front of its rate-limit ledger: positions, the length
 * limit, cancellation and retries to the front. Each waiting call asks the ledger in queue order and
 * leaves the queue when the ledger grants it a slot; the ledger decides when (see RateLedger).
 * Each call it let go is told once it counts (onDidCall, with its wait in the queue): the usage panel's
 * calls per minute and waits.
 */
export class RequestScheduler implements QueueView, Disposable {
  private readonly queue: Waiter[] = [];
  private readonly changes = new Emitter<QueueState>();
  readonly onDidChange = this.changes.event;
  private readonly calls = new Emitter<MeteredCall>();
  /** A call counted (sent, or ended without a send marked; not a slot given back unsent), with its wait. */
  readonly onDidCall = this.calls.event;
  private readonly ledgerSubscription: Disposable;
  private notifying = false;
  private disposed = false;

  constructor(private readonly options: RequestSchedulerOptions) {
    this.ledgerSubscription = options.ledger.onDidChange(() => this.changes.fire(this.state));
  }

  get length(): number {
    return this.queue.length;
  }

  get state(): QueueState {
    return { length: this.queue.length, pausedUntil: this.options.ledger.pausedUntil };
  }

  /** The round trip taken off answer times on `origin`; for tests and diagnostics. */
  roundTripFloor(origin: string): number | undefined {
    return this.options.ledger.roundTripFloor(origin);
  }

  /** When the calls in the log are taken to have been counted (monotonic ms), oldest first. */
  logTimes(): number[] {
    return this.options.ledger.logTimes();
  }

  acquire(options: AcquireOptions = {}): Promise<Slot> {
    if (options.signal?.aborted) return Promise.reject(apiErrors.cancelled());
    if (!options.front && this.queue.length >= this.options.maxQueueLength()) {
      return Promise.reject(apiErrors.queueFull(this.options.maxQueueLength()));
    }
    return new Promise<Slot>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, options, position: 0, askedAt: this.options.clock.monotonic() };
      if (options.signal) {
        const signal = options.signal;
        const onAbort = () => this.leave(waiter, apiErrors.cancelled());
        signal.addEventListener('abort', onAbort, { once: true });
        waiter.detachAbort = () => signal.removeEventListener('abort', onAbort);
      }
      if (options.front) this.queue.unshift(waiter);
      else this.queue.push(waiter);
      waiter.withdraw = this.options.ledger.ask({
        front: options.front === true,
        granted: (slot) => this.granted(waiter, slot),
        refused: (error) => this.leave(waiter, error),
      });
      // Granted at once: granted() tells the others.
      if (this.queue.includes(waiter)) this.afterQueueChange();
    });
  }

  /** After a 429 for the second or minute: no slot until `ms` from now, and answer times logged from now on. */
  pause(ms: number): void {
    this.options.ledger.pause(ms);
  }

  /** Cancels every waiting call (e.g. on sign-out or when the extension stops), and lets go of the ledger. */
  dispose(): void {
    this.disposed = true;
    this.ledgerSubscription.dispose();
    for (const waiter of this.queue.splice(0)) {
      waiter.withdraw?.();
      waiter.detachAbort?.();
      waiter.reject(apiErrors.cancelled());
    }
    this.options.ledger.dispose();
    this.changes.fire(this.state);
    this.changes.dispose();
    this.calls.dispose();
  }

  private granted(waiter: Waiter, slot: Slot): void {
    const index = this.queue.indexOf(waiter);
    if (index < 0) return slot.release(); // left the queue meanwhile
    this.queue.splice(index, 1);
    waiter.detachAbort?.();
    waiter.options.onPosition?.(0);
    const waitedMs = Math.max(0, this.options.clock.monotonic() - waiter.askedAt);
    waiter.resolve(countedSlot(slot, () => this.calls.fire({ at: this.options.clock.now(), waitedMs })));
    this.afterGrants();
  }

  /** Once for the grants a ledger makes in one go (a window's worth at once), as for one. */
  private afterGrants(): void {
    if (this.notifying) return;
    this.notifying = true;
    queueMicrotask(() => {
      this.notifying = false;
      if (!this.disposed) this.afterQueueChange();
    });
  }

  /** A waiting call leaves without a slot (cancelled, or the ledger refused it). */
  private leave(waiter: Waiter, error: unknown): void {
    const index = this.queue.indexOf(waiter);
    if (index < 0) return;
    this.queue.splice(index, 1);
    waiter.withdraw?.();
    waiter.detachAbort?.();
    waiter.reject(error);
    this.afterQueueChange();
  }

  private afterQueueChange(): void {
    this.queue.forEach((waiter, index) => {
      if (waiter.position !== index + 1) {
        waiter.position = index + 1;
        waiter.options.onPosition?.(index + 1);
      }
    });
    this.changes.fire(this.state);
  }
}

/** A scheduler over this process's own log (LocalLedger): one process, no sharing. */
export function localScheduler(options: LocalLedgerOptions & { maxQueueLength: () => number }): RequestScheduler {
  const { maxQueueLength, ...ledger } = options;
  return new RequestScheduler({ ledger: new LocalLedger(ledger), maxQueueLength, clock: options.clock });
}
