import * as assert from 'node:assert/strict';
import { apiErrors } from '../../../src/api/errors';
import { RouteTable } from '../../../src/api/routes';
import { TenantResolver } from '../../../src/api/tenantResolver';
import type { ApiRequest, ApiResponse } from '../../../src/api/types';
import { parseRequestFile } from '../../../src/engine/parser';
import { RequestFileRunner } from '../../../src/engine/runner';
import { defaultSystemContext } from '../../../src/engine/systemVariables';
import { dependencyNames, plannedCalls, selectTests, testCasesOf, writesAny } from '../../../src/engine/testing/testPlan';
import { countVerdicts, verdictOf } from '../../../src/engine/testing/testVerdict';

function answer(request: ApiRequest, status: number, body: unknown): ApiResponse {
  const bodyText = JSON.stringify(body);
  return {
    method: String(request.method),
    url: `http://127.0.0.1:4402${request.path}`,
    status,
    statusText: '',
    headers: { 'content-type': 'application/json' },
    bodyText,
    json: body,
    timeMs: 12,
    sizeBytes: bodyText.length,
    requestHeaders: {},
    attempts: 1,
    warnings: [],
  };
}

/** A runner whose client answers each path from `answers` (an Error is thrown as the client would). */
function runnerWith(answers: Record<string, { status: number; body: unknown } | Error>) {
  const routes = new RouteTable();
  const sent: string[] = [];
  const runner = new RequestFileRunner({
    sender: {
      api: {
        routeFor: (path) => routes.match(path),
        send: async (request) => {
          sent.push(`${request.method} ${request.path}`);
          const found = answers[request.path.split('?')[0]];
          if (found instanceof Error) throw found;
          return answer(request, found?.status ?? 200, found?.body ?? {});
        },
      },
      tenants: new TenantResolver({ listed: () => [], tenants: async () => [], active: () => undefined, isSignedIn: () => true }),
      baseUrl: () => 'http://127.0.0.1:4402',
      fetch: fetch,
      timeoutMs: () => 1000,
    },
    environment: () => ({}),
    system: (lookup) => defaultSystemContext(lookup),
  });
  return { runner, sent, document: (text: string) => ({ key: 'file:///t.http', text, readBodyFile: () => '' }) };
}

const FILE = [
  '# @name login', // 0
  'POST /api/sessioni', // 1
  '', // 2
  '###', // 3
  'GET /api/configurazioni', // 4
  '?? status == 200', // 5
  '###', // 6
  '# @name item', // 7
  'GET /api/items/{{login.response.body.$.id}}', // 8
  '?? status == 200', // 9
  '?? body $.name == "Mario"', // 10
  '###', // 11
  'GET /api/free', // 12
].join('\n');

describe('engine/testing: request files as tests', () => {
  it('the tests of a file are its requests with assertions, by name or "line N", with their lines', () => {
    const tests = testCasesOf(parseRequestFile(FILE));
    assert.deepEqual(
      tests.map((test) => [test.id, test.label, test.index, test.startLine, test.requestLine, test.endLine, test.assertions]),
      [
        ['line:5', 'line 5', 1, 4, 4, 5, 1],
        ['name:item', 'item', 2, 7, 8, 10, 2],
      ],
    );
    assert.deepEqual(testCasesOf(parseRequestFile('GET /api/x\n###\nGET /api/y')), [], 'no assertion, no test');
  });

  it('selects tests by id in file order, and every test without ids', () => {
    const file = parseRequestFile(FILE);
    assert.deepEqual(selectTests(file).map((request) => request.index), [1, 2]);
    assert.deepEqual(selectTests(file, new Set(['name:item'])).map((request) => request.index), [2]);
    assert.deepEqual(selectTests(file, new Set(['line:13'])).map((request) => request.index), [], 'a request without assertions is no test');
  });

  it('plans the calls of a run: each test in file order, the requests it reads first, each once', () => {
    const { runner } = runnerWith({});
    const file = parseRequestFile(FILE);
    const sources = { ...runner.sources('file:///t.http', file), result: () => undefined };
    assert.deepEqual(dependencyNames(file.requests[2], sources), ['login']);
    const calls = plannedCalls(file, [file.requests[2], file.requests[1]], (request) => dependencyNames(request, sources));
    assert.deepEqual(calls.map((request) => request.index), [1, 0, 2]);
    assert.equal(writesAny(calls), true, 'the chained POST counts');
    assert.equal(writesAny(plannedCalls(file, [file.requests[1]], (request) => dependencyNames(request, sources))), false);
    // Through a file variable and an assertion's expected value; a loop ends.
    const chained = parseRequestFile(
      ['@id = {{a.response.body.$.id}}', '# @name a', 'GET /api/a?x={{b.response.body.$.x}}', '###', '# @name b', 'GET /api/b?y={{a.response.body.$.y}}', '###', 'GET /api/c/{{id}}', '?? body $.id == {{b.response.body.$.id}}'].join('\n'),
    );
    const chainedSources = { ...runner.sources('file:///c.http', chained), result: () => undefined };
    assert.deepEqual(dependencyNames(chained.requests[2], chainedSources).sort(), ['a', 'b']);
    assert.deepEqual(plannedCalls(chained, [chained.requests[2]], (request) => dependencyNames(request, chainedSources)).map((request) => request.index), [1, 0, 2]);
  });

  it('a test sent before as another\'s dependency is sent again as itself, as the runner does', () => {
    const file = parseRequestFile(['GET /api/x?id={{b.response.body.$.id}}', '?? status == 200', '###', '# @name b', 'GET /api/b', '?? status == 200'].join('\n'));
    const calls = plannedCalls(file, selectTests(file), (request) => (request.index === 0 ? ['b'] : []));
    assert.deepEqual(calls.map((request) => request.index), [1, 0, 1]);
  });

  it('passes when every assertion passes, fails at each failed assertion\'s line with which value was expected and found (a single value is no diff)', async () => {
    const { runner, document } = runnerWith({ '/api/configurazioni': { status: 200, body: {} }, '/api/items/7': { status: 200, body: { name: 'Luigi', n: 1 } }, '/api/sessioni': { status: 201, body: { id: 7 } } });
    const passed = verdictOf(await runner.send(document(FILE), 1), false);
    assert.deepEqual(passed, { kind: 'passed', durationMs: 12 });
    const failed = verdictOf(await runner.send(document(FILE), 2), false);
    assert.equal(failed.kind, 'failed');
    assert.deepEqual(failed.kind === 'failed' && failed.failures, [
      { line: 10, message: 'body $.name: expected "Mario", found Luigi', expected: '"Mario"', actual: 'Luigi', diff: false },
    ]);
  });

  it('a body compared whole is shown as a diff of pretty JSON; a status is not', async () => {
    const text = 'GET /api/x\n?? body == {"a":1,"b":[1,2]}\n?? status == 201';
    const { runner, document } = runnerWith({ '/api/x': { status: 200, body: { a: 1, b: [1, 3] } } });
    const verdict = verdictOf(await runner.send(document(text), 0), false);
    assert.ok(verdict.kind === 'failed');
    assert.deepEqual(
      verdict.failures.map((failure) => [failure.line, failure.diff, failure.expected, failure.actual]),
      [
        [1, true, '{\n  "a": 1,\n  "b": [\n    1,\n    2\n  ]\n}', '{\n  "a": 1,\n  "b": [\n    1,\n    3\n  ]\n}'],
        [2, false, '201', '200'],
      ],
    );
  });

  it('an answer the client took as an error still decides by the assertions (?? status == 404 passes)', async () => {
    const { runner, document } = runnerWith({ '/api/gone': { status: 404, body: { error: 'no' } } });
    const verdict = verdictOf(await runner.send(document('GET /api/gone\n?? status == 404'), 0), false);
    assert.equal(verdict.kind, 'passed');
  });

  it('no answer (sign-in, licence, network) is errored with the sentence that says what to do, at the request line', async () => {
    const { runner, document } = runnerWith({ '/api/x': apiErrors.licenceMissing('core') });
    const verdict = verdictOf(await runner.send(document('# c\nGET /api/x\n?? status == 200'), 0), false);
    assert.deepEqual(verdict, { kind: 'errored', message: 'No licence key is set for the module "core". Set one with "Tenant API: Set Licence Key".', line: 1, errorKind: 'licenceMissing' });
    const signedOut = runnerWith({ '/api/x': apiErrors.signInRequired() });
    const again = verdictOf(await signedOut.runner.send(signedOut.document('GET /api/x\n?? status == 200'), 0), false);
    assert.ok(again.kind === 'errored' && /Sign in/.test(again.message));
  });

  it('a failed chained request errors the test that reads it', async () => {
    const { runner, document } = runnerWith({ '/api/sessioni': apiErrors.network('refused', {}) });
    const verdict = verdictOf(await runner.send(document(FILE), 2), false);
    assert.ok(verdict.kind === 'errored', JSON.stringify(verdict));
    assert.match(verdict.message, /^item needs login, which failed: The server could not be reached: refused/);
  });

  it('cancelled or declined is skipped, never passed: even an answer that came after Cancel', async () => {
    const { runner, document } = runnerWith({ '/api/x': apiErrors.cancelled() });
    assert.deepEqual(verdictOf(await runner.send(document('GET /api/x\n?? status == 200'), 0), false), { kind: 'skipped', reason: 'The call was cancelled.' });
    const declined = runnerWith({ '/api/x': apiErrors.notConfirmed('prod') });
    const verdict = verdictOf(await declined.runner.send(declined.document('POST /api/x\n?? status == 200'), 0), false);
    assert.equal(verdict.kind, 'skipped');
    const late = runnerWith({ '/api/x': { status: 200, body: {} } });
    assert.equal(verdictOf(await late.runner.send(late.document('GET /api/x\n?? status == 200'), 0), true).kind, 'skipped');
  });

  it('counts the verdicts of a run', () => {
    assert.deepEqual(countVerdicts([{ kind: 'passed' }, { kind: 'skipped' }, { kind: 'passed' }, { kind: 'failed', failures: [] }]), { passed: 2, failed: 1, errored: 0, skipped: 1 });
  });
});
