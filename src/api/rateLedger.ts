import type { Event } from '../common/event';

/**
 * A granted slot. Call `markSent(origin)` right before the request leaves and `markAnswered()` as
 * soon as the response headers arrive, or `markFailed()` when the exchange ends without them: the
 * log entry is worked out from those moments (see countTimeEstimate.ts). Call `release()` instead when
 * the request is not sent after all (the slot is given back unused).
 */
export interface Slot {
  markSent(origin: string): void;
  markAnswered(): void;
  markFailed(): void;
  release(): void;
}

/** A call asking a ledger for a slot: the ledger calls one of these once, unless the ask was withdrawn first. */
export interface SlotAsk {
  /** Retries of calls already in flight: ahead of every other waiting call. */
  front: boolean;
  granted(slot: Slot): void;
  /** Only when the ledger cannot grant at all (it was disposed): always an ApiError. */
  refused(error: unknown): void;
}

/** Withdraws an ask that waits: nothing more is called for it, and it takes no slot. */
export type Withdraw = () => void;

/**
 * Where an application's rate-limit slots come from: this process's own log (LocalLedger), the broker
 * of the editor windows on this machine (src/coordination SharedRateLedger), or Redis for processes
 * on several machines (src/coordination/redis RedisRateLedger). Each grants in the order asked
 * (front asks first) and keeps the calls of everyone who shares it within the limits; a 429 pause
 * holds all of them. The RequestScheduler is the queue in front of one (positions, length limit,
 * cancellation); the contract every ledger keeps is test/http/coordination/ledgerContract.http.test.ts.
 */
export interface RateLedger {
  ask(ask: SlotAsk): Withdraw;
  /** After a 429 for the second or minute: no slot until `ms` from now (a longer running pause is kept). */
  pause(ms: number): void;
  /** Monotonic ms (this process's clock) until which every window is paused. */
  readonly pausedUntil: number | undefined;
  readonly onDidChange: Event<void>;
  /** The round trip taken off answer times on `origin`, where calls are logged so; for tests and diagnostics. */
  roundTripFloor(origin: string): number | undefined;
  /** When the calls this process can see in the log are taken to have been counted (monotonic ms), oldest first. */
  logTimes(): number[];
  /** Refuses every waiting ask (cancelled) and lets go of what the ledger holds. */
  dispose(): void;
}
