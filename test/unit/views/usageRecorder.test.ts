import * as assert from 'node:assert/strict';
import { APPLICATION_LIMITS } from '../../../src/api/limits';
import { QuotaTracker } from '../../../src/api/quotaTracker';
import { localScheduler } from '../../../src/api/requestScheduler';
import type { Memento } from '../../../src/common/memento';
import { UsageRecord } from '../../../src/views/usage/usageRecord';
import { recordUsage } from '../../../src/views/usage/usageRecorder';
import { FakeClock } from '../api/fakeClock';

const memory = (): Memento => {
  const values = new Map<string, unknown>();
  return { get: <T>(key: string) => values.get(key) as T | undefined, update: async (key, value) => void values.set(key, value) };
};

function setUp() {
  const clock = new FakeClock();
  const quota = new QuotaTracker();
  const scheduler = localScheduler({ clock, limits: APPLICATION_LIMITS, safetyMarginMs: () => 0, maxQueueLength: () => 1000 });
  const record = new UsageRecord(memory(), 'k', clock);
  const recording = recordUsage(record, { quota, calls: scheduler.onDidCall, queue: scheduler, clock });
  return { clock, quota, scheduler, record, recording };
}

describe('usage recorder', () => {
  it('records the quota tracker\'s readings (adopted ones too) and each weekly stop once', () => {
    const { clock, quota, record } = setUp();
    quota.record({ organization: 'Rossi', used: 3, limit: 10, seenAt: clock.now() });
    quota.adopt({ organization: 'Rossi', reading: { organization: 'Rossi', used: 2, limit: 10, seenAt: clock.now() - 5000 }, stopped: false, resumed: false });
    assert.deepEqual(record.samples('Rossi').map((sample) => sample.used), [2, 3], 'an older reading of another window finds its place');
    quota.stop('Rossi');
    quota.stop('Rossi');
    quota.record({ organization: 'Rossi', used: 10, limit: 10, seenAt: clock.now() + 1 });
    assert.equal(record.stopsOf('Rossi').length, 1);
    quota.resume('Rossi');
    quota.stop('Rossi');
    assert.equal(record.stopsOf('Rossi').length, 2, 'stopped again after a resume');
  });

  it('records each call of the scheduler with the time it waited for its slot', async () => {
    const { clock, scheduler, record } = setUp();
    const slots = await Promise.all(Array.from({ length: 5 }, () => scheduler.acquire()));
    for (const slot of slots) {
      slot.markSent('https://api.example');
      slot.markAnswered();
    }
    const waiting = scheduler.acquire(); // the sixth in a second waits for the first to leave the window
    await clock.advance(1000);
    const late = await waiting;
    late.markSent('https://api.example');
    late.markAnswered();
    const unsent = scheduler.acquire();
    await clock.advance(1000);
    (await unsent).release(); // given back before it was sent: not a call
    const minutes = record.minutesSince(0);
    assert.equal(minutes.reduce((sum, minute) => sum + minute.calls, 0), 6);
    assert.ok(minutes.some((minute) => minute.longestWaitMs >= 1000), JSON.stringify(minutes));
  });

  it('marks each pause after a 429 once, with its length', async () => {
    const { clock, scheduler, record } = setUp();
    scheduler.pause(2000);
    scheduler.pause(500); // shorter than the running one: no new pause
    assert.deepEqual(record.pauseMarks(), [{ at: clock.now(), ms: 2000 }]);
    await clock.advance(3000);
    scheduler.pause(1000);
    assert.equal(record.pauseMarks().length, 2);
    assert.equal(record.pauseMarks()[1].ms, 1000);
  });

  it('stops listening when disposed', () => {
    const { clock, quota, record, recording } = setUp();
    recording.dispose();
    quota.record({ organization: 'Rossi', used: 3, limit: 10, seenAt: clock.now() });
    assert.deepEqual(record.organizations(), []);
  });
});
