/**
 * Where a call goes in the rate-limit log: the moment the server is taken to have counted it.
 * - 'answer': when its answer arrived. The server counted it between our send and that moment, so
 *   this holds whatever the network does; it costs about one round trip per window.
 * - 'fastest-round-trip' (default): the answer time minus the fastest round trip seen on that origin.
 *   See CountTimeEstimator for when that holds.
 * - 'send': the send time; holds only while delays vary less than the safety margin (the benchmark's
 *   comparison).
 */
export type CountTimeEstimate = 'answer' | 'fastest-round-trip' | 'send';

/** Round trips seen on one origin before the fastest of them is trusted. */
export const ROUND_TRIP_SAMPLES = 30;

/**
 * Estimates, per origin, when the server counted a call from its send and answer times.
 *
 * A round trip R = pre + post: `pre` from our send to the server counting the call, `post` from
 * there to its answer reaching us. The next call y sent at `entry + window + margin` is counted
 * at least one window after call x when pre_y + post_x + margin >= answer_x - entry_x. With
 * entry_x = answer_x - Rmin (Rmin = pre_k + post_k, the fastest round trip seen), that holds when
 * the fastest call k was within `margin` of the smallest `pre` and the smallest `post`: delays
 * vary, their floors do not. Against the answer time this saves the floor of the round trip each
 * window (the fixed part of the network's delay); the varying part is still paid.
 *
 * To keep the floor honest:
 * - the first calls on an origin open connections (their `pre` is inflated), and the minimum of a
 *   few samples can sit well above the floor, so the fastest is trusted only after
 *   ROUND_TRIP_SAMPLES round trips (of 30 delays spread evenly over 4 ms, the fastest is within
 *   1 ms of the floor with odds of 1 - 0.75^30 = 99.98 %);
 * - a call that got no answer (reset, timeout) is logged when it failed and teaches nothing;
 * - after a 429 for the second or minute, the estimate is dropped for answer times for good: either
 *   the floor was wrong or another client shares the application's limits.
 */
export class CountTimeEstimator {
  private readonly fastest = new Map<string, { roundTripMs: number; samples: number }>();
  private distrusted = false;

  constructor(private readonly mode: () => CountTimeEstimate) {}

  /** The log entry of a call sent at `sentAt` to `origin` whose answer arrived at `answeredAt`. */
  answered(origin: string, sentAt: number, answeredAt: number): number {
    const mode = this.mode();
    if (mode === 'send') return sentAt;
    const roundTrip = Math.max(0, answeredAt - sentAt);
    const known = this.fastest.get(origin);
    const learned = known
      ? { roundTripMs: Math.min(known.roundTripMs, roundTrip), samples: known.samples + 1 }
      : { roundTripMs: roundTrip, samples: 1 };
    this.fastest.set(origin, learned);
    if (mode === 'answer' || this.distrusted || learned.samples < ROUND_TRIP_SAMPLES) return answeredAt;
    return answeredAt - learned.roundTripMs;
  }

  /** The log entry of a call sent at `sentAt` that ended at `endedAt` without an answer. */
  failed(sentAt: number, endedAt: number): number {
    return this.mode() === 'send' ? sentAt : endedAt;
  }

  /** A 429 for a short unit: answer times from now on. */
  distrust(): void {
    this.distrusted = true;
  }

  get trusted(): boolean {
    return !this.distrusted;
  }
}
