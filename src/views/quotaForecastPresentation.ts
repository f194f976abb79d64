/**
 * The forecast's lines in the quota tooltip and in Show API Usage: the pace, when the quota runs out
 * at that pace, when the week resets and how we know, and the even pace until then. No `vscode` here.
 */
import * as l10n from '../common/l10n';
import type { QuotaForecast } from '../api/quotaForecast';

export interface ForecastTextOptions {
  now: number;
  locale?: string;
  /** The weekly reset setting as written, when it could not be read. */
  invalidResetSetting?: string;
}

const MINUTE = 60_000;

/** "45 min", "3 h 20 min", "2 d 4 h": how long until a moment, to the minute. */
export function formatDuration(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / MINUTE));
  if (minutes < 60) return l10n.t('{0} min', minutes);
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return l10n.t('{0} h {1} min', hours, minutes % 60);
  return l10n.t('{0} d {1} h', Math.floor(hours / 24), hours % 24);
}

function formatMoment(at: number, locale: string): string {
  return new Date(at).toLocaleString(locale, { weekday: 'short', hour: '2-digit', minute: '2-digit' });
}

function perHour(value: number, locale: string): string {
  return value.toLocaleString(locale, { maximumFractionDigits: value < 10 ? 1 : 0 });
}

function resetLine(forecast: Extract<QuotaForecast, { kind: 'forecast' }>, options: ForecastTextOptions, locale: string): string {
  if (options.invalidResetSetting !== undefined) {
    return l10n.t('**Week resets:** the setting tenantApi.quota.weekReset "{0}" is not a day and time like "Mon 00:00"', options.invalidResetSetting);
  }
  if (!forecast.reset) return l10n.t('**Week resets:** not known until usage drops (or set tenantApi.quota.weekReset)');
  const at = formatMoment(forecast.reset.at, locale);
  return forecast.reset.source === 'setting'
    ? l10n.t('**Week resets:** {0} (from the setting tenantApi.quota.weekReset)', at)
    : l10n.t('**Week resets:** about {0} (learned: usage dropped a week before)', at);
}

function outcomeLine(forecast: Extract<QuotaForecast, { kind: 'forecast' }>, now: number, locale: string): string | undefined {
  if (forecast.remaining === 0) return l10n.t('**At this pace:** the quota is used up');
  if (forecast.pacePerHour === undefined) return undefined;
  if (forecast.runsOutAt === undefined) return l10n.t('**At this pace:** it does not run out');
  if (forecast.reset && !forecast.runsOutBeforeReset) return l10n.t('**At this pace:** it lasts until the reset');
  return l10n.t('**At this pace:** runs out in {0} ({1})', formatDuration(forecast.runsOutAt - now), formatMoment(forecast.runsOutAt, locale));
}

/** Markdown lines for the tooltip; none while there is nothing to forecast. */
export function forecastLines(forecast: QuotaForecast, options: ForecastTextOptions): string[] {
  if (forecast.kind !== 'forecast') return [];
  const locale = options.locale ?? 'en';
  const lines = [
    forecast.pacePerHour === undefined
      ? l10n.t('**Pace:** not known yet (it needs two readings)')
      : l10n.t('**Pace:** {0} calls an hour (last hour)', perHour(forecast.pacePerHour, locale)),
  ];
  const outcome = outcomeLine(forecast, options.now, locale);
  if (outcome) lines.push(outcome);
  lines.push(resetLine(forecast, options, locale));
  if (forecast.evenPacePerHour !== undefined && forecast.remaining > 0) {
    lines.push(l10n.t('**Even spending until the reset:** {0} calls an hour', perHour(forecast.evenPacePerHour, locale)));
  }
  return lines;
}

/** One short phrase for a row of Show API Usage, or undefined. */
export function forecastSummary(forecast: QuotaForecast, now: number): string | undefined {
  if (forecast.kind !== 'forecast' || forecast.pacePerHour === undefined) return undefined;
  const pace = l10n.t('{0}/h', Math.round(forecast.pacePerHour));
  if (forecast.runsOutAt === undefined || (forecast.reset && !forecast.runsOutBeforeReset)) return pace;
  return l10n.t('{0}, runs out in {1}', pace, formatDuration(forecast.runsOutAt - now));
}

/** The quota would run out before the week resets at this pace: the item turns to a warning. */
export function forecastWarns(forecast: QuotaForecast | undefined): boolean {
  return forecast?.kind === 'forecast' && forecast.runsOutBeforeReset;
}
