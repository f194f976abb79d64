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

  it('balances the groups by the measured seconds: no editor waits long for the other', () => {
    const [first, second] = splitFiles(measured, 2).map(total);
    const longest = Math.max(...measured.map(expectedSeconds));
    assert.ok(Math.abs(first - second) <= longest, `${first} s against ${second} s`);
    assert.ok(Math.abs(first - second) <= 0.05 * (first + second), `${first} s against ${second} s: more than 5 % apart`);
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
