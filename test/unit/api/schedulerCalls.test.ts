import * as assert from 'node:assert/strict';
import { APPLICATION_LIMITS } from '../../../src/api/limits';
import { localScheduler, type MeteredCall } from '../../../src/api/requestScheduler';
import { FakeClock } from './fakeClock';

describe('RequestScheduler: the calls it let go (onDidCall)', () => {
  function setUp() {
    const clock = new FakeClock();
    const scheduler = localScheduler({ clock, limits: APPLICATION_LIMITS, safetyMarginMs: () => 0, maxQueueLength: () => 100 });
    const calls: MeteredCall[] = [];
    scheduler.onDidCall((call) => calls.push(call));
    return { clock, scheduler, calls };
  }

  it('tells each call as it counts for the scheduler: sent, or ended without a send marked; not one given back unsent', async () => {
    const { scheduler, calls } = setUp();
    const sent = await scheduler.acquire();
    sent.markSent('https://a.example');
    sent.markAnswered();
    const resend = await scheduler.acquire();
    resend.markFailed();
    const unused = await scheduler.acquire();
    unused.release();
    const given = await scheduler.acquire();
    given.markSent('https://a.example');
    given.release();
    assert.equal(calls.length, 3);
  });

  it('measures the wait from asking to the grant, not the time the caller took to send', async () => {
    const { clock, scheduler, calls } = setUp();
    for (let index = 0; index < 5; index++) (await scheduler.acquire()).markFailed();
    const sixth = scheduler.acquire();
    await clock.advance(1000);
    const slot = await sixth;
    await clock.advance(5000); // building the headers, refreshing a token...
    slot.markSent('https://a.example');
    assert.equal(calls.length, 6);
    assert.equal(calls[5].waitedMs, 1000);
    assert.equal(calls[5].at, clock.now());
  });

  it('still decides as the scheduler does: the limits hold', async () => {
    const { clock, scheduler } = setUp();
    const granted: number[] = [];
    const all = Array.from({ length: 12 }, () => scheduler.acquire().then((slot) => {
      granted.push(clock.monotonic());
      slot.markSent('https://a.example');
      slot.markAnswered();
    }));
    await clock.advance(3000);
    await Promise.all(all);
    assert.deepEqual(granted, [0, 0, 0, 0, 0, 1000, 1000, 1000, 1000, 1000, 2000, 2000]);
  });
});
