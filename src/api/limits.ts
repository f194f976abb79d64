import type { RateLimitUnit } from './types';

/** One limit of the platform: at most `max` requests per `windowMs` (spec section 8). */
export interface RateLimit {
  unit: RateLimitUnit;
  windowMs: number;
  max: number;
}

export const UNIT_MS: Readonly<Record<RateLimitUnit, number>> = {
  second: 1_000,
  minute: 60_000,
  week: 7 * 24 * 60 * 60_000,
};

/** Per-application limits (not negotiable, spec 8.1). The weekly limit is per organization and read from Service-Limit-Info. */
export const APPLICATION_LIMITS: readonly RateLimit[] = [
  { unit: 'second', windowMs: UNIT_MS.second, max: 5 },
  { unit: 'minute', windowMs: UNIT_MS.minute, max: 300 },
];

/** The limits with every window multiplied by `timeScale` (tests and benchmarks run the sandbox time-scaled). */
export function scaleLimits(limits: readonly RateLimit[], timeScale: number): RateLimit[] {
  return limits.map((limit) => ({ ...limit, windowMs: limit.windowMs * timeScale }));
}
