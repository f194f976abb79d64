// The watch rule: a resource is polled at most once a minute, whatever the setting says.
import * as assert from 'node:assert/strict';
import {
  MAX_WATCH_INTERVAL_SECONDS,
  MIN_WATCH_INTERVAL_SECONDS,
  WATCH_STOP_REASONS,
  nextDueAt,
  watchCallsPerHour,
  watchIntervalSeconds,
} from '../../../src/engine/watchSchedule';

describe('watch schedule', () => {
  it('never polls more often than once a minute: a bad setting or value is clamped or replaced by the default', () => {
    const cases: Array<[unknown, number, string]> = [
      [60, 60, 'the minimum'],
      [90, 90, 'longer is allowed'],
      [3600, 3600, 'an hour'],
      [59, 60, 'just under a minute'],
      [1, 60, 'a second'],
      [0, 60, 'zero'],
      [-5, 60, 'negative'],
      [59.5, 60, 'a fraction under a minute'],
      [60.2, 61, 'a fraction is rounded up, never down'],
      [Number.NaN, 60, 'NaN'],
      [Number.NEGATIVE_INFINITY, 60, '-Infinity'],
      [Number.POSITIVE_INFINITY, 60, 'Infinity is not a number of seconds'],
      ['30', 60, 'a string'],
      [null, 60, 'null'],
      [undefined, 60, 'unset'],
      [{}, 60, 'an object'],
      [10 ** 9, MAX_WATCH_INTERVAL_SECONDS, 'longer than a day'],
    ];
    for (const [value, seconds, what] of cases) {
      const got = watchIntervalSeconds(value);
      assert.equal(got, seconds, what);
      assert.ok(got >= MIN_WATCH_INTERVAL_SECONDS, `${what}: never under 60 s`);
    }
  });

  it('is next due an interval after the previous call; a test time scale shrinks the minute, never the rule', () => {
    assert.equal(nextDueAt(undefined, 60, 1, 5000), 5000, 'the first look is at once');
    assert.equal(nextDueAt(undefined, 60, 0.01, 5000), 5000);
    assert.equal(nextDueAt(1000, 60), 61_000);
    assert.equal(nextDueAt(1000, 120), 121_000);
    assert.equal(nextDueAt(1000, 5), 61_000, 'a 5 s interval is still a minute');
    assert.equal(nextDueAt(0, 60, 0.01), 600, 'a scaled minute');
    assert.equal(nextDueAt(0, 1, 0.01), 600, 'a short interval under a time scale is still a scaled minute');
    assert.equal(nextDueAt(0, 60, 0), 60_000, 'no scale of zero');
    assert.equal(nextDueAt(0, 60, -1), 60_000, 'no negative scale');
    assert.equal(nextDueAt(0, 60, 5), 60_000, 'a scale never stretches past real time... nor shortens under its minimum');
  });

  it('costs the calls per hour of every active watch together', () => {
    assert.equal(watchCallsPerHour([]), 0);
    assert.equal(watchCallsPerHour([60]), 60);
    assert.equal(watchCallsPerHour([60, 60]), 120);
    assert.equal(watchCallsPerHour([60, 120]), 90);
    assert.equal(watchCallsPerHour([1]), 60, 'a bad interval costs what the clamped one does');
  });

  it('stops for one of five reasons only', () => {
    assert.deepEqual([...WATCH_STOP_REASONS], ['errorAnswer', 'signedOut', 'environmentSwitched', 'environmentRemoved', 'stoppedByUser']);
  });
});
