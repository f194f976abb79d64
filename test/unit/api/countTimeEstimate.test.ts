import * as assert from 'node:assert/strict';
import { CountTimeEstimator, ROUND_TRIP_SAMPLES, type CountTimeEstimate } from '../../../src/api/countTimeEstimate';

const A = 'https://api.example.com';
const B = 'https://cluster1.example.com';

function estimator(mode: CountTimeEstimate = 'fastest-round-trip') {
  return new CountTimeEstimator(() => mode);
}

/** Feeds `count` round trips of `roundTripMs` on `origin`, one per second; returns the last entry. */
function feed(e: CountTimeEstimator, origin: string, count: number, roundTripMs: (i: number) => number): number {
  let entry = NaN;
  for (let i = 0; i < count; i++) entry = e.answered(origin, i * 1000, i * 1000 + roundTripMs(i));
  return entry;
}

describe('CountTimeEstimator', () => {
  it('logs answer times until it has seen enough round trips on the origin', () => {
    const e = estimator();
    const entries = Array.from({ length: ROUND_TRIP_SAMPLES - 1 }, (_, i) => e.answered(A, i * 1000, i * 1000 + 40));
    assert.deepEqual(entries, entries.map((_, i) => i * 1000 + 40));
  });

  it('then logs the answer time minus the fastest round trip seen', () => {
    const e = estimator();
    feed(e, A, ROUND_TRIP_SAMPLES, (i) => (i === 7 ? 30 : 45));
    assert.equal(e.answered(A, 100_000, 100_050), 100_020, 'answered at 100 050, fastest round trip 30 ms');
    assert.equal(e.answered(A, 101_000, 101_025), 101_000, 'a new fastest round trip: the send time, never before it');
    assert.equal(e.answered(A, 102_000, 102_040), 102_015);
  });

  it('learns each origin apart', () => {
    const e = estimator();
    feed(e, A, ROUND_TRIP_SAMPLES, () => 10);
    assert.equal(e.answered(A, 50_000, 50_012), 50_002);
    assert.equal(e.answered(B, 50_000, 50_012), 50_012, 'nothing known yet about the cluster host');
  });

  it('logs a call without an answer when it failed, and learns nothing from it', () => {
    const e = estimator();
    feed(e, A, ROUND_TRIP_SAMPLES - 1, () => 40);
    assert.equal(e.failed(60_000, 60_003), 60_003);
    assert.equal(e.answered(A, 61_000, 61_050), 61_010, 'the fastest is still 40 ms, not the failure\'s 3 ms');
  });

  it('goes back to answer times for good once distrusted (after a 429)', () => {
    const e = estimator();
    feed(e, A, ROUND_TRIP_SAMPLES, () => 20);
    assert.equal(e.trusted, true);
    e.distrust();
    assert.equal(e.trusted, false);
    assert.equal(e.answered(A, 80_000, 80_025), 80_025);
  });

  it("logs answer times in 'answer' mode and send times in 'send' mode, whatever it has seen", () => {
    const answer = estimator('answer');
    assert.equal(feed(answer, A, ROUND_TRIP_SAMPLES + 5, () => 20), (ROUND_TRIP_SAMPLES + 4) * 1000 + 20);
    assert.equal(answer.failed(5, 9), 9);
    const send = estimator('send');
    assert.equal(send.answered(A, 1000, 1020), 1000);
    assert.equal(send.failed(5, 9), 5);
  });
});
