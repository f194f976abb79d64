/**
 * The quota guard (`--keep-quota PERCENT`, `--max-calls N`): whether the next calls may be made. A
 * call counts against the organization of the licence key it carries (its module's key for its
 * tenant): that organization's readings (this run's, or another window's through the shared ledger)
 * say what is left, each organization on its own. Pure.
 */
import type { QuotaReading } from '../api/types';
import * as l10n from '../common/l10n';

export interface GuardLimits {
  maxCalls?: number;
  keepQuotaPercent?: number;
}

/** Why `planned` more calls counted against `organization` must not be made, or undefined. */
export function quotaRefusal(readings: readonly QuotaReading[], organization: string | undefined, planned: number, keepPercent: number | undefined): string | undefined {
  if (keepPercent === undefined || organization === undefined) return undefined;
  for (const reading of readings) {
    if (reading.organization !== organization || reading.limit <= 0) continue;
    const left = reading.limit - reading.used - planned;
    const leftPercent = (left / reading.limit) * 100;
    if (leftPercent < keepPercent) {
      return l10n.t(
        "Stopped by the quota guard: {0} call(s) more would leave {1} % of {2}'s weekly quota ({3} of {4} used), less than --keep-quota {5} %.",
        planned,
        Math.max(0, Math.floor(leftPercent * 10) / 10),
        reading.organization,
        reading.used,
        reading.limit,
        keepPercent,
      );
    }
  }
  return undefined;
}

/** Why the run must not start: for each organization, all the calls planned against it at once. */
export function startRefusal(readings: readonly QuotaReading[], callsByOrganization: ReadonlyMap<string | undefined, number>, limits: GuardLimits): string | undefined {
  for (const [organization, calls] of callsByOrganization) {
    const refusal = quotaRefusal(readings, organization, calls, limits.keepQuotaPercent);
    if (refusal) return refusal;
  }
  return undefined;
}

/** Why the next call (counted against `organization`) must not be made (`made` calls so far), or undefined. */
export function nextCallRefusal(readings: readonly QuotaReading[], organization: string | undefined, made: number, limits: GuardLimits): string | undefined {
  if (limits.maxCalls !== undefined && made + 1 > limits.maxCalls) return l10n.t('Stopped by --max-calls {0}: {1} call(s) made.', limits.maxCalls, made);
  return quotaRefusal(readings, organization, 1, limits.keepQuotaPercent);
}
