import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

// The TextMate grammar is data: its rules must compile and match the lines they are written for.
// (Oniguruma, which VS Code uses, accepts every construct used here as JavaScript does.)
const root = path.resolve(__dirname, '..', '..', '..');
const grammar = JSON.parse(fs.readFileSync(path.join(root, 'media', 'syntaxes', 'tenant-api-http.tmLanguage.json'), 'utf8')) as {
  scopeName: string;
  patterns: Array<{ include: string }>;
  repository: Record<string, { match?: string; begin?: string; end?: string }>;
};

function regex(source: string): RegExp {
  return source.startsWith('(?i)') ? new RegExp(source.slice(4), 'i') : new RegExp(source);
}

/** The first top-level rule (in the grammar's order) whose match or begin matches the line. */
function ruleFor(line: string): string | undefined {
  for (const { include } of grammar.patterns) {
    const name = include.slice(1);
    const rule = grammar.repository[name];
    const source = rule.match ?? rule.begin;
    if (source && regex(source).test(line)) return name;
  }
  return undefined;
}

describe('requestFiles/grammar', () => {
  it('is wired to the language of package.json and every rule compiles', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    const contributed = manifest.contributes.grammars.find((entry: { language: string }) => entry.language === 'tenant-api-http');
    assert.equal(contributed.scopeName, grammar.scopeName);
    assert.ok(fs.existsSync(path.join(root, contributed.path)));
    for (const [name, rule] of Object.entries(grammar.repository)) {
      for (const source of [rule.match, rule.begin, rule.end]) if (source) assert.doesNotThrow(() => regex(source), name);
    }
  });

  const table: Array<[string, string]> = [
    ['### Another request', 'separator'],
    ['# @name login', 'metadata'],
    ['// @tenant RC-MI', 'metadata'],
    ['# a comment', 'comment'],
    ['@host = https://example.com', 'fileVariable'],
    ['GET /efat/api/v1/ditte HTTP/1.1', 'requestLine'],
    ['post {{host}}/api/x', 'requestLine'],
    ['    &dimensionePagina=5', 'queryContinuation'],
    ['Content-Type: application/json', 'header'],
    ['< ./body.json', 'bodyFile'],
    ['{ "a": 1 }', 'jsonBody'],
    ['?? status == 200', 'assertion'],
    ['  ?? header content-type includes json', 'assertion'],
    ['?? body $.items[0].id exists', 'assertion'],
    ['?? status', 'assertionMarker'],
    ['{{', 'scriptBlock'],
    ['{{@response', 'scriptBlock'],
    ['> {%', 'scriptHandler'],
    ['< {% request.variables.set("a", 1) %}', 'scriptHandler'],
    ['> ./handler.js', 'scriptHandlerFile'],
  ];
  for (const [line, rule] of table) {
    it(`${line} -> ${rule}`, () => assert.equal(ruleFor(line), rule));
  }

  it('splits an assertion line at its first operator word, as the parser does', () => {
    const match = regex(grammar.repository.assertion.match!).exec('?? body $.formula == a > b');
    assert.deepEqual(match?.slice(1), ['??', 'body', '$.formula', '==', 'a > b']);
    const bare = regex(grammar.repository.assertion.match!).exec('?? status exists');
    assert.deepEqual(bare?.slice(1), ['??', 'status', undefined, 'exists', '']);
  });

  it('highlights assertions and handlers after a JSON body too, not as JSON', () => {
    const inBody = (grammar.repository.jsonBody as { patterns: Array<{ include: string }> }).patterns.map((pattern) => pattern.include);
    assert.ok(inBody.indexOf('#assertion') < inBody.indexOf('source.json'));
    assert.ok(inBody.indexOf('#scriptHandler') < inBody.indexOf('source.json'));
  });
});
