import * as assert from 'node:assert/strict';
import { KEPT_RESPONSES, RecentlyKept } from '../../../src/views/recentlyKept';

describe('the responses the tabs keep', () => {
  it('keeps the last 50, enough for the links of a Send All of 50 requests', () => {
    assert.equal(KEPT_RESPONSES, 50);
    const kept = new RecentlyKept<number>(KEPT_RESPONSES);
    for (let index = 0; index < 51; index++) kept.set(`r${index}`, index);
    assert.equal(kept.size, 50);
    assert.equal(kept.get('r0'), undefined, 'the oldest is dropped');
    assert.equal(kept.get('r1'), 1);
    assert.equal(kept.get('r50'), 50);
  });

  it('counts a response sent again as new', () => {
    const kept = new RecentlyKept<string>(2);
    kept.set('a', '1');
    kept.set('b', '1');
    kept.set('a', '2');
    kept.set('c', '1');
    assert.deepEqual([kept.get('a'), kept.get('b'), kept.get('c')], ['2', undefined, '1']);
  });
});
