import * as assert from 'node:assert/strict';
import { RouteTable } from '../../../src/api/routes';
import type { TenantRecord } from '../../../src/api/types';
import { DIAGNOSTIC_CODES, diagnoseRequestFile, type FileDiagnostic } from '../../../src/engine/diagnostics';
import { parseRequestFile } from '../../../src/engine/parser';
import { formatJsonBody, quickFixesFor, withoutTrailingCommas, type QuickFix, type TextChange } from '../../../src/engine/quickFixes';
import { defaultSystemContext } from '../../../src/engine/systemVariables';

const tenants: TenantRecord[] = [
  { id: '3f2b8c1e-5d4a-4e6b-9a7c-1b2d3e4f5a60', codiceAmbienteDati: 'RC-MI', descrizioneAmbienteDati: 'Rossi Milano', clusterAddress: 'http://127.0.0.1:1', usable: true },
];

function diagnose(text: string): FileDiagnostic[] {
  const routes = new RouteTable();
  return diagnoseRequestFile(text, parseRequestFile(text), {
    routeFor: (path) => routes.match(path),
    environment: {},
    tenants,
    system: defaultSystemContext(),
  });
}

/** The fixes of the one diagnostic with `code`. */
function fixesOf(text: string, code: string): QuickFix[] {
  const found = diagnose(text).filter((item) => item.code === code);
  assert.equal(found.length, 1, JSON.stringify(diagnose(text)));
  return quickFixesFor(text, parseRequestFile(text), found[0]);
}

/** Applies non-overlapping changes, last first, as an editor does. */
function apply(text: string, changes: readonly TextChange[]): string {
  const lines = text.split('\n');
  const offset = (line: number, column: number) => lines.slice(0, line).reduce((sum, item) => sum + item.length + 1, 0) + column;
  let out = text;
  for (const change of [...changes].sort((a, b) => offset(b.range.line, b.range.start) - offset(a.range.line, a.range.start))) {
    out = out.slice(0, offset(change.range.line, change.range.start)) + change.newText + out.slice(offset(change.range.endLine, change.range.end));
  }
  return out;
}

function edited(text: string, fix: QuickFix): string {
  assert.equal(fix.kind, 'edit');
  return apply(text, (fix as Extract<QuickFix, { kind: 'edit' }>).changes);
}

describe('requestFiles/quickFixes', () => {
  it('matches on the diagnostic code: another code, or another source\'s, gets no fix', () => {
    const text = 'GET /api/x\nAuthorization: Bearer abc';
    const at = { line: 1, start: 0, end: 25 };
    assert.equal(quickFixesFor(text, parseRequestFile(text), { ...at, code: 'credentialHeader' }).length, 1);
    assert.deepEqual(quickFixesFor(text, parseRequestFile(text), { ...at, code: 'badUrl' }), []);
    assert.deepEqual(quickFixesFor(text, parseRequestFile(text), { ...at, code: 'Remove the header' }), []);
    assert.ok(DIAGNOSTIC_CODES.includes('credentialHeader'));
  });

  it('removes a credential header, and the warning goes', () => {
    const text = ['GET /api/x', 'Accept: application/json', 'Authorization: Bearer abc', 'X-Other: 1'].join('\n');
    const [fix] = fixesOf(text, 'credentialHeader');
    const after = edited(text, fix);
    assert.equal(after, ['GET /api/x', 'Accept: application/json', 'X-Other: 1'].join('\n'));
    assert.deepEqual(diagnose(after), []);
    // The last line of the file takes the line break before it.
    const last = 'GET /api/x\nAuthorization-Key: k';
    assert.equal(edited(last, fixesOf(last, 'credentialHeader')[0]), 'GET /api/x');
  });

  it('defines an unknown variable above the request, cursor after "= ", and the warning goes', () => {
    const text = ['GET /api/a', '###', '# @name b', 'GET /api/x?p={{page}}'].join('\n');
    const [fix] = fixesOf(text, 'unknownVariable');
    assert.equal(fix.kind, 'edit');
    const after = edited(text, fix);
    assert.equal(after, ['GET /api/a', '###', '@page = ', '# @name b', 'GET /api/x?p={{page}}'].join('\n'));
    assert.deepEqual((fix as Extract<QuickFix, { kind: 'edit' }>).cursor, { line: 2, character: 8 });
    assert.deepEqual(diagnose(after), []);
    assert.equal(parseRequestFile(after).requests[1].name, 'b', 'the request keeps its name');
  });

  it('names an unknown method as such and changes it to the closest one', () => {
    const text = ['@tenant = RC-MI', '  GETT /v10/user-tenants HTTP/1.1', 'Accept: application/json'].join('\n');
    const [diagnostic] = diagnose(text).filter((item) => item.code === 'unknownMethod');
    assert.equal(diagnostic.message, 'Unknown method "GETT": did you mean GET? The request line is METHOD URL.');
    assert.deepEqual([diagnostic.line, diagnostic.start, diagnostic.end, diagnostic.severity], [1, 2, 6, 'error']);
    const [fix] = fixesOf(text, 'unknownMethod');
    assert.equal(fix.title, 'Change GETT to GET');
    const after = edited(text, fix);
    assert.equal(after.split('\n')[1], '  GET /v10/user-tenants HTTP/1.1');
    assert.deepEqual(diagnose(after).filter((item) => item.code === 'unknownMethod'), []);
    // A word far from every method gets the list, and no fix.
    const far = 'FROBNICATE /v10/user-tenants';
    assert.match(diagnose(far)[0].message, /^Unknown method "FROBNICATE": the request line is METHOD URL, with GET, POST/);
    assert.deepEqual(fixesOf(far, 'unknownMethod'), []);
  });

  it('inserts the missing ### above a request that follows another, its comments and variables included', () => {
    const text = ['GET /v10/user-tenants', '', '# the configuration', '# @name conf', 'GET /api/configurazioni'].join('\n');
    const [diagnostic] = diagnose(text).filter((item) => item.code === 'missingSeparator');
    assert.deepEqual([diagnostic.line, diagnostic.severity], [4, 'warning']);
    const [fix] = fixesOf(text, 'missingSeparator');
    const after = edited(text, fix);
    assert.equal(after, ['GET /v10/user-tenants', '', '###', '# the configuration', '# @name conf', 'GET /api/configurazioni'].join('\n'));
    assert.deepEqual(diagnose(after).filter((item) => item.code === 'missingSeparator'), []);
    assert.equal(parseRequestFile(after).requests[1].name, 'conf');
  });

  it('converts a cURL command written where a request line goes, its continuation lines included, and says what it dropped', () => {
    const text = ['# @name conf', "curl 'https://api.example.com/api/configurazioni?pagina=1' \\", "  -H 'Accept: application/json' \\", "  -H 'Authorization: Bearer abc'", '', '###', 'GET /v10/user-tenants'].join('\n');
    const [diagnostic] = diagnose(text).filter((item) => item.code === 'curlCommand');
    assert.deepEqual([diagnostic.line, diagnostic.severity], [1, 'error']);
    const [fix] = fixesOf(text, 'curlCommand');
    assert.equal(fix.title, 'Convert the cURL command to a request');
    const after = edited(text, fix);
    assert.equal(after, ['# @name conf', 'GET https://api.example.com/api/configurazioni?pagina=1', 'Accept: application/json', '', '###', 'GET /v10/user-tenants'].join('\n'));
    assert.deepEqual((fix as Extract<QuickFix, { kind: 'edit' }>).notes, ['The header Authorization was dropped: the extension signs in and adds the token, licence key and tenant itself.']);
    assert.equal(parseRequestFile(after).requests[0].name, 'conf');
    assert.deepEqual(diagnose(after).filter((item) => item.code === 'curlCommand'), []);
  });

  it('offers one of the user\'s tenants in place of an unknown one: the metadata, the variable, or a new line', () => {
    const metadata = '# @tenant XX-YY\nGET /efat/api/v1/ditte';
    const [fix] = fixesOf(metadata, 'unknownTenant');
    assert.equal(fix.kind, 'pickTenant');
    const pick = fix as Extract<QuickFix, { kind: 'pickTenant' }>;
    const after = apply(metadata, [{ range: pick.range, newText: `${pick.before}RC-MI${pick.after}` }]);
    assert.equal(after, '# @tenant RC-MI\nGET /efat/api/v1/ditte');
    assert.deepEqual(diagnose(after), []);

    const variable = '@tenant = nope  \nGET /efat/api/v1/ditte';
    const [onVariable] = fixesOf(variable, 'unknownTenant') as Array<Extract<QuickFix, { kind: 'pickTenant' }>>;
    assert.deepEqual(onVariable.range, { line: 0, start: 10, endLine: 0, end: 14 });
  });

  it('proposes a route rule for the first segment of a path no route serves', () => {
    const [fix] = fixesOf('GET /nowhere/a/b?x=1', 'noRoute');
    assert.deepEqual(fix, { kind: 'addRoute', title: 'Add a route rule for /nowhere/ to tenantApi.routes…', path: '/nowhere/a/b', prefix: '/nowhere/', preferred: true });
  });

  it('points at the exact character where the JSON breaks, and repairs trailing commas', () => {
    const text = ['POST /api/x', 'Content-Type: application/json', '', '{', '  "a": [1, 2,],', '  "b": "{{id}}",', '  "c": {{count}},', '}'].join('\n');
    const [diagnostic] = diagnose(text).filter((item) => item.code === 'malformedJson');
    assert.deepEqual([diagnostic.line, diagnostic.start, diagnostic.end], [4, 13, 14], 'the "]" after the trailing comma');
    assert.match(diagnostic.message, /line 5, column 14/);
    const fixes = quickFixesFor(text, parseRequestFile(text), diagnostic);
    assert.deepEqual(fixes.map((fix) => fix.kind), ['edit', 'reveal']);
    assert.deepEqual((fixes[1] as Extract<QuickFix, { kind: 'reveal' }>).range, { line: 4, start: 13, endLine: 4, end: 14 });
    const after = edited(text, fixes[0]);
    assert.equal(after.split('\n').slice(3).join('\n'), '{\n  "a": [\n    1,\n    2\n  ],\n  "b": "{{id}}",\n  "c": {{count}}\n}');
    assert.deepEqual(diagnose(after).filter((item) => item.code === 'malformedJson'), []);
  });

  it('offers only to show the error when the JSON is broken otherwise', () => {
    const text = 'POST /api/x\nContent-Type: application/json\n\n{"a" 1}';
    assert.deepEqual(fixesOf(text, 'malformedJson').map((fix) => fix.kind), ['reveal']);
  });

  it('leaves commas inside strings alone', () => {
    assert.equal(withoutTrailingCommas('{"a": ",}", "b": [1,],}'), '{"a": ",}", "b": [1]}');
    assert.equal(withoutTrailingCommas('{"a": "\\",]",}'), '{"a": "\\",]"}');
    assert.equal(formatJsonBody('{"a": 1,}'), undefined);
    assert.equal(formatJsonBody('{"k{{x}}": "{{y}}-{{z}}"}'), '{\n  "k{{x}}": "{{y}}-{{z}}"\n}');
  });
});
