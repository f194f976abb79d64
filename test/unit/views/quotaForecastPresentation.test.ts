// The forecast's words in the quota tooltip and the usage list, and the warning it turns the item to.
import * as assert from 'node:assert/strict';
import { forecastQuota, HOUR_MS, type QuotaForecast } from '../../../src/api/quotaForecast';
import type { QuotaReading } from '../../../src/api/types';
import type { UsageSample } from '../../../src/api/usageHistory';
import { forecastLines, forecastSummary, formatDuration } from '../../../src/views/quotaForecastPresentation';
import { presentQuota, usageRows } from '../../../src/views/quotaPresentation';

const NOW = Date.UTC(2026, 10, 25, 12, 0); // Wednesday
const MONDAY = { day: 1, minutes: 0 };

function samples(perMinute: number, used = 5_000, limit = 10_000): UsageSample[] {
  return Array.from({ length: 61 }, (_, i) => ({ used: used + Math.round(i * perMinute), limit, at: NOW - (60 - i) * 60_000 }));
}

function reading(sample: UsageSample): QuotaReading {
  return { organization: 'org-rossi', used: sample.used, limit: sample.limit, seenAt: sample.at };
}

describe('quota forecast presentation', () => {
  const fast = samples(30);
  const fastForecast = forecastQuota(fast, { now: NOW, resetSetting: MONDAY });
  const slowForecast = forecastQuota(samples(0.1), { now: NOW, resetSetting: MONDAY });

  it('names the pace, the run-out time, the reset and where it comes from, and the even pace', () => {
    const lines = forecastLines(fastForecast, { now: NOW }).join('\n');
    assert.match(lines, /\*\*Pace:\*\* 1,800 calls an hour \(last hour\)/);
    assert.match(lines, /\*\*At this pace:\*\* runs out in 1 h 47 min \(/);
    assert.match(lines, /\*\*Week resets:\*\* .* \(from the setting tenantApi\.quota\.weekReset\)/);
    assert.match(lines, /\*\*Even spending until the reset:\*\* 30 calls an hour/);
    assert.match(forecastLines(slowForecast, { now: NOW }).join('\n'), /it lasts until the reset/);
  });

  it('says how the reset is known: learned, unknown, or a setting it cannot read', () => {
    const learned = forecastQuota([...samples(1).slice(0, 30), { used: 4, limit: 10_000, at: NOW }], { now: NOW });
    assert.match(forecastLines(learned, { now: NOW }).join('\n'), /about .* \(learned: usage dropped a week before\)/);
    const unknown = forecastQuota(samples(1), { now: NOW });
    assert.match(forecastLines(unknown, { now: NOW }).join('\n'), /not known until usage drops \(or set tenantApi\.quota\.weekReset\)/);
    assert.match(forecastLines(unknown, { now: NOW, invalidResetSetting: 'Mon 25:00' }).join('\n'), /"Mon 25:00" is not a day and time/);
    const single = forecastQuota([{ used: 1, limit: 10, at: NOW }], { now: NOW });
    assert.match(forecastLines(single, { now: NOW }).join('\n'), /not known yet \(it needs two readings\)/);
    assert.deepEqual(forecastLines({ kind: 'unknown', reason: 'noLimit' }, { now: NOW }), []);
  });

  it('turns the item to a warning when the quota would run out before the reset, and only then', () => {
    const last = reading(fast[fast.length - 1]);
    assert.equal(presentQuota(last, { now: NOW }).severity, 'normal');
    assert.equal(presentQuota(last, { now: NOW, forecast: fastForecast }).severity, 'warning');
    assert.equal(presentQuota(last, { now: NOW, forecast: slowForecast }).severity, 'normal');
    const noReset: QuotaForecast = forecastQuota(fast, { now: NOW });
    assert.equal(presentQuota(last, { now: NOW, forecast: noReset }).severity, 'normal', 'no reset known: no "before the reset"');
    const full = reading({ used: 9_990, limit: 10_000, at: NOW });
    assert.equal(presentQuota(full, { now: NOW, forecast: fastForecast }).severity, 'error', 'a forecast never lowers the threshold colour');
  });

  it('adds pace and run-out time to the usage list', () => {
    const [row] = usageRows([reading(fast[fast.length - 1])], { now: NOW, forecastOf: () => fastForecast });
    assert.match(row.detail, /1800\/h, runs out in 1 h 47 min/);
    assert.equal(row.severity, 'warning');
    assert.equal(forecastSummary(slowForecast, NOW), '6/h');
  });

  it('writes durations to the minute', () => {
    assert.equal(formatDuration(30_000), '1 min');
    assert.equal(formatDuration(45 * 60_000), '45 min');
    assert.equal(formatDuration(3 * HOUR_MS + 20 * 60_000), '3 h 20 min');
    assert.equal(formatDuration(52 * HOUR_MS), '2 d 4 h');
  });
});
