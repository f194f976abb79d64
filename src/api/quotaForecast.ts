/**
 * Where an organization's weekly quota is heading, from the readings already seen (no call is made
 * for it): the pace in calls per hour over a recent window, when the quota runs out at that pace, when
 * the week starts again, and the pace that would spend the rest evenly until then.
 *
 * The invariant the forecast keeps: it never claims more than the readings show. The pace counts only
 * the growth between readings (a drop is the week starting again: the new count is the calls since),
 * over the time the readings cover, and never over less than `minSpanMs`, so a burst of calls a minute
 * ago is not taken for an hourly rate 60 times its size. A wall clock stepped back never makes a span
 * negative: "now" is never earlier than the newest reading. The week's reset is the setting when there
 * is one, else learned from the last drop seen (a week after it), else unknown: then nothing is said to
 * run out "before the reset". No `vscode` here.
 */
import type { UsageSample } from './usageHistory';

export const HOUR_MS = 3_600_000;
export const WEEK_MS = 7 * 24 * HOUR_MS;

/** A fixed weekly reset: day of the week (0 = Sunday) and minutes after midnight, in UTC. */
export interface WeeklyResetSetting {
  day: number;
  minutes: number;
}

export interface WeekReset {
  at: number;
  source: 'setting' | 'learned';
}

export interface ForecastOptions {
  now: number;
  /** How far back the pace looks (default one hour). */
  windowMs?: number;
  /** The shortest time a pace is spread over (default ten minutes). */
  minSpanMs?: number;
  resetSetting?: WeeklyResetSetting;
}

export type QuotaForecast =
  | { kind: 'unknown'; reason: 'noReadings' | 'noLimit' }
  | {
      kind: 'forecast';
      used: number;
      limit: number;
      remaining: number;
      /** Undefined until two readings show growth over time. */
      pacePerHour?: number;
      /** When the quota runs out at this pace (undefined at a pace of 0). */
      runsOutAt?: number;
      reset?: WeekReset;
      /** The pace that spends the remaining quota evenly until the reset. */
      evenPacePerHour?: number;
      runsOutBeforeReset: boolean;
    };

const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** "Mon 00:00", "monday 6:30" (UTC); undefined for anything else. */
export function parseWeeklyReset(text: string | undefined): WeeklyResetSetting | undefined {
  const match = /^\s*([a-z]{3})[a-z]*\s+(\d{1,2}):(\d{2})\s*$/i.exec(text ?? '');
  if (!match) return undefined;
  const day = DAYS.indexOf(match[1].toLowerCase());
  const hours = Number(match[2]);
  const minutes = Number(match[3]);
  if (day < 0 || hours > 23 || minutes > 59) return undefined;
  return { day, minutes: hours * 60 + minutes };
}

/** The first moment after `now` at the setting's day and time (UTC). */
export function nextWeeklyReset(setting: WeeklyResetSetting, now: number): number {
  const date = new Date(now);
  const midnight = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  let at = midnight + ((setting.day - date.getUTCDay() + 7) % 7) * 24 * HOUR_MS + setting.minutes * 60_000;
  while (at <= now) at += WEEK_MS;
  return at;
}

/** A week after the last drop in usage seen (the first reading after it), moved past `now`. */
export function learnedReset(samples: readonly UsageSample[], now: number): number | undefined {
  for (let index = samples.length - 1; index > 0; index -= 1) {
    if (samples[index].used < samples[index - 1].used) {
      let at = samples[index].at + WEEK_MS;
      while (at <= now) at += WEEK_MS;
      return at;
    }
  }
  return undefined;
}

/** Calls per hour over the window (see the invariant above), or undefined with fewer than two readings in it. */
export function pacePerHour(samples: readonly UsageSample[], now: number, windowMs = HOUR_MS, minSpanMs = 10 * 60_000): number | undefined {
  if (samples.length < 2) return undefined;
  const end = Math.max(now, samples[samples.length - 1].at);
  let first = 0;
  while (first + 1 < samples.length && samples[first + 1].at <= end - windowMs) first += 1;
  const considered = samples.slice(first);
  if (considered.length < 2) return undefined;
  let calls = 0;
  for (let index = 1; index < considered.length; index += 1) {
    const grown = considered[index].used - considered[index - 1].used;
    calls += grown >= 0 ? grown : considered[index].used;
  }
  const span = Math.max(end - considered[0].at, minSpanMs);
  return (calls / span) * HOUR_MS;
}

export function forecastQuota(samples: readonly UsageSample[], options: ForecastOptions): QuotaForecast {
  const latest = samples[samples.length - 1];
  if (!latest) return { kind: 'unknown', reason: 'noReadings' };
  if (!(latest.limit > 0)) return { kind: 'unknown', reason: 'noLimit' };
  const now = Math.max(options.now, latest.at);
  const remaining = Math.max(0, latest.limit - latest.used);
  const pace = pacePerHour(samples, now, options.windowMs, options.minSpanMs);
  const runsOutAt = remaining === 0 ? now : pace !== undefined && pace > 0 ? now + (remaining / pace) * HOUR_MS : undefined;
  const settingAt = options.resetSetting ? nextWeeklyReset(options.resetSetting, now) : undefined;
  const learnedAt = settingAt === undefined ? learnedReset(samples, now) : undefined;
  const reset: WeekReset | undefined =
    settingAt !== undefined ? { at: settingAt, source: 'setting' } : learnedAt !== undefined ? { at: learnedAt, source: 'learned' } : undefined;
  const evenPacePerHour = reset ? remaining / Math.max((reset.at - now) / HOUR_MS, 1 / 60) : undefined;
  const runsOutBeforeReset = reset !== undefined && runsOutAt !== undefined && runsOutAt < reset.at;
  return { kind: 'forecast', used: latest.used, limit: latest.limit, remaining, pacePerHour: pace, runsOutAt, reset, evenPacePerHour, runsOutBeforeReset };
}
