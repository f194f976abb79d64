/**
 * What the quota status bar item shows: text, tooltip and severity for one Service-Limit-Info
 * reading, and which reading is the "active" one. No `vscode` here; the status bar maps it.
 */
import * as l10n from '../common/l10n';
import type { QuotaReading } from '../api/types';
import { DEFAULT_THRESHOLDS, sanitizeThresholds, type QuotaThresholds } from '../settings/quotaThresholds';
import type { QuotaForecast } from '../api/quotaForecast';
import { forecastLines, forecastSummary, forecastWarns } from './quotaForecastPresentation';
import { dateAndTime, timeOfDay } from './timeFormat';

export type QuotaSeverity = 'normal' | 'warning' | 'error';

export interface QuotaPresentation {
  text: string;
  /** Markdown lines. */
  tooltip: string[];
  severity: QuotaSeverity;
  percent: number | undefined;
}

export interface PresentOptions {
  thresholds?: QuotaThresholds;
  /** For "seen … ago"; epoch ms. */
  now: number;
  locale?: string;
  /** The organization's calls are stopped (weekly 429 or usage at the limit). */
  blocked?: boolean;
  /** Where the shown organization's quota is heading (src/api/quotaForecast.ts). */
  forecast?: QuotaForecast;
  /** tenantApi.quota.weekReset as written, when it is not a day and time. */
  invalidResetSetting?: string;
}

/** A quota that runs out before the week resets at this pace is at least a warning. */
function withForecast(severity: QuotaSeverity, forecast: QuotaForecast | undefined): QuotaSeverity {
  return severity === 'normal' && forecastWarns(forecast) ? 'warning' : severity;
}

const ICON = '$(pulse)';

export function usagePercent(reading: Pick<QuotaReading, 'used' | 'limit'>): number | undefined {
  if (!(reading.limit > 0)) return undefined;
  return (reading.used / reading.limit) * 100;
}

export function severityFor(percent: number | undefined, thresholds: QuotaThresholds, blocked = false): QuotaSeverity {
  if (blocked) return 'error';
  if (percent === undefined) return 'normal';
  const { warningPercent, errorPercent } = sanitizeThresholds(thresholds);
  if (percent >= errorPercent) return 'error';
  if (percent >= warningPercent) return 'warning';
  return 'normal';
}

export function formatCount(value: number, locale = 'en'): string {
  return value.toLocaleString(locale, { maximumFractionDigits: 0 });
}

export function formatPercent(percent: number, locale = 'en'): string {
  return percent.toLocaleString(locale, { maximumFractionDigits: 1, minimumFractionDigits: percent < 10 ? 1 : 0 });
}

export function presentQuota(reading: QuotaReading | undefined, options: PresentOptions): QuotaPresentation {
  const locale = options.locale ?? 'en';
  if (!reading) {
    return {
      text: `${ICON} —`,
      tooltip: [l10n.t('No API usage seen yet: it appears after the first call.')],
      severity: 'normal',
      percent: undefined,
    };
  }
  const percent = usagePercent(reading);
  const severity = withForecast(severityFor(percent, options.thresholds ?? DEFAULT_THRESHOLDS, options.blocked), options.forecast);
  const used = formatCount(reading.used, locale);
  const limit = formatCount(reading.limit, locale);
  // The quota is the organization's, whichever of its licence keys the last call carried: no key is named.
  const tooltip = [l10n.t('**Organization:** {0} (one weekly quota for all its licence keys)', reading.organization), ...quotaLines(reading, options)];
  tooltip.push(l10n.t('Click to open the usage panel: the week of every organization and the rate limit.'));
  return { text: `${ICON} ${used}/${limit}`, tooltip, severity, percent };
}

/** A reading's lines (Markdown): the week's usage, when it was seen, the forecast, a stop. */
export function quotaLines(reading: QuotaReading, options: PresentOptions): string[] {
  const locale = options.locale ?? 'en';
  const percent = usagePercent(reading);
  const used = formatCount(reading.used, locale);
  const limit = formatCount(reading.limit, locale);
  const lines: string[] = [];
  lines.push(
    percent === undefined
      ? l10n.t('**Used this week:** {0} of {1}', used, limit)
      : l10n.t('**Used this week:** {0} of {1} ({2} %)', used, limit, formatPercent(percent, locale)),
  );
  lines.push(l10n.t('**Seen:** {0}', formatSeen(reading.seenAt, options.now, locale)));
  if (options.forecast) lines.push(...forecastLines(options.forecast, { now: options.now, locale, invalidResetSetting: options.invalidResetSetting }));
  if (options.blocked) lines.push(l10n.t('Calls for this organization are stopped until you resume them.'));
  return lines;
}

export function formatSeen(seenAt: number, now: number, locale = 'en'): string {
  const seconds = Math.max(0, Math.round((now - seenAt) / 1000));
  const time = timeOfDay(seenAt, locale);
  if (seconds < 5) return l10n.t('{0} (just now)', time);
  if (seconds < 60) return l10n.t('{0} ({1} s ago)', time, seconds);
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return l10n.t('{0} ({1} min ago)', time, minutes);
  return dateAndTime(seenAt, locale);
}

/**
 * The reading the status bar shows: the organization the active tenant's calls were last counted
 * against, else the organization whose usage changed last.
 */
export function selectReading(
  readings: readonly QuotaReading[],
  preferredOrganization: string | undefined,
  lastChangedOrganization: string | undefined,
): QuotaReading | undefined {
  const find = (organization: string | undefined) =>
    organization === undefined ? undefined : readings.find((reading) => reading.organization === organization);
  return (
    find(preferredOrganization) ??
    find(lastChangedOrganization) ??
    [...readings].sort((a, b) => b.seenAt - a.seenAt)[0]
  );
}

/** One row per organization for the "usage per organization" list, fullest first. */
export function usageRows(
  readings: readonly QuotaReading[],
  options: PresentOptions & { isBlocked?: (organization: string) => boolean; forecastOf?: (organization: string) => QuotaForecast },
): Array<{ organization: string; label: string; description: string; detail: string; severity: QuotaSeverity }> {
  const locale = options.locale ?? 'en';
  return [...readings]
    .sort((a, b) => (usagePercent(b) ?? -1) - (usagePercent(a) ?? -1))
    .map((reading) => {
      const percent = usagePercent(reading);
      const blocked = options.isBlocked?.(reading.organization) ?? false;
      const used = formatCount(reading.used, locale);
      const limit = formatCount(reading.limit, locale);
      const details = [l10n.t('seen {0}', formatSeen(reading.seenAt, options.now, locale))];
      const forecast = options.forecastOf?.(reading.organization);
      const summary = forecast ? forecastSummary(forecast, options.now) : undefined;
      if (summary) details.push(summary);
      if (blocked) details.push(l10n.t('calls stopped'));
      return {
        organization: reading.organization,
        label: reading.organization,
        description:
          percent === undefined ? `${used}/${limit}` : `${used}/${limit} · ${formatPercent(percent, locale)} %`,
        detail: details.join(' · '),
        severity: withForecast(severityFor(percent, options.thresholds ?? DEFAULT_THRESHOLDS, blocked), forecast),
      };
    });
}
