import * as assert from 'node:assert/strict';
import { KeyedPool } from '../../../src/common/keyedPool';

describe('KeyedPool', () => {
  it('makes one value per key on first use and disposes them all at the end', () => {
    const disposed: string[] = [];
    const pool = new KeyedPool((key) => ({ key, dispose: () => disposed.push(key) }));
    assert.equal(pool.get('a'), pool.get('a'));
    assert.notEqual(pool.get('a'), pool.get('b'));
    assert.equal(pool.size, 2);
    pool.dispose();
    assert.deepEqual(disposed, ['a', 'b']);
  });
});
