/**
 * What the usage panel shows, made from the usage record, the quota tracker and the settings: per
 * organization its lines (the status bar tooltip's, with the forecast) and its week chart, or a sentence
 * saying it has no readings yet; below, the last hour of the rate limit. Also the webview's texts.
 * No `vscode` here.
 */
import { forecastQuota, type WeeklyResetSetting } from '../../api/quotaForecast';
import type { QuotaReading } from '../../api/types';
import type { UsageSample } from '../../api/usageHistory';
import * as l10n from '../../common/l10n';
import type { QuotaThresholds } from '../../settings/quotaThresholds';
import { DEFAULT_THRESHOLDS } from '../../settings/quotaThresholds';
import { formatCount, quotaLines, severityFor, usagePercent, type QuotaSeverity } from '../quotaPresentation';
import { hourChart, weekChart, type HourChart, type WeekChart } from './usageChart';
import type { MinuteCalls, PauseMark } from './usageRecord';

export interface UsageRecordView {
  organizations(): string[];
  samples(organization: string): readonly UsageSample[];
  stopsOf(organization: string): readonly number[];
  pauseMarks(): readonly PauseMark[];
  minutesSince(since: number): MinuteCalls[];
}

export interface UsageViewInput {
  record: UsageRecordView;
  quota: { readings(): QuotaReading[]; isBlocked(organization: string): boolean };
  /** Organizations of the licence keys set: shown even before their first reading. */
  keyOrganizations: readonly string[];
  now: number;
  locale: string;
  resetSetting?: WeeklyResetSetting;
  invalidResetSetting?: string;
  thresholds?: QuotaThresholds;
  /** The application's limit per minute. */
  perMinute: number;
}

export interface ReadingRow {
  at: string;
  used: string;
}

export interface OrganizationView {
  name: string;
  severity: QuotaSeverity;
  stopped: boolean;
  /** Markdown lines (**bold** only). */
  lines: string[];
  chart?: WeekChart;
  /** The chart's summary for screen readers. */
  chartLabel?: string;
  /** The newest readings, newest first, as a table under the chart. */
  readings: ReadingRow[];
}

export interface UsageView {
  organizations: OrganizationView[];
  rate: { chart: HourChart; lines: string[]; chartLabel: string };
  updated: string;
}

const TABLE_ROWS = 50;
const HOUR_MS = 3_600_000;

function latestReading(organization: string, samples: readonly UsageSample[], readings: readonly QuotaReading[]): QuotaReading | undefined {
  const tracked = readings.find((reading) => reading.organization === organization);
  const last = samples[samples.length - 1];
  if (tracked && (!last || tracked.seenAt >= last.at)) return tracked;
  return last ? { organization, used: last.used, limit: last.limit, seenAt: last.at } : undefined;
}

/** The local midnights after `start` up to `end`. */
export function localMidnights(start: number, end: number): number[] {
  const day = new Date(start);
  day.setHours(24, 0, 0, 0);
  const found: number[] = [];
  while (day.getTime() <= end) {
    found.push(day.getTime());
    day.setDate(day.getDate() + 1);
  }
  return found;
}

function organizationView(name: string, input: UsageViewInput): OrganizationView {
  const { record, now, locale } = input;
  const samples = record.samples(name);
  const reading = latestReading(name, samples, input.quota.readings());
  const blocked = input.quota.isBlocked(name);
  if (!reading) {
    return { name, severity: 'normal', stopped: false, lines: [l10n.t('No readings for {0} yet: every answer to a call with its licence key reports its weekly usage.', name)], readings: [] };
  }
  const all = samples.length > 0 ? samples : [{ used: reading.used, limit: reading.limit, at: reading.seenAt }];
  const forecast = forecastQuota(all, { now, resetSetting: input.resetSetting });
  const chart = weekChart({
    samples: all,
    stops: record.stopsOf(name),
    pauses: record.pauseMarks(),
    forecast,
    now,
    dayLabel: (at) => new Date(at).toLocaleDateString(locale, { weekday: 'short', day: 'numeric' }),
    midnights: localMidnights,
  });
  const percent = usagePercent(reading);
  return {
    name,
    severity: severityFor(percent, input.thresholds ?? DEFAULT_THRESHOLDS, blocked),
    stopped: blocked,
    lines: quotaLines(reading, { now, locale, forecast, blocked, invalidResetSetting: input.invalidResetSetting }),
    chart,
    chartLabel: l10n.t('Week of {0}: {1} readings, {2} of {3} calls used', name, all.length, formatCount(reading.used, locale), formatCount(reading.limit, locale)),
    readings: [...all]
      .reverse()
      .slice(0, TABLE_ROWS)
      .map((sample) => ({ at: new Date(sample.at).toLocaleString(locale), used: `${formatCount(sample.used, locale)} / ${formatCount(sample.limit, locale)}` })),
  };
}

function rateView(input: UsageViewInput): UsageView['rate'] {
  const { record, now, locale } = input;
  const chart = hourChart({
    minutes: record.minutesSince(now - HOUR_MS - 60_000),
    pauses: record.pauseMarks(),
    limit: input.perMinute,
    now,
    timeLabel: (at) => new Date(at).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' }),
  });
  const calls = chart.bars.reduce((sum, bar) => sum + bar.calls, 0);
  const busiest = Math.max(0, ...chart.bars.map((bar) => bar.calls));
  const waited = chart.bars.reduce((sum, bar) => sum + bar.waitedMs, 0);
  const longest = Math.max(0, ...chart.bars.map((bar) => bar.longestWaitMs));
  const seconds = (ms: number) => (ms / 1000).toLocaleString(locale, { maximumFractionDigits: 1 });
  const pauses = chart.marks.length;
  const lines = [
    l10n.t('**Last hour:** {0} calls from this window; the busiest minute had {1} of {2}', formatCount(calls, locale), formatCount(busiest, locale), formatCount(input.perMinute, locale)),
    l10n.t('**Waited for a slot:** {0} s in all, {1} s at most', seconds(waited), seconds(longest)),
    pauses === 0
      ? l10n.t('**Paused after a 429:** not in the last hour')
      : l10n.byCount(pauses, l10n.t('**Paused after a 429:** once in the last hour'), l10n.t('**Paused after a 429:** {0} times in the last hour', pauses)),
    l10n.t('Calls from other windows count against the same limit: here they show as time waited.'),
  ];
  return { chart, lines, chartLabel: l10n.t('Calls per minute in the last hour: {0} in all, at most {1} in a minute, against {2}', calls, busiest, input.perMinute) };
}

export function usageView(input: UsageViewInput): UsageView {
  const names = [...new Set([...input.record.organizations(), ...input.quota.readings().map((reading) => reading.organization), ...input.keyOrganizations])];
  const organizations = names.map((name) => organizationView(name, input)).sort((a, b) => Number(!a.chart) - Number(!b.chart) || a.name.localeCompare(b.name));
  return { organizations, rate: rateView(input), updated: l10n.t('Updated {0}', new Date(input.now).toLocaleTimeString(input.locale)) };
}

/** The usage webview's own texts (the rest comes in the view). */
export function usageStrings() {
  return {
    title: l10n.t('Tenant API Usage'),
    weekHeading: l10n.t('Weekly quota per organization'),
    rateHeading: l10n.t('Rate limit: the last hour'),
    none: l10n.t('No organization yet: sign in, set a licence key and send a request; every answer reports its organization\'s usage.'),
    limit: l10n.t('limit {0}'),
    now: l10n.t('now'),
    forecast: l10n.t('at this pace'),
    even: l10n.t('even spending until the reset'),
    stop: l10n.t('Weekly limit reached (429): calls stopped {0}'),
    legendStop: l10n.t('weekly limit reached (429)'),
    legendPause: l10n.t('paused after a 429'),
    pause: l10n.t('Paused {1} s after a 429 at {0}'),
    reading: l10n.t('{0}: {1} used'),
    minute: l10n.t('{0}: {1} calls, waited {2} s (longest {3} s)'),
    readings: l10n.t('Readings (newest first)'),
    time: l10n.t('Seen'),
    used: l10n.t('Used'),
    calls: l10n.t('Calls per minute'),
    waits: l10n.t('Time waited per minute (s)'),
    resume: l10n.t('Resume Calls'),
    list: l10n.t('Show API Usage per Organization'),
    stopped: l10n.t('stopped'),
  };
}

export type UsageStrings = ReturnType<typeof usageStrings>;
