import * as assert from 'node:assert/strict';
import type { Memento } from '../../../src/common/memento';
import { KEEP_MS, readStored, thinSamples, UsageRecord, usageStateKey } from '../../../src/views/usage/usageRecord';
import { FakeClock } from '../api/fakeClock';

class MemoryState implements Memento {
  readonly values = new Map<string, unknown>();
  writes = 0;
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  update(key: string, value: unknown): Promise<void> {
    this.writes += 1;
    this.values.set(key, JSON.parse(JSON.stringify(value)));
    return Promise.resolve();
  }
}

const KEY = usageStateKey('https://auth.example\ntenant-api-workbench');
const HOUR = 3_600_000;

describe('usage record', () => {
  it('keeps readings, stops, pauses and calls per minute across a reload (a new record on the same state)', async () => {
    const clock = new FakeClock();
    const state = new MemoryState();
    const record = new UsageRecord(state, KEY, clock);
    const now = clock.now();
    record.addReadings('Rossi', [{ used: 10, limit: 1000, at: now - 60_000 }, { used: 12, limit: 1000, at: now }]);
    record.addStop('Rossi', now);
    record.addPause(now, 1200);
    record.addCall(now, 0);
    record.addCall(now + 1, 350);
    await clock.advance(2000);
    assert.equal(state.writes, 1, 'one write for a burst of changes');
    const reloaded = new UsageRecord(state, KEY, clock);
    assert.deepEqual(reloaded.organizations(), ['Rossi']);
    assert.deepEqual(reloaded.samples('Rossi').map((sample) => sample.used), [10, 12]);
    assert.deepEqual(reloaded.stopsOf('Rossi'), [now]);
    assert.deepEqual(reloaded.pauseMarks(), [{ at: now, ms: 1200 }]);
    const [minute] = reloaded.minutesSince(now - HOUR);
    assert.deepEqual({ calls: minute.calls, waitedMs: minute.waitedMs, longestWaitMs: minute.longestWaitMs }, { calls: 2, waitedMs: 350, longestWaitMs: 350 });
    assert.equal(minute.at % 60_000, 0);
  });

  it('merges what another window wrote meanwhile instead of overwriting it', async () => {
    const clock = new FakeClock();
    const state = new MemoryState();
    const mine = new UsageRecord(state, KEY, clock);
    const theirs = new UsageRecord(state, KEY, clock);
    const now = clock.now();
    theirs.addReadings('Rossi', [{ used: 5, limit: 100, at: now - 1000 }]);
    theirs.addPause(now - 500, 1000);
    await theirs.flush();
    mine.addReadings('Rossi', [{ used: 6, limit: 100, at: now }]);
    mine.addReadings('Bianchi', [{ used: 1, limit: 50, at: now }]);
    await mine.flush();
    const stored = readStored(state.get(KEY));
    assert.deepEqual(stored.organizations.Rossi.samples.map((sample) => sample.used), [5, 6]);
    assert.deepEqual(Object.keys(stored.organizations).sort(), ['Bianchi', 'Rossi']);
    assert.equal(stored.pauses.length, 1);
  });

  it('thins old readings to one per ten minutes, keeps the last two hours whole and every drop, drops what is older than eight days', () => {
    const now = 1_700_000_000_000;
    const start = now - 3 * HOUR;
    const samples = Array.from({ length: 180 }, (_, minute) => ({ used: minute, limit: 1000, at: start + minute * 60_000 }));
    samples.splice(30, 0, { used: 0, limit: 1000, at: start + 29.5 * 60_000 }); // the week started again
    const old = { used: 1, limit: 1000, at: now - KEEP_MS - 1 };
    const thinned = thinSamples([old, ...samples], now);
    assert.ok(!thinned.includes(old));
    const recent = thinned.filter((sample) => sample.at >= now - 2 * HOUR);
    assert.equal(recent.length, samples.filter((sample) => sample.at >= now - 2 * HOUR).length);
    const earlier = thinned.filter((sample) => sample.at < now - 2 * HOUR);
    assert.ok(earlier.length <= 10, `${earlier.length} readings in the first hour`);
    assert.ok(thinned.some((sample) => sample.used === 0 && sample.at === start + 29.5 * 60_000), 'the drop is kept');
    assert.ok(thinned.some((sample) => sample.used === 29), 'and the reading before it');
  });

  it('reads a damaged state as far as it is well formed', () => {
    assert.deepEqual(readStored(undefined), { version: 1, organizations: {}, pauses: [], minutes: [] });
    assert.deepEqual(readStored({ version: 2 }), { version: 1, organizations: {}, pauses: [], minutes: [] });
    const stored = readStored({
      version: 1,
      organizations: { Rossi: { samples: [{ used: 1, limit: 2, at: 3 }, { used: 'x', limit: 2, at: 3 }, null], stops: [4, -1, 'y'] }, Bad: 5 },
      pauses: [{ at: 1, ms: 2 }, { at: 'no' }],
      minutes: 'many',
    });
    assert.deepEqual(stored, { version: 1, organizations: { Rossi: { samples: [{ used: 1, limit: 2, at: 3 }], stops: [4] } }, pauses: [{ at: 1, ms: 2 }], minutes: [] });
  });
});
