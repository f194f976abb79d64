import * as assert from 'node:assert/strict';
import type { AssertionResult } from '../../../src/engine/assertions/evaluateAssertion';
import { failedAssertionDiagnostics, lineAfterEdit } from '../../../src/engine/assertions/resultDiagnostics';
import { assertionCountCell, assertionSectionLines, assertionTotals } from '../../../src/views/assertionSection';

const passed: AssertionResult = { line: 2, text: '?? status == 200', passed: true, actual: '200', expected: '200', message: 'status == 200' };
const failed: AssertionResult = { line: 3, text: '?? body $.name == Bianchi', passed: false, actual: 'Rossi', expected: 'Bianchi', message: 'body $.name: expected Bianchi, found Rossi' };
const exists: AssertionResult = { line: 4, text: '?? header etag exists', passed: false, actual: 'missing', expected: '', message: 'header etag: expected exists, found missing' };

describe('assertion results in the editor', () => {
  it('the response tab\'s section counts them and says each one, passed or failed, with expected and found', () => {
    assert.deepEqual(assertionSectionLines([passed, failed, exists]), [
      '',
      'Assertions: 1 passed, 2 failed',
      '  passed · line 3 · ?? status == 200 · expected 200, found 200',
      '  FAILED · line 4 · ?? body $.name == Bianchi',
      '      body $.name: expected Bianchi, found Rossi',
      '  FAILED · line 5 · ?? header etag exists',
      '      header etag: expected exists, found missing',
    ]);
    assert.deepEqual(assertionSectionLines(undefined), []);
    assert.deepEqual(assertionSectionLines([]), []);
  });

  it('the Send All cell counts them', () => {
    assert.equal(assertionCountCell([passed, passed]), '2 passed');
    assert.equal(assertionCountCell([passed, failed]), '1 passed, 1 failed');
    assert.equal(assertionCountCell(undefined), '');
  });

  it('a run counts them all, or says nothing when none was checked', () => {
    assert.deepEqual(assertionTotals([[passed, failed], undefined, [exists]]), { text: 'Assertions: 1 passed, 2 failed', failed: 2 });
    assert.equal(assertionTotals([undefined, []]), undefined);
  });

  it('a failed one is a problem over its text saying which value was expected and found; a passed one, or a line edited since, is none', () => {
    const lines = ['GET /x', '', '?? status == 200', '  ?? body $.name == Bianchi', '?? header etag exists'];
    assert.deepEqual(failedAssertionDiagnostics([passed, failed, exists], (line) => lines[line]), [
      { line: 3, start: 2, end: 27, message: 'body $.name: expected Bianchi, found Rossi' },
      { line: 4, start: 0, end: 21, message: 'header etag: expected exists, found missing' },
    ]);
    const edited = [...lines];
    edited[3] = '?? body $.name == Rossi';
    assert.deepEqual(failedAssertionDiagnostics([failed], (line) => edited[line]), []);
    assert.deepEqual(failedAssertionDiagnostics([failed], () => undefined), []);
  });

  it('cuts a long value in the message', () => {
    const long = { ...failed, actual: 'x'.repeat(500), message: `body $.name: expected Bianchi, found ${'x'.repeat(500)}` };
    const [item] = failedAssertionDiagnostics([long], () => failed.text);
    assert.ok(item.message.length < 300);
    assert.ok(item.message.startsWith('body $.name: expected Bianchi, found xxx'));
    assert.ok(item.message.endsWith('…'));
  });

  it('an edit removes the problem of the lines it touched and moves those below it', () => {
    const edit = { startLine: 5, endLine: 6, insertedLines: 0 };
    assert.equal(lineAfterEdit(4, edit), 4);
    assert.equal(lineAfterEdit(5, edit), undefined);
    assert.equal(lineAfterEdit(6, edit), undefined);
    assert.equal(lineAfterEdit(9, edit), 8, 'two lines became one');
    assert.equal(lineAfterEdit(9, { startLine: 2, endLine: 2, insertedLines: 3 }), 12);
  });
});
