/**
 * The usage panel's charts as coordinates in a fixed viewBox, so that the webview only draws them (plain
 * SVG, no chart library): the week of one organization (its readings, the limit, the forecast at the
 * current pace and the even pace to the reset, now, and when 429s stopped or paused calls), and the last
 * hour of the rate limit (calls per minute against the limit, and the time calls waited). No `vscode`.
 */
import { HOUR_MS, WEEK_MS, type QuotaForecast } from '../../api/quotaForecast';
import type { UsageSample } from '../../api/usageHistory';
import type { MinuteCalls, PauseMark } from './usageRecord';

export const VIEW = { width: 640, height: 220, left: 56, right: 14, top: 12, bottom: 30 } as const;
const PLOT_WIDTH = VIEW.width - VIEW.left - VIEW.right;
const PLOT_HEIGHT = VIEW.height - VIEW.top - VIEW.bottom;
const DAY_MS = 24 * HOUR_MS;
const MINUTE_MS = 60_000;
/** Readings drawn as dots at most (the line goes through all of them). */
const MAX_DOTS = 400;

export interface Point {
  x: number;
  y: number;
}

export interface ReadingPoint extends Point {
  at: number;
  used: number;
}

export interface Tick {
  at: number;
  label: string;
}

export interface Mark extends Point {
  kind: 'stop' | 'pause';
  at: number;
  ms?: number;
}

export interface WeekChart {
  start: number;
  end: number;
  line: Point[];
  dots: ReadingPoint[];
  limitY: number;
  limit: number;
  forecast?: Point[];
  even?: Point[];
  nowX: number;
  marks: Mark[];
  xTicks: Array<Tick & { x: number }>;
  yTicks: Array<{ value: number; y: number }>;
}

export interface MinuteBar {
  at: number;
  x: number;
  width: number;
  calls: number;
  callsY: number;
  waitedMs: number;
  longestWaitMs: number;
  waitY: number;
}

export interface HourChart {
  start: number;
  end: number;
  limit: number;
  limitY: number;
  bars: MinuteBar[];
  /** The waits' scale: the top of the plot is this many ms. */
  waitScaleMs: number;
  marks: Mark[];
  xTicks: Array<Tick & { x: number }>;
  yTicks: Array<{ value: number; y: number }>;
}

/** 1, 2 or 5 times a power of ten, and at least 1 (calls are whole): steps of about a quarter of `max`. */
export function niceStep(max: number): number {
  const rough = Math.max(max, 1) / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  return Math.max(1, [1, 2, 5, 10].map((factor) => factor * power).find((step) => step >= rough) ?? 10 * power);
}

function valueTicks(top: number, toY: (value: number) => number): Array<{ value: number; y: number }> {
  const step = niceStep(top);
  const ticks: Array<{ value: number; y: number }> = [];
  for (let value = 0; value <= top + 1e-9; value += step) ticks.push({ value, y: toY(value) });
  return ticks;
}

const round = (value: number) => Math.round(value * 10) / 10;

/** The week shown: the one ending at the reset when it is known, else the seven days to a day from now. */
export function weekSpan(forecast: QuotaForecast, now: number): { start: number; end: number } {
  const end = forecast.kind === 'forecast' && forecast.reset ? forecast.reset.at : now + DAY_MS;
  return { start: end - WEEK_MS, end };
}

function everyNth<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  const step = items.length / max;
  const picked = Array.from({ length: max - 1 }, (_, index) => items[Math.floor(index * step)]);
  return [...picked, items[items.length - 1]];
}

export interface WeekChartInput {
  samples: readonly UsageSample[];
  stops: readonly number[];
  pauses: readonly PauseMark[];
  forecast: QuotaForecast;
  now: number;
  /** A day's tick label, in the display language. */
  dayLabel: (at: number) => string;
  /** The local midnights in the span (the tick positions). */
  midnights: (start: number, end: number) => number[];
}

export function weekChart(input: WeekChartInput): WeekChart | undefined {
  const { forecast, now } = input;
  if (forecast.kind !== 'forecast') return undefined;
  const { start, end } = weekSpan(forecast, now);
  const samples = input.samples.filter((sample) => sample.at >= start && sample.at <= end);
  const forecastEnd = projected(forecast, samples, now, end);
  const top = Math.max(forecast.limit, ...samples.map((sample) => sample.used), 1) * 1.05;
  const x = (at: number) => round(VIEW.left + ((Math.min(Math.max(at, start), end) - start) / (end - start)) * PLOT_WIDTH);
  const y = (value: number) => round(VIEW.top + PLOT_HEIGHT - (Math.min(value, top) / top) * PLOT_HEIGHT);
  const dots = samples.map((sample) => ({ x: x(sample.at), y: y(sample.used), at: sample.at, used: sample.used }));
  const latest = samples[samples.length - 1];
  const from = latest ? { x: x(Math.max(now, latest.at)), y: y(latest.used) } : undefined;
  return {
    start,
    end,
    line: dots.map(({ x: px, y: py }) => ({ x: px, y: py })),
    dots: everyNth(dots, MAX_DOTS),
    limit: forecast.limit,
    limitY: y(forecast.limit),
    forecast: from && forecastEnd ? [from, { x: x(forecastEnd.at), y: y(forecastEnd.used) }] : undefined,
    even: from && forecast.reset && forecast.remaining > 0 ? [from, { x: x(forecast.reset.at), y: y(forecast.limit) }] : undefined,
    nowX: x(now),
    marks: marksIn(input.stops, input.pauses, start, end, x),
    xTicks: input.midnights(start, end).map((at) => ({ at, x: x(at), label: input.dayLabel(at) })),
    yTicks: valueTicks(top, y),
  };
}

/** Where the current pace leads: the limit when it runs out before the end of the span, else the end. */
function projected(forecast: Extract<QuotaForecast, { kind: 'forecast' }>, samples: readonly UsageSample[], now: number, end: number): { at: number; used: number } | undefined {
  const latest = samples[samples.length - 1];
  if (!latest || forecast.pacePerHour === undefined) return undefined;
  const from = Math.max(now, latest.at);
  if (forecast.runsOutAt !== undefined && forecast.runsOutAt <= end) return { at: forecast.runsOutAt, used: forecast.limit };
  return { at: end, used: Math.min(forecast.limit, latest.used + (forecast.pacePerHour * (end - from)) / HOUR_MS) };
}

function marksIn(stops: readonly number[], pauses: readonly PauseMark[], start: number, end: number, x: (at: number) => number): Mark[] {
  const inSpan = (at: number) => at >= start && at <= end;
  const bottom = VIEW.top + PLOT_HEIGHT;
  return [
    ...stops.filter(inSpan).map((at) => ({ kind: 'stop' as const, at, x: x(at), y: bottom })),
    ...pauses.filter((pause) => inSpan(pause.at)).map((pause) => ({ kind: 'pause' as const, at: pause.at, ms: pause.ms, x: x(pause.at), y: bottom })),
  ];
}

export interface HourChartInput {
  minutes: readonly MinuteCalls[];
  pauses: readonly PauseMark[];
  /** The limit per minute (the platform's 300). */
  limit: number;
  now: number;
  timeLabel: (at: number) => string;
}

/** The sixty minutes up to now: one bar per minute for calls (against the limit) and one for their waits. */
export function hourChart(input: HourChartInput): HourChart {
  const end = Math.floor(input.now / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
  const start = end - 60 * MINUTE_MS;
  const minutes = input.minutes.filter((minute) => minute.at >= start && minute.at < end);
  const top = Math.max(input.limit, ...minutes.map((minute) => minute.calls)) * 1.05;
  const waitScaleMs = Math.max(1000, ...minutes.map((minute) => minute.waitedMs));
  const slot = PLOT_WIDTH / 60;
  const x = (at: number) => round(VIEW.left + ((Math.min(Math.max(at, start), end) - start) / (end - start)) * PLOT_WIDTH);
  const y = (value: number) => round(VIEW.top + PLOT_HEIGHT - (Math.min(value, top) / top) * PLOT_HEIGHT);
  const waitY = (ms: number) => round(VIEW.top + PLOT_HEIGHT - (ms / waitScaleMs) * PLOT_HEIGHT);
  const bars = minutes.map((minute) => ({
    at: minute.at,
    x: round(x(minute.at) + 1),
    width: round(Math.max(1, slot - 2)),
    calls: minute.calls,
    callsY: y(minute.calls),
    waitedMs: minute.waitedMs,
    longestWaitMs: minute.longestWaitMs,
    waitY: waitY(minute.waitedMs),
  }));
  const ticks = [0, 15, 30, 45, 60].map((offset) => start + offset * MINUTE_MS);
  return {
    start,
    end,
    limit: input.limit,
    limitY: y(input.limit),
    bars,
    waitScaleMs,
    marks: marksIn([], input.pauses, start, end, x),
    xTicks: ticks.map((at) => ({ at, x: x(at), label: input.timeLabel(at) })),
    yTicks: valueTicks(top, y),
  };
}
