import type { Clock } from '../common/clock';
import { Emitter } from '../common/event';
import { RequestScheduler, type AcquireOptions, type RequestSchedulerOptions, type Slot } from './requestScheduler';

/** A call of this process as it counted against the limits: how long it waited for its slot. */
export interface MeteredCall {
  /** Wall-clock ms when it left. */
  at: number;
  waitedMs: number;
}

/**
 * The scheduler, telling what it did: every call it let go, and how long that call waited in the queue
 * (the usage panel's calls per minute and waiting time). A read-only event on top; the decisions are
 * RequestScheduler's, unchanged. A call counts as the scheduler logs it: once sent, or once it ended
 * without a send being marked (a resend fetch made on its own); a slot given back unsent does not.
 */
export class MeteredScheduler extends RequestScheduler {
  private readonly calls = new Emitter<MeteredCall>();
  readonly onDidCall = this.calls.event;
  private readonly clock: Clock;

  constructor(options: RequestSchedulerOptions) {
    super(options);
    this.clock = options.clock;
  }

  override async acquire(options: AcquireOptions = {}): Promise<Slot> {
    const asked = this.clock.monotonic();
    const slot = await super.acquire(options);
    return this.metered(slot, Math.max(0, this.clock.monotonic() - asked));
  }

  override dispose(): void {
    super.dispose();
    this.calls.dispose();
  }

  private metered(slot: Slot, waitedMs: number): Slot {
    let counted = false;
    let sent = false;
    const count = () => {
      if (counted) return;
      counted = true;
      this.calls.fire({ at: this.clock.now(), waitedMs });
    };
    return {
      markSent: (origin) => {
        sent = true;
        count();
        slot.markSent(origin);
      },
      markAnswered: () => {
        count();
        slot.markAnswered();
      },
      markFailed: () => {
        count();
        slot.markFailed();
      },
      release: () => {
        if (sent) count();
        slot.release();
      },
    };
  }
}
