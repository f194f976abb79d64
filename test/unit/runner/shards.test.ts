import * as assert from 'node:assert/strict';
import { expectedSeconds, fileSeconds, splitFiles, unknownFileSeconds } from '../../vscode/runner/shards';

describe('splitting the in-editor suite between editors', () => {
  const measured = Object.keys(fileSeconds);
  const total = (group: string[]) => group.reduce((sum, file) => sum + expectedSeconds(file), 0);

  it('gives every file to exactly one editor, each group sorted as the suite runs it', () => {
    const groups = splitFiles(measured, 2);
    assert.equal(groups.length, 2);
    assert.deepEqual(groups.flat().sort(), [...measured].sort());
    for (const group of groups) assert.deepEqual(group, [...group].sort());
  });

  it('balances the groups by the measured seconds: no editor waits long for the others', () => {
    for (const count of [2, 3]) {
      const totals = splitFiles(measured, count).map(total);
      const spread = Math.max(...totals) - Math.min(...totals);
      assert.equal(totals.length, count);
      assert.ok(spread <= 0.05 * Math.max(...totals), `${count} editors: ${totals.join(' s, ')} s, more than 5 % apart`);
    }
  });

  it('splits the same files the same way every time, whatever order they are listed in', () => {
    assert.deepEqual(splitFiles([...measured].reverse(), 2), splitFiles(measured, 2));
    assert.deepEqual(splitFiles(measured, 3), splitFiles(measured, 3));
  });

  it('counts a file it has no figure for as an average one, and leaves no editor without files', () => {
    assert.equal(expectedSeconds('brandNew.test.js'), unknownFileSeconds);
    const groups = splitFiles([...measured, 'brandNew.test.js'], 2);
    assert.equal(groups.flat().filter((file) => file === 'brandNew.test.js').length, 1);
    assert.deepEqual(splitFiles(['a.test.js'], 2), [['a.test.js']]);
    assert.deepEqual(splitFiles(['a.test.js', 'b.test.js'], 1), [['a.test.js', 'b.test.js']]);
    assert.deepEqual(splitFiles([], 2), []);
  });
});
