import type { LogEntry } from './countTimeEstimate';
import type { RateLimit } from './limits';

/** First index of `times` (ascending) holding a value above `bound`. */
function firstAbove(times: readonly number[], bound: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (times[middle] > bound) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** One origin's answer times, ascending, and the round trip taken off them at a decision. */
interface Lane {
  times: number[];
  floor: number;
}

/**
 * The calls of the local log, by origin: each origin's entries ascending by `at` (its answer or
 * failure time), the entries without an origin in a lane of their own. A decision takes each lane's
 * round-trip floor off its entries (the floor moves as round trips are learned: applied when deciding,
 * never stored), finds the window's first entry by binary search, and merges lanes only for the few
 * entries it must name: the cost of a decision does not grow with the calls in the log.
 */
export class RateLog {
  private readonly lanes = new Map<string, number[]>();
  private readonly longestWindowMs: number;

  constructor(
    private readonly limits: readonly RateLimit[],
    private readonly floorOf: (origin: string) => number | undefined,
  ) {
    this.longestWindowMs = Math.max(0, ...limits.map((limit) => limit.windowMs));
  }

  /** Entries arrive nearly in order (calls answered out of their send order). */
  insert(entry: LogEntry): void {
    const key = entry.origin ?? '';
    let times = this.lanes.get(key);
    if (!times) this.lanes.set(key, (times = []));
    let at = times.length;
    while (at > 0 && times[at - 1] > entry.at) at--;
    if (at === times.length) times.push(entry.at);
    else times.splice(at, 0, entry.at);
  }

  /** When each call is taken to have been counted, ascending. */
  countedTimes(): number[] {
    const counted: number[] = [];
    for (const { times, floor } of this.currentLanes()) for (const at of times) counted.push(at - floor);
    return counted.sort((a, b) => a - b);
  }

  /**
   * How long until a call may go at `now` with `inFlight` calls granted and not ended: 0 = now,
   * Infinity = only once a call in flight ends.
   */
  waitForSlot(now: number, margin: number, inFlight: number): number {
    this.prune(now - this.longestWindowMs - margin);
    const lanes = this.currentLanes();
    let wait = 0;
    for (const limit of this.limits) {
      const span = limit.windowMs + margin;
      // Counted in (now - span, now]: at - floor > now - span.
      const firsts = lanes.map((lane) => firstAbove(lane.times, now - span + lane.floor));
      const inWindow = lanes.reduce((sum, lane, i) => sum + lane.times.length - firsts[i], 0);
      const excess = inWindow + inFlight - limit.max;
      if (excess < 0) continue;
      if (excess >= inWindow) return Infinity;
      // The (excess + 1)-th oldest call in the window must leave it.
      wait = Math.max(wait, nthCounted(lanes, firsts, excess) + span - now);
    }
    return wait;
  }

  /** Drops the calls that can no longer be in any window (each was counted at `at` at the latest). */
  private prune(horizon: number): void {
    for (const [key, times] of this.lanes) {
      const drop = firstAbove(times, horizon);
      if (drop === times.length) this.lanes.delete(key);
      else if (drop > 0) times.splice(0, drop);
    }
  }

  private currentLanes(): Lane[] {
    const lanes: Lane[] = [];
    for (const [origin, times] of this.lanes) lanes.push({ times, floor: origin === '' ? 0 : (this.floorOf(origin) ?? 0) });
    return lanes;
  }
}

/** The n-th (0-based) smallest counted time among the lanes' entries from `firsts` on. */
function nthCounted(lanes: readonly Lane[], firsts: readonly number[], n: number): number {
  if (lanes.length === 1) return lanes[0].times[firsts[0] + n] - lanes[0].floor;
  const next = [...firsts];
  let value = NaN;
  for (let taken = 0; taken <= n; taken++) {
    let best = -1;
    for (let i = 0; i < lanes.length; i++) {
      if (next[i] >= lanes[i].times.length) continue;
      if (best < 0 || lanes[i].times[next[i]] - lanes[i].floor < lanes[best].times[next[best]] - lanes[best].floor) best = i;
    }
    value = lanes[best].times[next[best]] - lanes[best].floor;
    next[best]++;
  }
  return value;
}
