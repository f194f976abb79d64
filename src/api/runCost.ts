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

/**
 * Whether to ask before the run: some organization's share of its remaining quota reaches the
 * threshold, or its remaining quota is not known (no answer this session said it), so the share
 * cannot be said. Only a run of several calls has a cost at all; a threshold of 100 asks only for
 * what is known to take the whole quota.
 */
export function runNeedsConfirmation(cost: RunCost, thresholdPercent: number): boolean {
  return confirmationReasons(cost, thresholdPercent).length > 0;
}

/** Why the run is asked about, one sentence per organization, in the order of the cost. */
export function confirmationReasons(cost: RunCost, thresholdPercent: number, locale = 'en'): string[] {
  return cost.organizations.flatMap((organization) => {
    const share = organization.percentOfRemaining;
    if (share === undefined) {
      return thresholdPercent < 100 ? [l10n.t("{0}'s remaining weekly quota is not known yet: no answer in this session has said it.", organization.organization)] : [];
    }
    if (share < thresholdPercent) return [];
    return [
      share === Infinity
        ? l10n.t("{0}'s weekly quota is used up.", organization.organization)
        : l10n.t("The run takes {0} of {1}'s remaining weekly quota.", `${formatShare(share, locale)} %`, organization.organization),
    ];
  });
}

/** Whole seconds as the limits count them: under a second is `< 1 s`, two minutes or more in minutes. */
export function formatRunTime(ms: number, locale = 'en'): string {
  if (ms < 1000) return l10n.t('< 1 s at the limit');
  if (ms >= 120_000) return l10n.t('about {0} min at the limit', Math.round(ms / 60_000).toLocaleString(locale));
  return l10n.t('about {0} s at the limit', (ms / 1000).toLocaleString(locale, { maximumFractionDigits: ms < 10_000 ? 1 : 0 }));
}

/** A share in percent that never rounds to 0 (`< 0.1`), one decimal under 10. */
export function formatShare(percent: number, locale = 'en'): string {
  if (percent > 0 && percent < 0.1) return `< ${(0.1).toLocaleString(locale)}`;
  return percent.toLocaleString(locale, { maximumFractionDigits: percent < 10 ? 1 : 0 });
}

/** "43 calls, about 8 s at the limit, 0.4 % of org-rossi's remaining quota". */
export function describeRunCost(cost: RunCost, locale = 'en'): string {
  const parts = [cost.calls === 1 ? l10n.t('1 call') : l10n.t('{0} calls', cost.calls), formatRunTime(cost.minimumMs, locale)];
  for (const organization of cost.organizations) {
    if (organization.percentOfRemaining === undefined) {
      parts.push(l10n.t("{0}'s remaining quota not known yet", organization.organization));
    } else if (organization.percentOfRemaining === Infinity) {
      parts.push(l10n.t("{0}'s quota is used up", organization.organization));
    } else {
      parts.push(l10n.t("{0} % of {1}'s remaining quota", formatShare(organization.percentOfRemaining, locale), organization.organization));
    }
  }
  return parts.join(', ');
}
