/**
 * Where a call goes in the rate-limit log: the moment the server is taken to have counted it.
 * - 'answer': when its answer arrived. The server counted it between our send and that moment, so
 *   this holds whatever the network does; it costs about one round trip per window.
 * - 'fastest-round-trip' (default): the answer time minus the fastest round trip seen on that origin.
 *   See CountTimeEstimator for when that holds.
 */
export type CountTimeEstimate = 'answer' | 'fastest-round-trip';

/** Round trips seen on one origin, with no new fastest more than the margin below the last, before the fastest is trusted. */
export const ROUND_TRIP_SAMPLES = 30;

/**
 * One call in the rate-limit log: `at` is its answer time (or its failure time); with `origin`, the
 * floor of that origin's round trip is taken off when a decision is made.
 */
export interface LogEntry {
  at: number;
  origin?: string;
}

/** How the local log places a call (CountTimeEstimator; the benchmark compares others through it). */
export interface CountTimeRule {
  /** The log entry of a call sent at `sentAt` to `origin` whose answer arrived at `answeredAt`. */
  answered(origin: string, sentAt: number, answeredAt: number): LogEntry;
  /** The log entry of a call sent at `sentAt` that ended at `endedAt` without an answer. */
  failed(sentAt: number, endedAt: number): LogEntry;
  /** The round trip taken off the entries of `origin` at a decision; undefined: none. */
  floor(origin: string): number | undefined;
  /** When the server is taken to have counted the call of `entry`, as of now. */
  countedAt(entry: LogEntry): number;
  /** A 429 for a short unit: answer times from now on. True when that changes how calls are logged. */
  distrust(): boolean;
}

/**
 * Estimates, per origin, when the server counted a call from its send and answer times.
 *
 * A round trip R = pre + post: `pre` from our send to the server counting the call, `post` from
 * there to its answer reaching us. The next call y sent at `counted_x + window + margin` is counted
 * at least one window after call x when pre_y + post_x + margin >= answer_x - counted_x. With
 * counted_x = answer_x - Rmin (Rmin = pre_k + post_k, the fastest round trip seen), that holds when
 * the fastest call k was within `margin` of the smallest `pre` and the smallest `post`: delays
 * vary, their floors do not. Against the answer time this saves the floor of the round trip each
 * window (the fixed part of the network's delay); the varying part is still paid.
 *
 * To keep the floor honest:
 * - it is applied when a decision is made, not when the call is answered, so every entry uses the
 *   fastest round trip seen so far. A floor that drops (a cold process warming up, connections
 *   being opened) moves every entry later at once instead of leaving the early ones too early;
 * - the first calls on an origin open connections and run cold code: the fastest keeps dropping
 *   while the process warms up. It is trusted only after ROUND_TRIP_SAMPLES round trips in a row
 *   that did not beat it by more than the margin, and a round trip that does starts the count again;
 * - a call that got no answer (reset, timeout) is logged when it failed and teaches nothing;
 * - after a 429 for the second or minute, the estimate is dropped for answer times for good: either
 *   the floor was wrong or another client shares the application's limits.
 * What it still assumes: once the floor has held for ROUND_TRIP_SAMPLES round trips, it does not
 * drop by more than the margin before a round trip shows it.
 */
export class CountTimeEstimator implements CountTimeRule {
  private readonly fastest = new Map<string, { roundTripMs: number; steadySamples: number }>();
  private distrusted = false;

  constructor(
    private readonly mode: () => CountTimeEstimate,
    private readonly marginMs: () => number = () => 0,
  ) {}

  /** The log entry of a call sent at `sentAt` to `origin` whose answer arrived at `answeredAt`. */
  answered(origin: string, sentAt: number, answeredAt: number): LogEntry {
    const mode = this.mode();
    const roundTrip = Math.max(0, answeredAt - sentAt);
    const known = this.fastest.get(origin);
    const steady = known !== undefined && roundTrip >= known.roundTripMs - Math.max(0, this.marginMs());
    this.fastest.set(origin, {
      roundTripMs: Math.min(known?.roundTripMs ?? roundTrip, roundTrip),
      steadySamples: steady ? known.steadySamples + 1 : 1,
    });
    return mode === 'fastest-round-trip' ? { at: answeredAt, origin } : { at: answeredAt };
  }

  /** The log entry of a call sent at `sentAt` that ended at `endedAt` without an answer. */
  failed(_sentAt: number, endedAt: number): LogEntry {
    return { at: endedAt };
  }

  /** When the server is taken to have counted the call of `entry`, as of now. */
  countedAt(entry: LogEntry): number {
    return entry.origin === undefined ? entry.at : entry.at - (this.floor(entry.origin) ?? 0);
  }

  /** The round trip taken off answer times on `origin`; undefined while answer times are logged as they are. */
  floor(origin: string): number | undefined {
    const learned = this.fastest.get(origin);
    if (this.mode() !== 'fastest-round-trip' || this.distrusted || !learned || learned.steadySamples < ROUND_TRIP_SAMPLES) return undefined;
    return learned.roundTripMs;
  }

  /** A 429 for a short unit: answer times from now on. True when that changes how calls are logged. */
  distrust(): boolean {
    const changed = !this.distrusted && this.mode() === 'fastest-round-trip';
    this.distrusted = true;
    return changed;
  }

  get trusted(): boolean {
    return !this.distrusted;
  }
}
