/**
 * What a run of several calls costs before it starts (Send All, a test run, the runner's dry run):
 * how many calls, the shortest time the application's limits allow for them, and the share of each
 * organization's remaining weekly quota they take, from the last reading seen (none is made for it).
 * No `vscode` here.
 */
import * as l10n from '../common/l10n';
import type { RateLimit } from './limits';
import type { QuotaReading } from './types';

export interface OrganizationCost {
  organization: string;
  calls: number;
  /** Left of the week's quota at the last reading; undefined when none was seen or the limit is unknown. */
  remaining?: number;
  /** calls / remaining, in percent (Infinity when nothing remains). */
  percentOfRemaining?: number;
}

export interface RunCost {
  calls: number;
  /** The shortest time the limits allow for all calls, in ms (the first `max` at once, then a window per `max`). */
  minimumMs: number;
  /** Per organization the calls count against; calls with no organization (the tenant listing) are in `calls` only. */
  organizations: OrganizationCost[];
}

/** (⌈calls / max⌉ − 1) windows of the tightest limit: the same minimum the benchmarks' ratio uses. */
export function minimumRunMs(calls: number, limits: readonly RateLimit[]): number {
  if (calls <= 0) return 0;
  return Math.max(0, ...limits.map((limit) => (Math.ceil(calls / limit.max) - 1) * limit.windowMs));
}

export function runCost(
  callsByOrganization: ReadonlyMap<string | undefined, number>,
  limits: readonly RateLimit[],
  readingOf: (organization: string) => Pick<QuotaReading, 'used' | 'limit'> | undefined,
): RunCost {
  let calls = 0;
  const organizations: OrganizationCost[] = [];
  for (const [organization, count] of callsByOrganization) {
    calls += count;
    if (organization === undefined) continue;
    const reading = readingOf(organization);
    const remaining = reading && reading.limit > 0 ? Math.max(0, reading.limit - reading.used) : undefined;
    const percentOfRemaining = remaining === undefined ? undefined : remaining === 0 ? Infinity : (count / remaining) * 100;
    organizations.push({ organization, calls: count, remaining, percentOfRemaining });
  }
  organizations.sort((a, b) => (b.percentOfRemaining ?? -1) - (a.percentOfRemaining ?? -1));
  return { calls, minimumMs: minimumRunMs(calls, limits), organizations };
}

/** Whether to ask before the run: some organization's share of its remaining quota reaches the threshold. */
export function runNeedsConfirmation(cost: RunCost, thresholdPercent: number): boolean {
  return cost.organizations.some((organization) => (organization.percentOfRemaining ?? 0) >= thresholdPercent);
}

function formatSeconds(ms: number, locale: string): string {
  return (ms / 1000).toLocaleString(locale, { maximumFractionDigits: ms < 10_000 ? 1 : 0 });
}

/** "43 calls, about 8 s at the limit, 0.4 % of org-rossi's remaining quota". */
export function describeRunCost(cost: RunCost, locale = 'en'): string {
  const parts = [
    cost.calls === 1 ? l10n.t('1 call') : l10n.t('{0} calls', cost.calls),
    l10n.t('about {0} s at the limit', formatSeconds(cost.minimumMs, locale)),
  ];
  for (const organization of cost.organizations) {
    if (organization.percentOfRemaining === undefined) {
      parts.push(l10n.t("{0}'s quota not seen yet", organization.organization));
    } else if (organization.percentOfRemaining === Infinity) {
      parts.push(l10n.t("{0}'s quota is used up", organization.organization));
    } else {
      const percent = organization.percentOfRemaining.toLocaleString(locale, { maximumFractionDigits: organization.percentOfRemaining < 10 ? 1 : 0 });
      parts.push(l10n.t("{0} % of {1}'s remaining quota", percent, organization.organization));
    }
  }
  return parts.join(', ');
}
