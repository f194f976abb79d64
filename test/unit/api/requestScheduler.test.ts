import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { ApiError } from '../../../src/api/errors';
import { APPLICATION_LIMITS, type RateLimit } from '../../../src/api/limits';
import type { Clock } from '../../../src/common/clock';
import { CountTimeEstimator, ROUND_TRIP_SAMPLES, type CountTimeEstimate } from '../../../src/api/countTimeEstimate';
import { localScheduler, type RequestScheduler, type Slot } from '../../../src/api/requestScheduler';
import { FakeClock, flush } from './fakeClock';

const ORIGIN = 'https://api.example.com';

function makeScheduler(clock: FakeClock, options: { margin?: number; maxQueue?: number; limits?: RateLimit[]; estimate?: CountTimeEstimate } = {}) {
  let margin = options.margin ?? 0;
  const safetyMarginMs = () => margin;
  const scheduler = localScheduler({
    clock,
    limits: options.limits ?? APPLICATION_LIMITS,
    safetyMarginMs,
    maxQueueLength: () => options.maxQueue ?? 1000,
    countTime: options.estimate ? new CountTimeEstimator(() => options.estimate!, safetyMarginMs) : undefined,
  });
  return { scheduler, setMargin: (value: number) => (margin = value) };
}

/** Acquires, sends and gets the answer at once when granted; resolves with that time. */
function sendWhenGranted(scheduler: RequestScheduler, clock: FakeClock, signal?: AbortSignal): Promise<number> {
  return scheduler.acquire({ signal }).then((slot) => {
    slot.markSent(ORIGIN);
    slot.markAnswered();
    return clock.monotonic();
  });
}

describe('RequestScheduler', () => {
  it('uses the spec limits: 5 per second and 300 per minute', () => {
    assert.deepEqual(
      APPLICATION_LIMITS.map((l) => [l.unit, l.max, l.windowMs]),
      [
        ['second', 5, 1000],
        ['minute', 300, 60000],
      ],
    );
  });

  it('sends five at once and the sixth when the second since the first has passed', async () => {
    const clock = new FakeClock();
    const { scheduler } = makeScheduler(clock);
    const times: number[] = [];
    for (let i = 0; i < 6; i++) void sendWhenGranted(scheduler, clock).then((t) => times.push(t));
    await flush();
    assert.deepEqual(times, [0, 0, 0, 0, 0]);
    assert.equal(scheduler.length, 1);
    await clock.advance(999);
    assert.equal(times.length, 5, 'not one millisecond early');
    await clock.advance(1);
    assert.deepEqual(times, [0, 0, 0, 0, 0, 1000]);
  });

  it('grants a slot at its time, not before and not a millisecond late, when timers fire early', async () => {
    const fake = new FakeClock();
    // Like Node's timers: a timer can fire up to a millisecond before its time; an immediate runs a moment later.
    const clock: Clock = {
      now: () => fake.now(),
      monotonic: () => fake.monotonic(),
      setTimeout: (callback, ms) => fake.setTimeout(callback, Math.max(0, ms - 0.6)),
      clearTimeout: (handle) => fake.clearTimeout(handle),
      setImmediate: (callback) => fake.setTimeout(callback, 0.01),
      clearImmediate: (handle) => fake.clearTimeout(handle),
    };
    const scheduler = localScheduler({ clock, limits: APPLICATION_LIMITS, safetyMarginMs: () => 0.5, maxQueueLength: () => 10 });
    const times: number[] = [];
    for (let i = 0; i < 6; i++) void sendWhenGranted(scheduler, fake).then((t) => times.push(t));
    await fake.advance(2000);
    assert.equal(times.length, 6);
    assert.ok(times[5] >= 1000.5 && times[5] < 1000.55, `granted at ${times[5]}, due at 1000.5`);
    assert.equal(fake.pendingTimers, 0, 'no wake-up left behind');
  });

  it('grants a slot within a fraction of a millisecond of its time when timers fire late', async () => {
    const fake = new FakeClock();
    // Like Node's timers on a busy loop: a timer fires up to a millisecond after its time.
    const clock: Clock = {
      now: () => fake.now(),
      monotonic: () => fake.monotonic(),
      setTimeout: (callback, ms) => fake.setTimeout(callback, ms + 0.9),
      clearTimeout: (handle) => fake.clearTimeout(handle),
      setImmediate: (callback) => fake.setTimeout(callback, 0.01),
      clearImmediate: (handle) => fake.clearTimeout(handle),
    };
    const scheduler = localScheduler({ clock, limits: APPLICATION_LIMITS, safetyMarginMs: () => 0.5, maxQueueLength: () => 10 });
    const times: number[] = [];
    for (let i = 0; i < 6; i++) void sendWhenGranted(scheduler, fake).then((t) => times.push(t));
    await fake.advance(2000);
    assert.equal(times.length, 6);
    assert.ok(times[5] >= 1000.5 && times[5] < 1000.55, `granted at ${times[5]}, due at 1000.5`);
    assert.equal(fake.pendingTimers, 0, 'no wake-up left behind');
  });

  it('adds the safety margin to every window, read at each decision', async () => {
    const clock = new FakeClock();
    const { scheduler, setMargin } = makeScheduler(clock, { margin: 30 });
    const times: number[] = [];
    for (let i = 0; i < 7; i++) void sendWhenGranted(scheduler, clock).then((t) => times.push(t));
    await clock.advance(1029);
    assert.equal(times.length, 5);
    await clock.advance(1);
    assert.equal(times.length, 7);
    assert.deepEqual(times.slice(5), [1030, 1030]);

    setMargin(100);
    for (let i = 0; i < 6; i++) void sendWhenGranted(scheduler, clock).then((t) => times.push(t));
    await clock.advance(2000);
    // Span now 1100: the five sent at 0 leave at 1100, the two sent at 1030 at 2130, the ones at 1100 at 2200.
    assert.deepEqual(times.slice(7), [1100, 1100, 1100, 2130, 2130, 2200]);
  });

  it('spreads sends by the oldest send in the window, not by fixed batches', async () => {
    const clock = new FakeClock();
    const { scheduler } = makeScheduler(clock);
    const times: number[] = [];
    for (const at of [0, 200, 400, 600, 800]) {
      await clock.advance(at - clock.monotonic());
      await sendWhenGranted(scheduler, clock).then((t) => times.push(t));
    }
    for (let i = 0; i < 3; i++) void sendWhenGranted(scheduler, clock).then((t) => times.push(t));
    await clock.advance(2000);
    assert.deepEqual(times, [0, 200, 400, 600, 800, 1000, 1200, 1400]);
  });

  it('holds the minute limit even when the second limit would allow more', async () => {
    const clock = new FakeClock();
    const limits: RateLimit[] = [
      { unit: 'second', windowMs: 1000, max: 5 },
      { unit: 'minute', windowMs: 60000, max: 7 },
    ];
    const { scheduler } = makeScheduler(clock, { limits, margin: 10 });
    const times: number[] = [];
    for (let i = 0; i < 9; i++) void sendWhenGranted(scheduler, clock).then((t) => times.push(t));
    await clock.advance(60_009);
    assert.deepEqual(times, [0, 0, 0, 0, 0, 1010, 1010]);
    await clock.advance(1);
    assert.deepEqual(times.slice(7), [60010, 60010]);
  });

  it('never lets any window of the real limits (plus margin) hold more than the server allows', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 400 }),
        fc.integer({ min: 0, max: 50 }),
        async (gaps, margin) => {
          const clock = new FakeClock();
          const { scheduler } = makeScheduler(clock, { margin });
          const sends: Array<Promise<number>> = [];
          for (const gap of gaps) {
            await clock.advance(gap);
            sends.push(sendWhenGranted(scheduler, clock));
          }
          await clock.advance(200_000);
          const times = await Promise.all(sends);
          assert.equal(times.length, gaps.length);
          for (const limit of APPLICATION_LIMITS) {
            for (let i = 0; i < times.length; i++) {
              const inWindow = times.filter((t) => t >= times[i] && t < times[i] + limit.windowMs + margin).length;
              assert.ok(inWindow <= limit.max, `${inWindow} sends in the ${limit.unit} window from ${times[i]}`);
            }
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('with answer times, keeps every window within the limits wherever the server counted each call between its send and its answer', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 400 })), { minLength: 1, maxLength: 120 }),
        fc.integer({ min: 0, max: 20 }),
        async (calls, margin) => {
          const clock = new FakeClock();
          const { scheduler } = makeScheduler(clock, { margin, estimate: 'answer' });
          const spans: Array<Promise<[number, number]>> = [];
          for (const [gap, latency] of calls) {
            await clock.advance(gap);
            spans.push(
              scheduler.acquire().then((slot) => {
                slot.markSent(ORIGIN);
                const sent = clock.monotonic();
                return new Promise<[number, number]>((resolve) =>
                  clock.setTimeout(() => {
                    slot.markAnswered();
                    resolve([sent, clock.monotonic()]);
                  }, latency),
                );
              }),
            );
          }
          await clock.advance(400_000);
          const intervals = await Promise.all(spans);
          // The server counts a call at some moment in [sent, answered]: the worst case puts as many
          // such moments as possible in one window [t, t + windowMs).
          for (const limit of APPLICATION_LIMITS) {
            const starts = intervals.flatMap(([sent, answered]) => [answered, sent - limit.windowMs + 0.5]);
            for (const t of starts) {
              const reachable = intervals.filter(([sent, answered]) => sent < t + limit.windowMs && answered >= t).length;
              assert.ok(reachable <= limit.max, `${reachable} calls can fall in the ${limit.unit} window from ${t}`);
            }
          }
        },
      ),
      { numRuns: 30 },
    );
  });

  it('with the fastest-round-trip estimate, keeps every window within the limits while the floor of the delays holds', async () => {
    // Each call: pre (send to counted) = P + u and post (counted to answer) = Q + v, with u and v
    // varying. The first call meets both floors, so the fastest round trip learned is the floor.
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 })), { minLength: ROUND_TRIP_SAMPLES, maxLength: 150 }),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 0, max: 200 }),
        async (calls, floorPre, floorPost) => {
          const clock = new FakeClock();
          const { scheduler } = makeScheduler(clock);
          const counted: Array<Promise<number>> = [];
          for (const [index, [gap, u, v]] of calls.entries()) {
            const pre = floorPre + (index === 0 ? 0 : u);
            const post = floorPost + (index === 0 ? 0 : v);
            await clock.advance(gap);
            counted.push(
              scheduler.acquire().then((slot) => {
                slot.markSent(ORIGIN);
                const at = clock.monotonic() + pre;
                clock.setTimeout(() => slot.markAnswered(), pre + post);
                return at;
              }),
            );
          }
          await clock.advance(600_000);
          const times = (await Promise.all(counted)).sort((a, b) => a - b);
          for (const limit of APPLICATION_LIMITS) {
            for (const t of times) {
              const inWindow = times.filter((c) => c >= t && c < t + limit.windowMs).length;
              assert.ok(inWindow <= limit.max, `${inWindow} calls counted in the ${limit.unit} window from ${t}`);
            }
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('saves the floor of the round trip in each window once it has learned it', async () => {
    const clock = new FakeClock();
    const { scheduler } = makeScheduler(clock, { limits: [{ unit: 'second', windowMs: 1000, max: 1 }] });
    const grants: number[] = [];
    for (let i = 0; i <= ROUND_TRIP_SAMPLES; i++) {
      const slot = await new Promise<Slot>((resolve) => {
        void scheduler.acquire().then(resolve);
        void clock.advance(5000);
      });
      grants.push(clock.monotonic());
      slot.markSent(ORIGIN);
      await clock.advance(100);
      slot.markAnswered();
    }
    const gaps = grants.slice(1).map((g, i) => g - grants[i]);
    assert.deepEqual(gaps.slice(0, ROUND_TRIP_SAMPLES - 1), Array(ROUND_TRIP_SAMPLES - 1).fill(1100), 'a window plus the 100 ms round trip');
    assert.equal(gaps[ROUND_TRIP_SAMPLES - 1], 1000, 'a window: the call counted at its send, since every round trip was the floor');
  });

  /** One call with the given round trip, then a quiet second; returns when it was answered. */
  async function roundTrip(scheduler: RequestScheduler, clock: FakeClock, ms: number, origin = ORIGIN): Promise<number> {
    const slot = await scheduler.acquire();
    slot.markSent(origin);
    await clock.advance(ms);
    slot.markAnswered();
    const answeredAt = clock.monotonic();
    await clock.advance(1000);
    return answeredAt;
  }

  it('logs answer times again after a 429 pause', async () => {
    const clock = new FakeClock();
    const { scheduler } = makeScheduler(clock);
    for (let i = 0; i < ROUND_TRIP_SAMPLES; i++) await roundTrip(scheduler, clock, 20);
    let answeredAt = await roundTrip(scheduler, clock, 30);
    assert.equal(scheduler.logTimes().at(-1), answeredAt - 20, 'the answer time minus the 20 ms floor');
    scheduler.pause(100);
    await clock.advance(200);
    answeredAt = await roundTrip(scheduler, clock, 30);
    assert.equal(scheduler.logTimes().at(-1), answeredAt, 'the answer time');
  });

  it('orders the log by when calls were counted when hosts with different floors interleave', async () => {
    const clock = new FakeClock();
    const { scheduler } = makeScheduler(clock);
    const CLUSTER = 'https://cluster.example.com';
    for (let i = 0; i < ROUND_TRIP_SAMPLES; i++) await roundTrip(scheduler, clock, 5);
    for (let i = 0; i < ROUND_TRIP_SAMPLES; i++) await roundTrip(scheduler, clock, 50, CLUSTER);
    await clock.advance(60_000); // every earlier call has left the minute
    const start = clock.monotonic();
    const far = await scheduler.acquire();
    far.markSent(CLUSTER);
    await clock.advance(55);
    const near = await scheduler.acquire();
    near.markSent(ORIGIN);
    await clock.advance(6);
    near.markAnswered(); // answered at +61, floor 5: counted at +56
    await clock.advance(1);
    far.markAnswered(); // answered at +62, floor 50: counted at +12
    assert.deepEqual(scheduler.logTimes(), [start + 12, start + 56]);
  });

  it('serves the queue in FIFO order', async () => {
    const clock = new FakeClock();
    const { scheduler } = makeScheduler(clock);
    const order: number[] = [];
    for (let i = 0; i < 12; i++) void sendWhenGranted(scheduler, clock).then(() => order.push(i));
    await clock.advance(3000);
    assert.deepEqual(order, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it('cancels a queued call without using a slot', async () => {
    const clock = new FakeClock();
    const { scheduler } = makeScheduler(clock);
    for (let i = 0; i < 5; i++) await sendWhenGranted(scheduler, clock);
    const controller = new AbortController();
    const cancelled = sendWhenGranted(scheduler, clock, controller.signal);
    const times: number[] = [];
    for (let i = 0; i < 5; i++) void sendWhenGranted(scheduler, clock).then((t) => times.push(t));
    assert.equal(scheduler.length, 6);
    controller.abort();
    await assert.rejects(cancelled, (error: unknown) => error instanceof ApiError && error.kind === 'cancelled');
    assert.equal(scheduler.length, 5);
    await clock.advance(1000);
    // All five later calls fit in the second window: the cancelled call took no slot.
    assert.deepEqual(times, [1000, 1000, 1000, 1000, 1000]);
    assert.equal(scheduler.logTimes().length, 10);
  });

  it('refuses at once a call whose signal is already aborted', async () => {
    const clock = new FakeClock();
    const { scheduler } = makeScheduler(clock);
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(scheduler.acquire({ signal: controller.signal }), (e: unknown) => (e as ApiError).kind === 'cancelled');
    assert.equal(scheduler.length, 0);
  });

  it('counts a call in flight in every window, logs it when answered, and frees an unsent slot on release', async () => {
    const clock = new FakeClock();
    const { scheduler } = makeScheduler(clock);
    const slots: Slot[] = [];
    for (let i = 0; i < 5; i++) slots.push(await scheduler.acquire());
    slots.forEach((slot) => slot.markSent(ORIGIN));
    let sixth = false;
    void scheduler.acquire().then(() => (sixth = true));
    await clock.advance(5000);
    assert.equal(sixth, false, 'five calls in flight hold every window');
    slots[0].markAnswered(); // answered at 5000: the server counted it at 5000 at the latest
    await clock.advance(999);
    assert.equal(sixth, false, 'the answered call stays in the window for a second from its answer');
    await clock.advance(1);
    assert.equal(sixth, true);
    let seventh = false;
    void scheduler.acquire().then(() => (seventh = true));
    await clock.advance(2000);
    assert.equal(seventh, false, 'four still in flight and the sixth fill every window');
    slots[1].release(); // it was sent, so it may have been counted: logged at 8000 all the same
    await flush();
    assert.deepEqual(scheduler.logTimes(), [5000, 8000]);
    assert.equal(seventh, false);
    await clock.advance(1000);
    assert.equal(seventh, true);
  });

  it('gives back a slot released before sending, without logging it', async () => {
    const clock = new FakeClock();
    const { scheduler } = makeScheduler(clock);
    const slots: Slot[] = [];
    for (let i = 0; i < 5; i++) slots.push(await scheduler.acquire());
    let sixth = false;
    void scheduler.acquire().then(() => (sixth = true));
    await flush();
    assert.equal(sixth, false);
    slots[0].release();
    await flush();
    assert.equal(sixth, true);
    assert.deepEqual(scheduler.logTimes(), []);
  });

  it('pauses the whole queue after a 429 and resumes after the pause', async () => {
    const clock = new FakeClock();
    const { scheduler } = makeScheduler(clock);
    const states: Array<number | undefined> = [];
    scheduler.onDidChange((state) => states.push(state.pausedUntil));
    scheduler.pause(60_000);
    const times: number[] = [];
    for (let i = 0; i < 2; i++) void sendWhenGranted(scheduler, clock).then((t) => times.push(t));
    await clock.advance(59_999);
    assert.deepEqual(times, []);
    assert.equal(scheduler.state.pausedUntil, 60_000);
    await clock.advance(1);
    assert.deepEqual(times, [60_000, 60_000]);
    assert.equal(scheduler.state.pausedUntil, undefined);
    assert.ok(states.includes(60_000));
  });

  it('keeps the longer pause when a shorter one is asked for', async () => {
    const clock = new FakeClock();
    const { scheduler } = makeScheduler(clock);
    scheduler.pause(5000);
    scheduler.pause(1000);
    assert.equal(scheduler.state.pausedUntil, 5000);
    await clock.advance(5000);
    assert.equal(scheduler.state.pausedUntil, undefined, 'the pause ends even with an empty queue');
  });

  it('refuses a call when the queue is full, with a clear message, but lets retries in', async () => {
    const clock = new FakeClock();
    const { scheduler } = makeScheduler(clock, { maxQueue: 2 });
    for (let i = 0; i < 5; i++) await sendWhenGranted(scheduler, clock);
    void scheduler.acquire();
    void scheduler.acquire();
    await assert.rejects(scheduler.acquire(), (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.equal(error.kind, 'queueFull');
      assert.match(error.message, /Too many calls are already waiting .*\(2\)/);
      return true;
    });
    let retried = false;
    void scheduler.acquire({ front: true }).then(() => (retried = true));
    assert.equal(scheduler.length, 3);
    await clock.advance(1000);
    assert.equal(retried, true);
  });

  it('puts retries at the head of the queue', async () => {
    const clock = new FakeClock();
    const { scheduler } = makeScheduler(clock);
    for (let i = 0; i < 5; i++) await sendWhenGranted(scheduler, clock);
    const order: string[] = [];
    void scheduler.acquire().then((s) => (s.markAnswered(), order.push('new')));
    void scheduler.acquire({ front: true }).then((s) => (s.markAnswered(), order.push('retry')));
    await clock.advance(1000);
    assert.deepEqual(order, ['retry', 'new']);
  });

  it('reports each call its position and the queue its length', async () => {
    const clock = new FakeClock();
    const { scheduler } = makeScheduler(clock);
    const lengths: number[] = [];
    scheduler.onDidChange((state) => lengths.push(state.length));
    for (let i = 0; i < 5; i++) await sendWhenGranted(scheduler, clock);
    const positions: number[][] = [[], [], []];
    const controllers = positions.map(() => new AbortController());
    positions.forEach((list, i) =>
      scheduler
        .acquire({ signal: controllers[i].signal, onPosition: (p) => list.push(p) })
        .then((s) => s.markAnswered(), () => undefined),
    );
    assert.deepEqual(positions, [[1], [2], [3]]);
    controllers[0].abort();
    await flush();
    assert.deepEqual(positions, [[1], [2, 1], [3, 2]]);
    await clock.advance(1000);
    assert.deepEqual(positions, [[1], [2, 1, 0], [3, 2, 0]]);
    assert.equal(scheduler.length, 0);
    assert.deepEqual(lengths.slice(-4), [2, 3, 2, 0]);
  });

  it('rejects every waiting call on dispose', async () => {
    const clock = new FakeClock();
    const { scheduler } = makeScheduler(clock);
    for (let i = 0; i < 5; i++) await sendWhenGranted(scheduler, clock);
    const waiting = scheduler.acquire();
    scheduler.dispose();
    await assert.rejects(waiting, (e: unknown) => (e as ApiError).kind === 'cancelled');
    assert.equal(clock.pendingTimers, 0);
  });
});
