import * as assert from 'node:assert/strict';
import { forecastQuota, HOUR_MS, WEEK_MS } from '../../../src/api/quotaForecast';
import { hourChart, niceStep, VIEW, weekChart, type WeekChartInput } from '../../../src/views/usage/usageChart';
import { localMidnights, usageView, type UsageRecordView } from '../../../src/views/usage/usageView';

const NOW = Date.UTC(2026, 10, 25, 12, 0); // a Wednesday
const bottom = VIEW.height - VIEW.bottom;
const left = VIEW.left;
const right = VIEW.width - VIEW.right;

function input(samples: WeekChartInput['samples'], extra: Partial<WeekChartInput> = {}, reset = { day: 1, minutes: 0 }): WeekChartInput {
  return {
    samples,
    stops: [],
    pauses: [],
    forecast: forecastQuota(samples, { now: NOW, resetSetting: reset }),
    now: NOW,
    dayLabel: (at) => new Date(at).toISOString().slice(0, 10),
    midnights: localMidnights,
    ...extra,
  };
}

describe('usage charts', () => {
  it('spans the week that ends at the reset, each reading a point, the limit a line at the top', () => {
    const samples = [0, 1, 2].map((hour) => ({ used: 100 + hour * 50, limit: 1000, at: NOW - (2 - hour) * HOUR_MS }));
    const chart = weekChart(input(samples))!;
    assert.equal(chart.end, Date.UTC(2026, 10, 30, 0, 0), 'next Monday 00:00 UTC');
    assert.equal(chart.end - chart.start, WEEK_MS);
    assert.deepEqual(chart.dots.map((dot) => dot.used), [100, 150, 200]);
    for (const dot of chart.dots) {
      assert.ok(dot.x > left && dot.x < right);
      assert.ok(dot.y < bottom && dot.y > chart.limitY, 'under the limit, above the axis');
    }
    assert.ok(chart.dots[2].y < chart.dots[0].y, 'more used is higher');
    assert.equal(chart.nowX, chart.dots[2].x);
    assert.ok(chart.xTicks.length >= 6 && chart.xTicks.length <= 8);
    assert.equal(chart.yTicks[0].value, 0);
    assert.equal(chart.yTicks[0].y, bottom);
  });

  it('draws the forecast to where the pace runs out (at the limit) and the even pace to the reset', () => {
    // 50 calls an hour, 800 left, the reset four and a half days away: runs out in 16 hours.
    const samples = [0, 1, 2].map((hour) => ({ used: 100 + hour * 50, limit: 1000, at: NOW - (2 - hour) * HOUR_MS }));
    const chart = weekChart(input(samples))!;
    const [from, to] = chart.forecast!;
    assert.equal(to.y, chart.limitY);
    assert.ok(Math.abs(to.x - (left + ((NOW + 16 * HOUR_MS - chart.start) / WEEK_MS) * (right - left))) < 0.2, `${to.x}`);
    assert.equal(from.x, chart.nowX);
    assert.deepEqual(chart.even?.[1], { x: right, y: chart.limitY });
  });

  it('says nothing ahead without a pace, and marks stops and pauses in the week only', () => {
    const samples = [{ used: 100, limit: 1000, at: NOW }];
    const chart = weekChart(input(samples, { stops: [NOW - 1000, NOW - 30 * 24 * HOUR_MS], pauses: [{ at: NOW - 5000, ms: 1200 }] }))!;
    assert.equal(chart.forecast, undefined);
    assert.deepEqual(chart.marks.map((mark) => [mark.kind, mark.at, mark.ms]), [['stop', NOW - 1000, undefined], ['pause', NOW - 5000, 1200]]);
    assert.equal(weekChart(input([])), undefined, 'no readings, no chart');
  });

  it('without a known reset, shows the seven days up to a day from now', () => {
    const samples = [{ used: 1, limit: 10, at: NOW - HOUR_MS }, { used: 2, limit: 10, at: NOW }];
    const chart = weekChart({ ...input(samples), forecast: forecastQuota(samples, { now: NOW }) })!;
    assert.equal(chart.end, NOW + 24 * HOUR_MS);
    assert.equal(chart.even, undefined);
  });

  it('draws the last hour as a bar per minute against the limit, and the time waited', () => {
    const minute = (offset: number) => Math.floor(NOW / 60_000) * 60_000 - offset * 60_000;
    const chart = hourChart({
      minutes: [
        { at: minute(90), calls: 9, waitedMs: 0, longestWaitMs: 0 },
        { at: minute(5), calls: 150, waitedMs: 2000, longestWaitMs: 900 },
        { at: minute(0), calls: 300, waitedMs: 500, longestWaitMs: 500 },
      ],
      pauses: [{ at: minute(5) + 10, ms: 1000 }],
      limit: 300,
      now: NOW,
      timeLabel: (at) => new Date(at).toISOString().slice(11, 16),
    });
    assert.deepEqual(chart.bars.map((bar) => bar.calls), [150, 300], 'the minute of an hour and a half ago is not in it');
    assert.equal(chart.bars[1].callsY, chart.limitY, '300 of 300 reaches the limit line');
    assert.ok(Math.abs(bottom - chart.bars[0].callsY - (bottom - chart.limitY) / 2) < 0.2, 'half the limit, half the height');
    assert.equal(chart.waitScaleMs, 2000);
    assert.equal(chart.bars[0].waitY, VIEW.top);
    assert.equal(chart.marks.length, 1);
    assert.deepEqual(chart.xTicks.map((tick) => tick.label), ['11:01', '11:16', '11:31', '11:46', '12:01']);
  });

  it('picks round steps for the value axis', () => {
    assert.deepEqual([1, 4, 10, 300, 315, 1050, 10_000].map(niceStep), [1, 1, 5, 100, 100, 500, 5000]);
  });
});

describe('usage view', () => {
  const record = (samples: Record<string, Array<{ used: number; limit: number; at: number }>>): UsageRecordView => ({
    organizations: () => Object.keys(samples),
    samples: (organization) => samples[organization] ?? [],
    stopsOf: () => [],
    pauseMarks: () => [],
    minutesSince: () => [{ at: Math.floor(NOW / 60_000) * 60_000, calls: 4, waitedMs: 1500, longestWaitMs: 1000 }],
  });

  it('charts each organization with readings, says so of one with none, and sums up the last hour', () => {
    const view = usageView({
      record: record({ Rossi: [{ used: 5, limit: 100, at: NOW - 60_000 }, { used: 7, limit: 100, at: NOW }] }),
      quota: { readings: () => [], isBlocked: (organization) => organization === 'Rossi' },
      keyOrganizations: ['Bianchi', 'Rossi'],
      now: NOW,
      locale: 'en',
      perMinute: 300,
    });
    assert.deepEqual(view.organizations.map((organization) => organization.name), ['Rossi', 'Bianchi']);
    const [rossi, bianchi] = view.organizations;
    assert.equal(rossi.chart?.dots.length, 2);
    assert.equal(rossi.stopped, true);
    assert.equal(rossi.severity, 'error');
    assert.match(rossi.lines.join('\n'), /\*\*Used this week:\*\* 7 of 100 \(7\.0 %\)/);
    assert.equal(rossi.readings[0].used, '7 / 100', 'newest first');
    assert.equal(bianchi.chart, undefined);
    assert.deepEqual(bianchi.lines, ['No readings for Bianchi yet: every answer to a call with its licence key reports its weekly usage.']);
    assert.match(view.rate.lines[0], /\*\*Last hour:\*\* 4 calls from this window; the busiest minute had 4 of 300/);
    assert.match(view.rate.lines[1], /1\.5 s in all, 1 s at most/);
    assert.match(view.rate.lines[2], /not in the last hour/);
  });
});
