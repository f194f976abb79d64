// The platform's request limits (spec section 8), in fixed windows that start at the first request.
// Per application (client_id): 5 per second and 300 per minute. Per organization: a weekly limit.
// Every window length is multiplied by the time scale.

export type LimitUnit = 'second' | 'minute' | 'week';

export const SPEC_PER_SECOND = 5;
export const SPEC_PER_MINUTE = 300;
export const WEEK_MS = 7 * 24 * 3600 * 1000;

interface Window { start: number; count: number }

export type LimitDecision = { ok: true } | { ok: false; unit: LimitUnit; max: number; retryAfterMs: number };

export class ApplicationLimits {
  private readonly windows = new Map<string, Window[]>();
  private readonly limits: Array<{ unit: 'second' | 'minute'; max: number; ms: number }>;

  constructor(
    private readonly timeScale: number,
    perSecond = SPEC_PER_SECOND,
    perMinute = SPEC_PER_MINUTE,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.limits = [{ unit: 'second', max: perSecond, ms: 1000 }, { unit: 'minute', max: perMinute, ms: 60_000 }];
  }

  /** Counts the call when allowed. A refused call does not count. */
  take(clientId: string): LimitDecision {
    const t = this.now();
    let windows = this.windows.get(clientId);
    if (!windows) this.windows.set(clientId, (windows = this.limits.map(() => ({ start: t, count: 0 }))));
    this.limits.forEach((limit, i) => {
      if (t - windows![i].start >= limit.ms * this.timeScale) windows![i] = { start: t, count: 0 };
    });
    // When the minute is used up, waiting for the second to pass would not help: report the
    // minute (the block that actually holds); otherwise the smallest unit exceeded.
    const exceeded = [...this.limits.keys()].reverse().find((i) => windows![i].count >= this.limits[i].max);
    if (exceeded !== undefined) {
      const limit = this.limits[exceeded];
      return { ok: false, unit: limit.unit, max: limit.max, retryAfterMs: windows[exceeded].start + limit.ms * this.timeScale - t };
    }
    for (const w of windows) w.count++;
    return { ok: true };
  }

  /** Takes back a call counted by take() that was refused later (by the weekly limit). */
  refund(clientId: string): void {
    for (const w of this.windows.get(clientId) ?? []) w.count = Math.max(0, w.count - 1);
  }

  reset(): void {
    this.windows.clear();
  }
}

export class WeeklyLimits {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly limitOf: (organizationId: string) => number,
    private readonly timeScale: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  private current(organizationId: string): Window | undefined {
    const w = this.windows.get(organizationId);
    if (w && this.now() - w.start >= WEEK_MS * this.timeScale) {
      this.windows.delete(organizationId);
      return undefined;
    }
    return w;
  }

  usage(organizationId: string): { used: number; limit: number } {
    return { used: this.current(organizationId)?.count ?? 0, limit: this.limitOf(organizationId) };
  }

  take(organizationId: string): LimitDecision {
    const t = this.now();
    let w = this.current(organizationId);
    if (!w) this.windows.set(organizationId, (w = { start: t, count: 0 }));
    if (w.count >= this.limitOf(organizationId)) {
      return { ok: false, unit: 'week', max: this.limitOf(organizationId), retryAfterMs: w.start + WEEK_MS * this.timeScale - t };
    }
    w.count++;
    return { ok: true };
  }

  reset(): void {
    this.windows.clear();
  }
}
