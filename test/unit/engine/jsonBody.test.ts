// Where a JSON body breaks, as line and column: the request file's problem, Send's question, Send Request's body step.
import * as assert from 'node:assert/strict';
import { jsonProblem, jsonSyntaxProblem, malformedJsonBody } from '../../../src/engine/jsonBody';
import { parseRequestFile, splitLines } from '../../../src/engine/parser';

describe('JSON bodies', () => {
  it('says where the text breaks, as line and column (0-based), without the parser\'s character position', () => {
    assert.deepEqual(jsonSyntaxProblem('{\n  "a": 1\n  "b": 2\n}'), { line: 2, column: 2, message: "Expected ',' or '}' after property value" });
    assert.equal(jsonSyntaxProblem('[1, 2]'), undefined);
    assert.equal(jsonProblem('{"id": {{id}}}'), undefined, 'a reference stands in for a value');
    assert.equal(jsonSyntaxProblem('{"id": {{id}}}')?.column, 8, 'but is no JSON when nothing fills it');
  });

  it('finds a request\'s broken body at its line and column in the file; a body that is no JSON is none', () => {
    const text = ['POST /api/configurazioni', 'Content-Type: application/json', '', '{', '  "descrizione": "Nuova"', '  "codice": "N1"', '}', '', '###', 'POST /api/note', 'Content-Type: text/plain', '', '{not json, and not meant to be'].join('\n');
    const file = parseRequestFile(text);
    assert.deepEqual(malformedJsonBody(splitLines(text), file.requests[0]), { line: 5, column: 2, message: "Expected ',' or '}' after property value" });
    assert.equal(malformedJsonBody(splitLines(text), file.requests[1]), undefined);
  });
});
