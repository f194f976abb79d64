import * as assert from 'node:assert/strict';
import { assertionSpot, assertionWordAt } from '../../../src/engine/assertions/assertionEditing';
import { completionSpot } from '../../../src/engine/completionContext';
import { parseRequestFile } from '../../../src/engine/parser';

describe('engine/assertions: what the editor offers on a ?? line', () => {
  const spots: Array<[string, ReturnType<typeof assertionSpot>]> = [
    ['?? ', { kind: 'assertionSubject', prefix: '' }],
    ['  ?? sta', { kind: 'assertionSubject', prefix: 'sta' }],
    ['??', { kind: 'none', prefix: '' }],
    ['?? status ', { kind: 'assertionOperator', prefix: '' }],
    ['?? duration <', { kind: 'assertionOperator', prefix: '<' }],
    ['?? header ', { kind: 'assertionHeaderName', prefix: '' }],
    ['?? header content-t', { kind: 'assertionHeaderName', prefix: 'content-t' }],
    ['?? header content-type ', { kind: 'assertionOperator', prefix: '' }],
    ['?? body ', { kind: 'assertionOperator', prefix: '' }],
    ['?? body $.items[0].id ex', { kind: 'assertionOperator', prefix: 'ex' }],
    // After the operator comes the expected value: free text (or a {{variable}}, offered as elsewhere).
    ['?? status == ', { kind: 'none', prefix: '' }],
    ['?? body $.a not equals 3', { kind: 'none', prefix: '' }],
    ['?? nothing ', { kind: 'none', prefix: '' }],
    ['GET /x', undefined],
  ];
  for (const [before, expected] of spots) {
    it(`"${before}" -> ${expected?.kind ?? 'not an assertion'}`, () => assert.deepEqual(assertionSpot(before), expected));
  }

  it('completionSpot hands an assertion line to it, and a {{ in the expected value to variables', () => {
    const lines = ['GET /x', '?? status ', '?? body $.id == {{cre'];
    const file = parseRequestFile(lines.join('\n'));
    assert.deepEqual(completionSpot(file, lines[1], 1, lines[1].length), { kind: 'assertionOperator', prefix: '' });
    assert.deepEqual(completionSpot(file, lines[2], 2, lines[2].length), { kind: 'variable', prefix: 'cre' });
  });

  it('names the subject or operator under the pointer, with the httpYac difference where there is one', () => {
    const line = '?? body $.a not equals {"a":1}';
    const subject = assertionWordAt(line, 4);
    assert.equal(subject?.kind === 'subject' && subject.subject.name, 'body');
    assert.deepEqual(subject && [subject.start, subject.end], [3, 7]);
    assert.ok(subject?.kind === 'subject' && subject.subject.differs?.().includes('$.path'));
    const operator = assertionWordAt(line, 14);
    assert.equal(operator?.kind === 'operator' && operator.operator.name, '!=');
    assert.deepEqual(operator && [operator.start, operator.end], [12, 22]);
    assert.equal(assertionWordAt(line, 9), undefined, 'the path is no word of the tables');
    assert.equal(assertionWordAt(line, 25), undefined, 'nor is the expected value');
    const exists = assertionWordAt('?? body $.count exists', 18);
    assert.ok(exists?.kind === 'operator' && exists.operator.differs?.().includes('0'));
    assert.equal(assertionWordAt('GET /status', 6), undefined);
  });
});
