/**
 * The rule a watch keeps (spec: poll a resource at most once a minute): its interval, when it is next
 * due, why it stopped, and what all active watches cost per hour. Plain data, no `vscode`, no timers.
 */

/** The spec's guideline: a resource is polled at most once a minute. */
export const MIN_WATCH_INTERVAL_SECONDS = 60;
/** A day: longer intervals are allowed up to this (a setting of a year is a typo, not a wish). */
export const MAX_WATCH_INTERVAL_SECONDS = 24 * 60 * 60;
export const DEFAULT_WATCH_INTERVAL_SECONDS = MIN_WATCH_INTERVAL_SECONDS;

/** Why a watch ended: a closed set, each with its own message. */
export const WATCH_STOP_REASONS = ['errorAnswer', 'signedOut', 'environmentSwitched', 'environmentRemoved', 'stoppedByUser'] as const;
export type WatchStopReason = (typeof WATCH_STOP_REASONS)[number];

/**
 * The interval in seconds from any setting value: never under a minute (the spec), never above a day;
 * a value that is not a finite number is the default. Whole seconds.
 */
export function watchIntervalSeconds(value: unknown): number {
  const seconds = typeof value === 'number' && Number.isFinite(value) ? Math.ceil(value) : DEFAULT_WATCH_INTERVAL_SECONDS;
  return Math.min(MAX_WATCH_INTERVAL_SECONDS, Math.max(MIN_WATCH_INTERVAL_SECONDS, seconds));
}

/**
 * When the next call is due: at once for a watch that has not answered yet (its first look, which the
 * once-a-minute rule for polling does not cover), then the interval after the previous answer. `timeScale` (the in-editor
 * tests' only, through the test API) shrinks the wait as the sandbox's time scale shrinks its minute;
 * it never makes the interval shorter than a scaled minute.
 */
export function nextDueAt(lastSentAt: number | undefined, intervalSeconds: number, timeScale = 1, now = Date.now()): number {
  if (lastSentAt === undefined) return now;
  return lastSentAt + watchIntervalSeconds(intervalSeconds) * 1000 * validScale(timeScale);
}

/** A time scale from the test API: a positive finite factor, else 1. */
export function validScale(timeScale: number): number {
  return Number.isFinite(timeScale) && timeScale > 0 ? Math.min(1, timeScale) : 1;
}

/** Calls per hour of the active watches together (each interval clamped as the watches keep it). */
export function watchCallsPerHour(intervalsSeconds: readonly number[]): number {
  return Math.round(intervalsSeconds.reduce((sum, seconds) => sum + 3600 / watchIntervalSeconds(seconds), 0));
}
