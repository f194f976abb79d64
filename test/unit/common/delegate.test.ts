import * as assert from 'node:assert/strict';
import { delegateTo } from '../../../src/common/delegate';

class Counter {
  constructor(readonly name: string, private count = 0) {}
  next(): string {
    return `${this.name}${++this.count}`;
  }
}

describe('delegateTo', () => {
  it('reads from the current target at each access, with methods bound to it', () => {
    let current = new Counter('a');
    const exported = delegateTo(() => current);
    const next = exported.next;
    assert.equal(exported.next(), 'a1');
    assert.equal(next(), 'a2', 'a method taken off the object still works on its target');
    current = new Counter('b');
    assert.equal(exported.name, 'b');
    assert.equal(exported.next(), 'b1');
    assert.equal('next' in exported, true);
  });
});
