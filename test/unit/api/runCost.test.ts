// The cost of a run before it starts: calls, the shortest time the limits allow, the share of each remaining quota.
import * as assert from 'node:assert/strict';
import { APPLICATION_LIMITS } from '../../../src/api/limits';
import { confirmationReasons, describeRunCost, formatRunTime, formatShare, minimumRunMs, runCost, runNeedsConfirmation } from '../../../src/api/runCost';

describe('run cost', () => {
  it('takes the tightest limit: the first five at once, then a second per five, and a minute per 300', () => {
    const cases: Array<[number, number]> = [[0, 0], [1, 0], [5, 0], [6, 1000], [43, 8000], [300, 59_000], [301, 60_000], [1500, 299_000], [1501, 300_000]];
    for (const [calls, ms] of cases) assert.equal(minimumRunMs(calls, APPLICATION_LIMITS), ms, `${calls} calls`);
  });

  it('counts the share of each organization, fullest first, and the calls with none', () => {
    const readings: Record<string, { used: number; limit: number }> = {
      'org-rossi': { used: 0, limit: 10_000 },
      'org-bianchi': { used: 990, limit: 1000 },
    };
    const cost = runCost(new Map([['org-rossi', 40], ['org-bianchi', 2], [undefined, 1]]), APPLICATION_LIMITS, (org) => readings[org]);
    assert.equal(cost.calls, 43);
    assert.equal(cost.minimumMs, 8000);
    assert.deepEqual(cost.organizations.map((o) => [o.organization, o.calls, o.remaining, o.percentOfRemaining]), [
      ['org-bianchi', 2, 10, 20],
      ['org-rossi', 40, 10_000, 0.4],
    ]);
    assert.equal(describeRunCost(cost), "43 calls, about 8 s at the limit, 20 % of org-bianchi's remaining quota, 0.4 % of org-rossi's remaining quota");
    assert.equal(runNeedsConfirmation(cost, 20), true);
    assert.equal(runNeedsConfirmation(cost, 25), false);
  });

  it('says when a quota is not known yet or is used up, and asks for both (a used-up one at any threshold)', () => {
    const cost = runCost(new Map([['org-new', 3], ['org-full', 1]]), APPLICATION_LIMITS, (org) => (org === 'org-full' ? { used: 5, limit: 5 } : undefined));
    assert.equal(describeRunCost(cost), "4 calls, < 1 s at the limit, org-full's quota is used up, org-new's remaining quota not known yet");
    assert.equal(runNeedsConfirmation(cost, 100), true);
    assert.deepEqual(confirmationReasons(cost, 100), ["org-full's weekly quota is used up."], 'at 100 % only what is known to take it all');
    const unseen = runCost(new Map([['org-new', 30]]), APPLICATION_LIMITS, () => undefined);
    assert.equal(runNeedsConfirmation(unseen, 0.01), true, 'the share cannot be said: asked');
    assert.deepEqual(confirmationReasons(unseen, 1), ["org-new's remaining weekly quota is not known yet: no answer in this session has said it."]);
    assert.equal(runNeedsConfirmation(unseen, 100), false);
    assert.equal(describeRunCost(runCost(new Map([[undefined, 1]]), APPLICATION_LIMITS, () => undefined)), '1 call, < 1 s at the limit');
  });

  it('rounds honestly: a share never shows as 0 %, under a second is < 1 s, long runs in minutes', () => {
    const small = runCost(new Map([['org-rossi', 6]]), APPLICATION_LIMITS, () => ({ used: 0, limit: 10_000 }));
    assert.equal(describeRunCost(small), "6 calls, about 1 s at the limit, < 0.1 % of org-rossi's remaining quota");
    assert.deepEqual(confirmationReasons(small, 0.01), ["The run takes < 0.1 % of org-rossi's remaining weekly quota."], 'the reason says the share the question shows');
    assert.deepEqual(confirmationReasons(small, 0.1), [], '0.06 % is under 0.1 %');
    assert.equal(formatShare(0.05), '< 0.1');
    assert.equal(formatShare(0.1), '0.1');
    assert.equal(formatShare(9.96), '10');
    assert.equal(formatShare(12.4), '12');
    assert.equal(formatShare(0.05, 'it'), '< 0,1');
    assert.equal(formatRunTime(0), '< 1 s at the limit');
    assert.equal(formatRunTime(8000), 'about 8 s at the limit');
    assert.equal(formatRunTime(59_000), 'about 59 s at the limit');
    assert.equal(formatRunTime(299_000), 'about 5 min at the limit');
  });
});
