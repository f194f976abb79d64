import * as assert from 'node:assert/strict';
import { QuotaTracker } from '../../../src/api/quotaTracker';
import type { QuotaChangeEvent } from '../../../src/api/types';

const reading = (organization: string, used: number, limit: number, seenAt = 1) => ({ organization, used, limit, seenAt, keyLabel: 'k' });

describe('QuotaTracker', () => {
  it('keeps the latest reading per organization and fires on each one', () => {
    const tracker = new QuotaTracker();
    const events: QuotaChangeEvent[] = [];
    tracker.onDidChange((e) => events.push(e));
    tracker.record(reading('a', 1, 10));
    tracker.record(reading('b', 5, 50));
    tracker.record(reading('a', 2, 10, 2));
    assert.deepEqual(tracker.reading('a'), reading('a', 2, 10, 2));
    assert.equal(tracker.readings().length, 2);
    assert.deepEqual(events.map((e) => [e.organization, e.reading?.used, e.blocked]), [['a', 1, false], ['b', 5, false], ['a', 2, false]]);
  });

  it('refuses an organization whose usage reached its limit, and no other', () => {
    const tracker = new QuotaTracker();
    tracker.record(reading('a', 10, 10));
    tracker.record(reading('b', 9, 10));
    assert.equal(tracker.refusal('a')?.reason, 'reached');
    assert.equal(tracker.refusal('b'), undefined);
    assert.equal(tracker.refusal('unknown'), undefined);
    tracker.stop('c');
    assert.deepEqual(tracker.refusedOrganizations().sort(), ['a', 'c']);
  });

  it('never refuses on a reading whose limit is 0 (not a limit: unknown)', () => {
    const tracker = new QuotaTracker();
    tracker.record(reading('a', 5, 0));
    tracker.record(reading('b', 0, 0));
    assert.equal(tracker.refusal('a'), undefined);
    assert.equal(tracker.refusal('b'), undefined);
    assert.deepEqual(tracker.refusedOrganizations(), []);
  });

  it('stops an organization after a weekly 429 until a reading below the limit', () => {
    const tracker = new QuotaTracker();
    const events: QuotaChangeEvent[] = [];
    tracker.onDidChange((e) => events.push(e));
    tracker.stop('a');
    assert.equal(tracker.isBlocked('a'), true);
    assert.equal(tracker.refusal('a')?.reason, 'stopped');
    assert.equal(events.at(-1)?.blocked, true);
    tracker.record(reading('a', 10, 10));
    assert.equal(tracker.isBlocked('a'), true, 'a reading at the limit keeps it stopped');
    tracker.record(reading('a', 3, 20));
    assert.equal(tracker.isBlocked('a'), false);
    assert.equal(events.at(-1)?.blocked, false);
  });

  it('lets the user resume: the next call goes, its reading decides', () => {
    const tracker = new QuotaTracker();
    tracker.record(reading('a', 10, 10));
    tracker.stop('a');
    tracker.resume('a');
    assert.equal(tracker.refusal('a'), undefined);
    assert.equal(tracker.reading('a')?.used, 10, 'the reading shown is not altered');
    tracker.record(reading('a', 11, 10));
    assert.equal(tracker.refusal('a')?.reason, 'reached');
  });

  it('clears everything and tells the listeners', () => {
    const tracker = new QuotaTracker();
    const events: QuotaChangeEvent[] = [];
    tracker.record(reading('a', 1, 10));
    tracker.stop('b');
    tracker.onDidChange((e) => events.push(e));
    tracker.clear();
    assert.deepEqual(tracker.readings(), []);
    assert.deepEqual(events.map((e) => [e.organization, e.reading]), [['a', undefined], ['b', undefined]]);
  });
});
