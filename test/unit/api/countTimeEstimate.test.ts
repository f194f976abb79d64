import * as assert from 'node:assert/strict';
import { CountTimeEstimator, ROUND_TRIP_SAMPLES, type CountTimeEstimate, type CountTimeRule, type LogEntry } from '../../../src/api/countTimeEstimate';
import { SendTimes } from '../../helpers/sendTimes';

const A = 'https://api.example.com';
const B = 'https://cluster1.example.com';

function estimator(mode: CountTimeEstimate = 'fastest-round-trip', marginMs = 0) {
  return new CountTimeEstimator(() => mode, () => marginMs);
}

/** Feeds `count` round trips of `roundTripMs` on `origin`, one per second; returns when the last one is taken to have been counted. */
function feed(e: CountTimeEstimator, origin: string, count: number, roundTripMs: (i: number) => number): number {
  let entry: LogEntry | undefined;
  for (let i = 0; i < count; i++) entry = e.answered(origin, i * 1000, i * 1000 + roundTripMs(i));
  return e.countedAt(entry!);
}

/** When a call is taken to have been counted, right after its answer. */
function counted(e: CountTimeRule, origin: string, sentAt: number, answeredAt: number): number {
  return e.countedAt(e.answered(origin, sentAt, answeredAt));
}

describe('CountTimeEstimator', () => {
  it('logs answer times until it has seen enough round trips on the origin', () => {
    const e = estimator();
    const entries = Array.from({ length: ROUND_TRIP_SAMPLES - 1 }, (_, i) => counted(e, A, i * 1000, i * 1000 + 40));
    assert.deepEqual(entries, entries.map((_, i) => i * 1000 + 40));
  });

  it('then logs the answer time minus the fastest round trip seen', () => {
    const e = estimator();
    feed(e, A, ROUND_TRIP_SAMPLES - 1, (i) => (i === 0 ? 30 : 45));
    assert.equal(e.floor(A), undefined);
    feed(e, A, 1, () => 45);
    assert.equal(e.floor(A), 30);
    assert.equal(counted(e, A, 100_000, 100_050), 100_020, 'answered at 100 050, fastest round trip 30 ms');
    assert.equal(counted(e, A, 102_000, 102_030), 102_000, 'as fast as the fastest: counted when sent, never before');
  });

  it('starts counting again when a round trip beats the fastest by more than the margin', () => {
    const e = estimator('fastest-round-trip', 5);
    feed(e, A, ROUND_TRIP_SAMPLES, () => 30);
    assert.equal(counted(e, A, 100_000, 100_026), 100_000, 'within the margin: trusted, and the new fastest');
    assert.equal(e.floor(A), 26);
    assert.equal(counted(e, A, 101_000, 101_020), 101_020, '6 ms faster: the process warmed up, answer times again');
    assert.equal(e.floor(A), undefined);
    feed(e, A, ROUND_TRIP_SAMPLES - 2, () => 21);
    assert.equal(e.floor(A), undefined);
    feed(e, A, 1, () => 21);
    assert.equal(e.floor(A), 20, 'the new floor held for 30 round trips');
  });

  it('takes the fastest round trip seen so far off every entry, including those logged before it was seen', () => {
    const e = estimator('fastest-round-trip', 5);
    feed(e, A, ROUND_TRIP_SAMPLES, () => 50);
    const early = e.answered(A, 40_000, 40_060);
    assert.equal(e.countedAt(early), 40_010);
    feed(e, A, 1, () => 47);
    assert.equal(e.countedAt(early), 40_013, 'the early entry moves later with the floor');
    feed(e, A, 1, () => 20);
    assert.equal(e.countedAt(early), 40_060, 'and back to its answer time when the floor is no longer trusted');
  });

  it('learns each origin apart', () => {
    const e = estimator();
    feed(e, A, ROUND_TRIP_SAMPLES, () => 10);
    assert.equal(counted(e, A, 50_000, 50_012), 50_002);
    assert.equal(counted(e, B, 50_000, 50_012), 50_012, 'nothing known yet about the cluster host');
  });

  it('logs a call without an answer when it failed, and learns nothing from it', () => {
    const e = estimator();
    feed(e, A, ROUND_TRIP_SAMPLES - 1, () => 40);
    assert.equal(e.countedAt(e.failed(60_000, 60_003)), 60_003);
    assert.equal(counted(e, A, 61_000, 61_050), 61_010, 'the fastest is still 40 ms, not the failure\'s 3 ms');
  });

  it('goes back to answer times for good once distrusted (after a 429)', () => {
    const e = estimator();
    feed(e, A, ROUND_TRIP_SAMPLES, () => 20);
    assert.equal(e.trusted, true);
    assert.equal(e.distrust(), true, 'the way calls are logged changes');
    assert.equal(e.distrust(), false, 'only once');
    assert.equal(e.trusted, false);
    assert.equal(e.floor(A), undefined);
    assert.equal(counted(e, A, 80_000, 80_025), 80_025);
  });

  it("logs answer times in 'answer' mode (and the benchmark's SendTimes send times), whatever it has seen", () => {
    const answer = estimator('answer');
    assert.equal(answer.distrust(), false, 'answer times already');
    assert.equal(feed(answer, A, ROUND_TRIP_SAMPLES + 5, () => 20), (ROUND_TRIP_SAMPLES + 4) * 1000 + 20);
    assert.equal(answer.countedAt(answer.failed(5, 9)), 9);
    const send = new SendTimes();
    assert.equal(counted(send, A, 1000, 1020), 1000);
    assert.equal(send.countedAt(send.failed(5, 9)), 5);
  });
});
