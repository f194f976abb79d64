// The quota forecast as a table: steady pace, burst, reset seen, no readings, limit 0 or unknown, clock going backwards.
import * as assert from 'node:assert/strict';
import {
  forecastQuota, HOUR_MS, learnedReset, nextWeeklyReset, pacePerHour, parseWeeklyReset, WEEK_MS,
} from '../../../src/api/quotaForecast';
import { UsageHistory, type UsageSample } from '../../../src/api/usageHistory';

const MINUTE = 60_000;
const NOW = Date.UTC(2026, 10, 25, 12, 0); // a Wednesday, 12:00 UTC

/** One reading per minute, `perMinute` calls apart, ending at `end`. */
function steady(minutes: number, perMinute: number, end = NOW, startUsed = 1000, limit = 10_000): UsageSample[] {
  return Array.from({ length: minutes + 1 }, (_, i) => ({ used: startUsed + i * perMinute, limit, at: end - (minutes - i) * MINUTE }));
}

describe('quota forecast', () => {
  it('a steady pace: 2 calls a minute is 120 an hour, and the rest runs out when it should', () => {
    const samples = steady(120, 2);
    const forecast = forecastQuota(samples, { now: NOW });
    assert.equal(forecast.kind, 'forecast');
    if (forecast.kind !== 'forecast') return;
    assert.equal(Math.round(forecast.pacePerHour ?? 0), 120);
    assert.equal(forecast.remaining, 10_000 - 1240);
    assert.equal(forecast.runsOutAt, NOW + ((10_000 - 1240) / 120) * HOUR_MS);
    assert.equal(forecast.reset, undefined);
    assert.equal(forecast.runsOutBeforeReset, false, 'no reset known: nothing runs out "before" it');
  });

  it('a burst a minute ago is spread over ten minutes, not taken for an hourly rate 60 times its size', () => {
    const burst: UsageSample[] = [{ used: 0, limit: 10_000, at: NOW - MINUTE }, { used: 100, limit: 10_000, at: NOW }];
    assert.equal(pacePerHour(burst, NOW), 600);
    const afterQuietHour: UsageSample[] = [{ used: 0, limit: 10_000, at: NOW - 2 * HOUR_MS }, ...burst];
    assert.equal(Math.round(pacePerHour(afterQuietHour, NOW) ?? 0), 50, 'the baseline two hours back spreads it over the whole gap');
  });

  it('looks back one hour by default: older growth does not count', () => {
    const samples = [...steady(60, 10, NOW - 2 * HOUR_MS, 0), ...steady(60, 1, NOW, 600)];
    assert.equal(Math.round(pacePerHour(samples, NOW) ?? 0), 60);
  });

  it('a reset seen (usage dropped): the calls after the drop count, and the week resets a week after it', () => {
    const before = steady(30, 5, NOW - 30 * MINUTE, 9_000);
    const after: UsageSample[] = [{ used: 20, limit: 10_000, at: NOW - 20 * MINUTE }, { used: 60, limit: 10_000, at: NOW }];
    const samples = [...before, ...after];
    assert.equal(learnedReset(samples, NOW), NOW - 20 * MINUTE + WEEK_MS);
    const forecast = forecastQuota(samples, { now: NOW });
    assert.ok(forecast.kind === 'forecast');
    assert.deepEqual(forecast.reset, { at: NOW - 20 * MINUTE + WEEK_MS, source: 'learned' });
    // the window holds the last 30 minutes before the drop (150 calls) + 20 after the drop + 40 after
    assert.equal(Math.round(forecast.pacePerHour ?? 0), Math.round(((150 + 20 + 40) / 60) * 60));
    assert.ok(forecast.evenPacePerHour !== undefined && forecast.evenPacePerHour > 0);
  });

  it('the setting wins over what was learned, and says so', () => {
    const samples = [...steady(10, 1, NOW - HOUR_MS, 500), { used: 3, limit: 10_000, at: NOW }];
    const forecast = forecastQuota(samples, { now: NOW, resetSetting: { day: 1, minutes: 0 } });
    assert.ok(forecast.kind === 'forecast');
    assert.deepEqual(forecast.reset, { at: Date.UTC(2026, 10, 30, 0, 0), source: 'setting' });
  });

  it('runs out before the reset at a fast pace, not at an even one', () => {
    const fast = forecastQuota(steady(60, 30, NOW, 5_000), { now: NOW, resetSetting: { day: 1, minutes: 0 } });
    assert.ok(fast.kind === 'forecast' && fast.runsOutBeforeReset, 'a pace of 1,800/h empties 3,200 calls in under 2 hours');
    const slow = forecastQuota(steady(60, 0.1, NOW, 5_000), { now: NOW, resetSetting: { day: 1, minutes: 0 } });
    assert.ok(slow.kind === 'forecast' && !slow.runsOutBeforeReset, 'a pace of 6/h lasts past Monday');
    const hoursToReset = (Date.UTC(2026, 10, 30) - NOW) / HOUR_MS;
    assert.equal(slow.kind === 'forecast' && slow.evenPacePerHour, (10_000 - 5_006) / hoursToReset);
  });

  it('no readings yet, or a limit of 0 or unknown: no forecast', () => {
    assert.deepEqual(forecastQuota([], { now: NOW }), { kind: 'unknown', reason: 'noReadings' });
    assert.deepEqual(forecastQuota(steady(5, 1, NOW, 0, 0), { now: NOW }), { kind: 'unknown', reason: 'noLimit' });
    assert.deepEqual(forecastQuota(steady(5, 1, NOW, 0, Number.NaN), { now: NOW }), { kind: 'unknown', reason: 'noLimit' });
  });

  it('one reading: usage known, pace not yet', () => {
    const forecast = forecastQuota([{ used: 10, limit: 100, at: NOW }], { now: NOW });
    assert.ok(forecast.kind === 'forecast');
    assert.equal(forecast.pacePerHour, undefined);
    assert.equal(forecast.runsOutAt, undefined);
  });

  it('at the limit: runs out now', () => {
    const forecast = forecastQuota([{ used: 100, limit: 100, at: NOW - MINUTE }], { now: NOW });
    assert.ok(forecast.kind === 'forecast' && forecast.runsOutAt === NOW);
  });

  it('a clock going backwards never gives a negative or endless pace', () => {
    const samples = steady(30, 2);
    const stepped = forecastQuota(samples, { now: NOW - 10 * MINUTE });
    assert.ok(stepped.kind === 'forecast');
    assert.equal(Math.round(stepped.pacePerHour ?? 0), 120, 'now is taken as the newest reading');
    assert.ok((stepped.runsOutAt ?? 0) > NOW);
  });

  it('keeps readings relayed out of order in time order, drops repeats, and stays bounded', () => {
    const history = new UsageHistory(3);
    const reading = (used: number, at: number) => ({ organization: 'org-rossi', used, limit: 100, seenAt: at });
    history.record(reading(5, 300));
    history.record(reading(3, 100));
    history.record(reading(4, 200));
    history.record(reading(4, 200));
    assert.deepEqual(history.samples('org-rossi').map((s) => s.at), [100, 200, 300]);
    history.record(reading(6, 400));
    assert.deepEqual(history.samples('org-rossi').map((s) => s.used), [4, 5, 6]);
    assert.deepEqual(history.samples('org-bianchi'), []);
  });

  it('reads the weekly reset setting in UTC, and refuses anything else', () => {
    assert.deepEqual(parseWeeklyReset('Mon 00:00'), { day: 1, minutes: 0 });
    assert.deepEqual(parseWeeklyReset(' sunday 23:30 '), { day: 0, minutes: 23 * 60 + 30 });
    for (const bad of ['', 'Mon', 'xyz 10:00', 'Mon 24:00', 'Mon 10:60', undefined]) assert.equal(parseWeeklyReset(bad), undefined, String(bad));
    assert.equal(nextWeeklyReset({ day: 3, minutes: 12 * 60 }, NOW), NOW + WEEK_MS, 'exactly now is the next week');
    assert.equal(nextWeeklyReset({ day: 3, minutes: 13 * 60 }, NOW), NOW + HOUR_MS);
  });
});
