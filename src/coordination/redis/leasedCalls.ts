import type { Slot } from '../../api/requestScheduler';
import type { Disposable } from '../../common/event';

/** How a call's end is logged by the DONE script: in every window, or not at all (never sent). */
export type CallEnd = 'logged' | 'unsent';

export interface LeasedCallsHost {
  leaseMs: number;
  /** True while Redis is lost. */
  lost(): boolean;
  /** Sends the call's end to Redis (DONE). */
  reportEnd(id: string, how: CallEnd): void;
  /** Renews these calls' leases in Redis. */
  renew(ids: string[]): void;
}

/**
 * Calls granted by Redis and not ended, with their slot in the local ledger after a loss. Each holds
 * a lease in Redis, renewed every third of it while the call is in flight (invariant 3 of
 * redisRateLedger.ts).
 */
export class LeasedCalls implements Disposable {
  private readonly calls = new Map<string, { reserved?: Slot }>();
  private renewTimer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly host: LeasedCallsHost) {}

  /** The calls in flight, each to be given its slot in the local ledger. */
  values(): Iterable<{ reserved?: Slot }> {
    return this.calls.values();
  }

  slot(id: string): Slot {
    let state: 'granted' | 'sent' | 'done' = 'granted';
    this.calls.set(id, {});
    this.startRenewing();
    const finish = (how: CallEnd) => {
      if (state === 'done') return;
      state = 'done';
      const call = this.calls.get(id);
      this.calls.delete(id);
      if (call?.reserved) {
        if (how === 'logged') call.reserved.markFailed();
        else call.reserved.release();
      }
      // While Redis is away the call's lease logs it there (invariant, 3).
      if (this.host.lost()) return;
      this.host.reportEnd(id, how);
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

  dispose(): void {
    clearInterval(this.renewTimer);
  }

  private startRenewing(): void {
    if (this.renewTimer) return;
    this.renewTimer = setInterval(() => {
      if (this.calls.size === 0) {
        clearInterval(this.renewTimer);
        this.renewTimer = undefined;
        return;
      }
      if (this.host.lost()) return;
      this.host.renew([...this.calls.keys()]);
    }, this.host.leaseMs / 3);
    this.renewTimer.unref?.();
  }
}
