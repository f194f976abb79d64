// The run's data and its reports: how a request is judged, the JUnit XML (read back element by element
// as a JUnit reader would) and the JSON report, with what a server echoed masked.
import * as assert from 'node:assert/strict';
import { jsonReport } from '../../../src/cli/jsonReport';
import { junitXml } from '../../../src/cli/junitReport';
import { exitReasons, requestReport, verdictOf, type RequestReport, type RunReport } from '../../../src/cli/report';
import { registerSecret } from '../../../src/common/redact';
import type { AssertionResult } from '../../../src/engine/assertions/evaluateAssertion';
import type { RunOutcome } from '../../../src/engine/runner';
import { elements, parseXml, xmllint } from '../../helpers/xmlCheck';
import { junitSchemaErrors, markdownTables, readHtml } from '../../helpers/reportReaders';
import { htmlReport } from '../../../src/cli/htmlReport';
import { markdownReport } from '../../../src/cli/markdownReport';

const assertion = (passed: boolean, text = '?? status == 200', actual = '200'): AssertionResult => ({
  line: 3,
  text,
  passed,
  actual,
  expected: '200',
  message: passed ? 'status == 200' : `status: expected 200, found ${actual}`,
});

function outcome(status: number | undefined, assertions?: AssertionResult[], error?: string): RunOutcome {
  const response = status === undefined ? undefined : ({ status, statusText: status < 400 ? 'OK' : 'Not Found', timeMs: 12 } as never);
  return {
    request: { requestLine: 1, method: 'GET', url: '/api/x' } as never,
    label: 'x',
    dependencies: [],
    ...(error ? { error: { kind: status ? 'http' : 'network', message: error, response } } : { sent: { response } as never }),
    ...(assertions ? { assertions } : {}),
  };
}

const request = (name: string, verdict: RequestReport['verdict'], extra: Partial<RequestReport> = {}): RequestReport => ({
  name,
  line: 2,
  method: 'GET',
  url: '/api/configurazioni?a=1&b=<2>',
  status: 200,
  timeMs: 1234,
  startedAt: 0,
  verdict,
  assertions: [],
  calls: 1,
  ...extra,
});

const run: RunReport = {
  environment: 'Sandbox',
  startedAt: Date.UTC(2026, 10, 25, 0, 0, 0),
  timeMs: 2500,
  calls: 4,
  files: [
    {
      file: 'tests/one.http',
      timeMs: 2000,
      requests: [
        request('ok', 'passed'),
        request('"quoted" & <odd>\u0001', 'assertionFailed', { assertions: [assertion(true), assertion(false, '?? body $.name == "a&b"', '<none>')] }),
        request('broken', 'requestFailed', { status: 404, error: 'The server answered 404 Not Found' }),
      ],
    },
    { file: 'tests/two.http', timeMs: 0, requests: [request('later', 'notRun', { status: undefined, timeMs: 0 })] },
  ],
};

describe('tenant-api reports', () => {
  it('names a request by the URL it sent (variables filled, secret values masked), else as written', () => {
    const sent = { ...outcome(200), prepared: { target: { kind: 'path', path: '/api/x?page=3&key=s3cr3t' }, secrets: ['s3cr3t'] } } as unknown as RunOutcome;
    assert.equal(requestReport(sent, 0, 1).url, '/api/x?page=3&key=***');
    assert.equal(requestReport(outcome(undefined, undefined, 'no answer'), 0, 1).url, '/api/x');
  });

  it('judges a request by its assertions when it has some, else by its answer', () => {
    assert.equal(verdictOf(outcome(200)), 'passed');
    assert.equal(verdictOf(outcome(404, undefined, 'The server answered 404')), 'requestFailed');
    assert.equal(verdictOf(outcome(404, [assertion(true)], 'The server answered 404')), 'passed', 'an expected 404 passes');
    assert.equal(verdictOf(outcome(200, [assertion(true), assertion(false)])), 'assertionFailed');
    assert.equal(verdictOf(outcome(undefined, [assertion(false)], 'did not answer')), 'requestFailed', 'no answer: the assertions could not run');
    assert.equal(verdictOf(outcome(500)), 'requestFailed');
  });

  it('masks in a request report what a server echoed back', () => {
    registerSecret('TOPSECRET-echoed-123');
    const report = requestReport(outcome(200, [assertion(false, '?? body $.token == 1', 'TOPSECRET-echoed-123')], undefined), 0, 5);
    assert.ok(!JSON.stringify(report).includes('TOPSECRET-echoed-123'), JSON.stringify(report));
  });

  it('gives the exit reasons of the requests and of a guard that stopped the run', () => {
    assert.deepEqual(exitReasons(run), ['assertionFailed', 'requestFailed']);
    assert.deepEqual(exitReasons({ ...run, stopped: { reason: 'quota', message: 'stop' } }).at(-1), 'quotaGuard');
    assert.deepEqual(exitReasons({ ...run, stopped: { reason: 'bail', message: 'stop' } }), ['assertionFailed', 'requestFailed']);
  });

  it('writes JUnit XML that reads back with one testsuite per file, one testcase per request, and the right counts', () => {
    const xml = junitXml(run);
    const root = parseXml(xml);
    assert.equal(root.name, 'testsuites');
    assert.deepEqual(
      { tests: root.attributes.tests, failures: root.attributes.failures, errors: root.attributes.errors, skipped: root.attributes.skipped, time: root.attributes.time },
      { tests: '4', failures: '1', errors: '1', skipped: '1', time: '2.500' },
    );
    const suites = elements(root, 'testsuite');
    assert.deepEqual(suites.map((suite) => [suite.attributes.name, suite.attributes.tests, elements(suite, 'testcase').length]), [
      ['tests/one.http', '3', 3],
      ['tests/two.http', '1', 1],
    ]);
    assert.equal(suites[0].attributes.timestamp, '2026-11-25T00:00:00');
    const [passed, failed, broken] = elements(suites[0], 'testcase');
    assert.equal(passed.children.length, 0);
    assert.equal(passed.attributes.time, '1.234');
    assert.equal(failed.attributes.name, '"quoted" & <odd>\uFFFD: GET /api/configurazioni?a=1&b=<2>', 'special characters survive, a control character is replaced');
    const failure = elements(failed, 'failure')[0];
    assert.equal(failure.attributes.type, 'assertion');
    assert.match(failure.text, /\?\? body \$\.name == "a&b"\n {2}expected: 200\n {2}actual: <none>/);
    assert.equal(elements(broken, 'error')[0].attributes.message, 'The server answered 404 Not Found');
    assert.equal(elements(suites[1], 'skipped').length, 1);
    const lint = xmllint(xml);
    if (lint) assert.ok(lint.ok, lint.output);
  });

  it('writes a JSON report with the counts, the exit code and every request', () => {
    const parsed = JSON.parse(jsonReport(run, 'requestFailed'));
    assert.equal(parsed.exitCode, 3);
    assert.deepEqual([parsed.total, parsed.passed, parsed.failed, parsed.notRun], [4, 1, 2, 1]);
    assert.equal(parsed.startedAt, '2026-11-25T00:00:00.000Z');
    assert.deepEqual(parsed.files.map((file: { file: string; total: number }) => [file.file, file.total]), [['tests/one.http', 3], ['tests/two.http', 1]]);
    assert.equal(parsed.files[0].requests[1].assertions[1].actual, '<none>');
  });
});

describe('tenant-api reports of a matrix', () => {
  const matrix: RunReport = {
    ...run,
    tenants: ['RC-MI', 'BA-PR'],
    data: { file: 'rows.csv', rows: 2 },
    quota: [{ organization: 'ROSSI', calls: 3, used: 40, limit: 10000 }, { organization: 'BIANCHI', calls: 1 }],
    statistics: { calls: 5, retries: 1, rateLimitWaits: 2, rateLimitWaitMs: 800, answers429: 1 },
    files: [
      {
        file: 'm.http',
        timeMs: 900,
        requests: [
          request('ditte', 'passed', { tenant: 'RC-MI', row: { number: 1, label: 'small | pipe' } }),
          request('ditte', 'skipped', { tenant: 'BA-PR', row: { number: 1 }, status: undefined, reason: 'No licence key of the module "efat" for the tenant BA-PR: set TENANT_API_KEY_EFAT_BIANCHI' }),
          request('conf', 'assertionFailed', { tenant: 'RC-MI', row: { number: 2 }, assertions: [assertion(false, '?? body $.a == <b>', 'x\ny')] }),
        ],
      },
    ],
  };

  it('JUnit: one case per request x tenant x row named with both, a skipped tenant with its reason, the figures as properties, valid against the schema', async () => {
    const xml = junitXml(matrix);
    assert.deepEqual(await junitSchemaErrors(xml), []);
    assert.notDeepEqual(await junitSchemaErrors(xml.replace('<properties>', '<properties extra="1">')), [], 'the schema is strict');
    const root = parseXml(xml);
    assert.deepEqual(elements(root, 'testcase').map((testcase) => testcase.attributes.name.split(':')[0]), ['ditte [RC-MI] #1 small | pipe', 'ditte [BA-PR] #1', 'conf [RC-MI] #2']);
    assert.match(elements(root, 'skipped')[0].attributes.message, /TENANT_API_KEY_EFAT_BIANCHI/);
    const properties = Object.fromEntries(elements(root, 'property').map((property) => [property.attributes.name, property.attributes.value]));
    assert.equal(properties['quota.ROSSI'], '3 calls, 40/10000 this week');
    assert.equal(properties['quota.BIANCHI'], '1 calls');
    assert.equal(properties['client.answers429'], '1');
    assert.equal(properties.data, 'rows.csv (2 rows)');
  });

  it('Markdown: the figures, then every case, failures first, cells that never break the table', () => {
    const [figures, cases] = markdownTables(markdownReport(matrix, 'assertionFailed'));
    assert.ok(figures.some((row) => row.Figure === 'tenants' && row.Value === 'RC-MI, BA-PR'));
    assert.deepEqual(cases.map((row) => [row.Result, row.Request, row.Tenant, row.Row]), [
      ['❌ failed', 'conf', 'RC-MI', '2'],
      ['⏭️ skipped', 'ditte', 'BA-PR', '1'],
      ['✅ passed', 'ditte', 'RC-MI', '1 small | pipe'],
    ]);
    assert.equal(cases[0].Details, '?? body $.a == &lt;b&gt;: expected 200, found x<br>y');
  });

  it('HTML: a document with no parse error and nothing from outside, failures first, a filter per result and per tenant', () => {
    const html = readHtml(htmlReport(matrix, 'assertionFailed'));
    assert.deepEqual(html.errors, []);
    assert.deepEqual(html.externalReferences, []);
    const classes = html.elements.filter((element) => element.tagName === 'tr').map((element) => element.attrs.find((attribute) => attribute.name === 'class')?.value).filter(Boolean);
    assert.deepEqual(classes, ['failed t-0', 'skipped t-1', 'passed t-0']);
    assert.deepEqual(html.elements.filter((element) => element.tagName === 'input').map((element) => element.attrs.find((attribute) => attribute.name === 'id')?.value), ['v-all', 'v-failed', 'v-skipped', 'v-passed', 't-all', 't-0', 't-1']);
    const style = html.elements.find((element) => element.tagName === 'style')!;
    assert.match((style.childNodes[0] as unknown as { value: string }).value, /#t-1:checked~table\.cases tbody tr:not\(\.t-1\)/);
    assert.match(html.text, /BIANCHI/);
    assert.ok(readHtml(htmlReport(matrix, 'passed').replace('</head>', '<script src="x.js"></script></head>')).externalReferences.length > 0, 'the reader sees a script');
  });
});
