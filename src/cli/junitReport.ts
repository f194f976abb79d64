/**
 * The run as JUnit XML, in the shape GitLab, Jenkins and GitHub's test reporters read: one testsuite
 * per file, one testcase per request x tenant x data row; each failed assertion is a <failure> with
 * what was expected and what was found, a request that failed otherwise is an <error>, a tenant
 * without a licence key or a request the run did not reach is <skipped> with the reason. Each
 * testsuite carries the run's figures as <properties> (environment, tenants, duration, quota spent
 * per organization, calls, retries, waits, 429 answers). Times in seconds. Pure.
 */
import type { FileReport, RequestReport, RunReport } from './report';
import { caseName, counts } from './report';
import { runFigures } from './runFigures';

// XML 1.0 allows tab, newline, carriage return and the characters from U+0020 on (bar the surrogates and U+FFFE/F).
const INVALID_XML = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function escapeXml(text: string): string {
  return text
    .replace(INVALID_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function attributes(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([name, value]) => ` ${name}="${escapeXml(String(value))}"`)
    .join('');
}

function testcaseName(request: RequestReport): string {
  const target = `${request.method} ${request.url}`;
  const name = caseName(request);
  return request.name === target ? [target, name.slice(request.name.length).trim()].filter(Boolean).join(' ') : `${name}: ${target}`;
}

function outcomeElement(request: RequestReport): string {
  switch (request.verdict) {
    case 'passed':
      return '';
    case 'notRun':
      return `\n      <skipped${attributes({ message: request.reason ?? 'not run' })}/>`;
    case 'skipped':
      return `\n      <skipped${attributes({ message: request.reason ?? 'skipped' })}/>`;
    case 'assertionFailed':
      return request.assertions
        .filter((assertion) => !assertion.passed)
        .map((assertion) => {
          const body = `${assertion.text}\n  expected: ${assertion.expected}\n  actual: ${assertion.actual}\n  line: ${assertion.line + 1}`;
          return `\n      <failure${attributes({ message: assertion.message, type: 'assertion' })}>${escapeXml(body)}</failure>`;
        })
        .join('');
    case 'requestFailed': {
      const message = request.error ?? (request.status !== undefined ? `HTTP ${request.status}` : 'failed');
      const body = request.status !== undefined ? `expected: a status below 400\nactual: ${request.status}` : message;
      return `\n      <error${attributes({ message, type: 'request' })}>${escapeXml(body)}</error>`;
    }
  }
}

function testcase(file: FileReport, request: RequestReport): string {
  const open = `    <testcase${attributes({ name: testcaseName(request), classname: file.file, file: file.file, line: request.line, time: seconds(request.timeMs) })}`;
  const inner = outcomeElement(request);
  return inner ? `${open}>${inner}\n    </testcase>` : `${open}/>`;
}

function tally(requests: readonly RequestReport[]) {
  const c = counts(requests);
  const failures = requests.filter((request) => request.verdict === 'assertionFailed').length;
  return { tests: c.total, failures, errors: c.failed - failures, skipped: c.notRun + c.skipped };
}

function properties(report: RunReport): string {
  const rows = runFigures(report).map(([name, value]) => `      <property${attributes({ name, value })}/>`);
  return `    <properties>\n${rows.join('\n')}\n    </properties>`;
}

function testsuite(file: FileReport, report: RunReport): string {
  const head = `  <testsuite${attributes({ name: file.file, ...tally(file.requests), time: seconds(file.timeMs), timestamp: new Date(report.startedAt).toISOString().replace(/\.\d+Z$/, '') })}>`;
  return [head, properties(report), ...file.requests.map((request) => testcase(file, request)), '  </testsuite>'].join('\n');
}

export function junitXml(report: RunReport): string {
  const all = report.files.flatMap((file) => file.requests);
  const suites = report.files.map((file) => testsuite(file, report));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: 'tenant-api', ...tally(all), time: seconds(report.timeMs) })}>`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
