import type { Slot } from './rateLedger';

/** A call of this process as it counted against the limits: when, and how long it waited for its slot. */
export interface MeteredCall {
  /** Wall-clock ms when it left. */
  at: number;
  waitedMs: number;
}

/**
 * The slot, calling `count` once when its call counts as the ledger logs it: once sent, or once it
 * ended without a send being marked (a resend fetch made on its own); a slot given back unsent does not.
 */
export function countedSlot(slot: Slot, count: () => void): Slot {
  let counted = false;
  let sent = false;
  const once = () => {
    if (counted) return;
    counted = true;
    count();
  };
  return {
    markSent: (origin) => {
      sent = true;
      once();
      slot.markSent(origin);
    },
    markAnswered: () => {
      once();
      slot.markAnswered();
    },
    markFailed: () => {
      once();
      slot.markFailed();
    },
    release: () => {
      if (sent) once();
      slot.release();
    },
  };
}
