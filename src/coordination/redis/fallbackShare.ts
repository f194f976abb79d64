import type { RateLimit } from '../../api/limits';
import { CountTimeEstimator } from '../../api/countTimeEstimate';
import { LocalLedger } from '../../api/localLedger';
import type { Clock } from '../../common/clock';
import type { Logger } from '../../common/logger';

/** How many processes are taken to share the application when Redis is away, unless told. */
export const DEFAULT_EXPECTED_PROCESSES = 3;

/**
 * Each process's share of the limits while it cannot reach Redis: max / processes, at least one call
 * per window. Three by default: a team's CI seldom runs more parallel jobs on one connected app, and
 * with 5 per second each still sends one; a guess too low lets the processes together pass the limit
 * (the platform answers 429 and the client pauses), one too high only slows them down.
 */
export function shareOf(limits: readonly RateLimit[], processes: number): RateLimit[] {
  const n = Math.max(1, Math.floor(processes));
  return limits.map((limit) => ({ ...limit, max: Math.max(1, Math.floor(limit.max / n)) }));
}

/** What the last script reply said: when (this clock) and, per limit, how many calls its window held. */
export interface WindowSnapshot {
  at: number;
  counts: number[];
}

/**
 * The calls of the last snapshot as log entries at the latest time each can have been counted: the
 * calls of the shortest window at the snapshot, those only in a longer window when they left the
 * shorter one (windows nest: a call in the second's window is in the minute's too).
 */
export function snapshotEntries(limits: readonly RateLimit[], margin: number, snapshot: WindowSnapshot): number[] {
  const byWindow = limits.map((limit, i) => ({ span: limit.windowMs + margin, count: snapshot.counts[i] ?? 0 })).sort((a, b) => a.span - b.span);
  const times: number[] = [];
  let placed = 0;
  byWindow.forEach(({ count }, i) => {
    const at = i === 0 ? snapshot.at : snapshot.at - byWindow[i - 1].span;
    for (; placed < count; placed++) times.push(at);
  });
  return times.sort((a, b) => a - b);
}

/**
 * The local ledger a process goes on with when Redis is lost: its share of the limits, starting from
 * what the last reply said was in the windows (the others' calls included).
 */
export function fallbackLedger(options: {
  clock: Clock;
  limits: readonly RateLimit[];
  safetyMarginMs: () => number;
  logger: Logger;
  processes: number;
  /** Undefined when Redis never answered an acquire: every window is then taken to be full at `now`. */
  snapshot: WindowSnapshot | undefined;
}): LocalLedger {
  const ledger = new LocalLedger({
    clock: options.clock,
    limits: shareOf(options.limits, options.processes),
    safetyMarginMs: options.safetyMarginMs,
    // The other processes' round trips are not known here: answer times hold whatever they are.
    countTime: new CountTimeEstimator(() => 'answer'),
    logger: options.logger,
  });
  const snapshot = options.snapshot ?? { at: options.clock.monotonic(), counts: options.limits.map((limit) => limit.max) };
  ledger.restore(snapshotEntries(options.limits, Math.max(0, options.safetyMarginMs()), snapshot));
  return ledger;
}
