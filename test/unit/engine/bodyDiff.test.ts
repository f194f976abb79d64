// The diff of a watched resource's previous and new body: layout is no change, a changed value is.
import * as assert from 'node:assert/strict';
import { bodyDiff, comparableBody, lineDiff } from '../../../src/engine/bodyDiff';

describe('body diff', () => {
  it('sees no change in key order or whitespace of JSON', () => {
    const diff = bodyDiff('{"b":1,"a":{"y":2,"x":[1,2]}}', '{\n  "a": { "x": [1, 2], "y": 2 },\n  "b": 1\n}');
    assert.equal(diff.changed, false);
    assert.deepEqual(diff.lines, []);
  });

  it('shows a changed value as one removed and one added line, with context', () => {
    const diff = bodyDiff('{"revisione":1,"totale":10,"nome":"x"}', '{"nome":"x","revisione":2,"totale":10}');
    assert.equal(diff.changed, true);
    assert.equal(diff.added, 1);
    assert.equal(diff.removed, 1);
    assert.deepEqual(diff.lines, ['  {', '    "nome": "x",', '-   "revisione": 1,', '+   "revisione": 2,', '    "totale": 10', '  }']);
  });

  it('is a shortest edit script: inserted, removed and moved lines', () => {
    const cases: Array<[string[], string[], string]> = [
      [['a', 'b', 'c'], ['a', 'x', 'b', 'c'], ' a|+x| b| c'],
      [['a', 'b', 'c'], ['a', 'c'], ' a|-b| c'],
      [['a', 'b', 'c', 'a', 'b', 'b', 'a'], ['c', 'b', 'a', 'b', 'a', 'c'], ''],
      [[], ['a'], '+a'],
      [['a'], [], '-a'],
      [[], [], ''],
    ];
    for (const [before, after, expected] of cases) {
      const diff = lineDiff(before, after);
      const render = diff.map((line) => (line.kind === 'added' ? '+' : line.kind === 'removed' ? '-' : ' ') + line.text).join('|');
      if (expected) assert.equal(render, expected);
      // Replaying the script gives both sides back, and its length is the shortest (Myers' classic example: 5).
      assert.deepEqual(diff.filter((line) => line.kind !== 'added').map((line) => line.text), before);
      assert.deepEqual(diff.filter((line) => line.kind !== 'removed').map((line) => line.text), after);
    }
    const classic = lineDiff(['a', 'b', 'c', 'a', 'b', 'b', 'a'], ['c', 'b', 'a', 'b', 'a', 'c']);
    assert.equal(classic.filter((line) => line.kind !== 'same').length, 5);
  });

  it('beyond a thousand differences, shows the two sides as one removed and one added block (still both sides)', () => {
    const before = Array.from({ length: 1500 }, (_, i) => `a${i}`);
    const after = Array.from({ length: 1500 }, (_, i) => `b${i}`);
    const diff = lineDiff(before, after);
    assert.deepEqual(diff.filter((line) => line.kind === 'removed').map((line) => line.text), before);
    assert.deepEqual(diff.filter((line) => line.kind === 'added').map((line) => line.text), after);
  });

  it('separates hunks and cuts a long diff', () => {
    const before = Array.from({ length: 40 }, (_, i) => `line ${i}`);
    const after = before.map((line, i) => (i === 5 || i === 30 ? `${line} changed` : line));
    const diff = bodyDiff(before.join('\n'), after.join('\n'), { context: 1 });
    assert.equal(diff.lines.filter((line) => line === '…').length, 1);
    const long = bodyDiff(before.join('\n'), before.map((line) => `${line}!`).join('\n'), { maxLines: 10 });
    assert.equal(long.lines.length, 10);
    assert.equal(long.truncated, true);
  });

  it('compares a body that is not JSON as text, line ends unified', () => {
    assert.equal(comparableBody('a\r\nb'), 'a\nb');
    assert.equal(bodyDiff('<p>a</p>', '<p>b</p>').changed, true);
  });

  it('diffs a large body with one change quickly', () => {
    const items = Array.from({ length: 20_000 }, (_, id) => ({ id, name: `item ${id}` }));
    const changed = items.map((item) => (item.id === 12_345 ? { ...item, name: 'renamed' } : item));
    const started = performance.now();
    const diff = bodyDiff(JSON.stringify(items), JSON.stringify(changed));
    assert.equal(diff.added, 1);
    assert.equal(diff.removed, 1);
    assert.ok(performance.now() - started < 2000);
  });
});
