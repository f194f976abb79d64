import * as assert from 'node:assert/strict';
import type { RunOutcome } from '../../../src/engine/runner';
import { historyEntryOf } from '../../../src/requestFiles/vscode/fileHistory';
import { sendAllTable } from '../../../src/requestFiles/vscode/sendAllTable';

describe('the Send All summary table', () => {
  const rows = [
    { label: 'conf', title: 'GET conf · Rossi · 200', status: 200, timeMs: 35.4, sizeBytes: 1234, document: 'tenant-api-response:/1/a' },
    { label: 'line 5', title: 'GET ditte | x · RC-TO · 404', status: 404, timeMs: 8, sizeBytes: 12, document: 'tenant-api-response:/2/b' },
    { label: 'line 9', status: undefined, error: { message: 'The tenant XX is not\none of yours' } },
  ];

  it('has a row per request with its status, time and size, right-aligned', () => {
    const { text } = sendAllTable('Send All: a.http', '3 requests: 1 × 200, 1 × 404, 1 not sent', rows, 'en');
    const lines = text.split('\n');
    assert.equal(lines[0], '# Send All: a.http');
    assert.equal(lines[2], '3 requests: 1 × 200, 1 × 404, 1 not sent');
    assert.equal(lines[4], '| Status |  Time |   Size | Request |');
    assert.equal(lines[5], '| -----: | ----: | -----: | --- |');
    assert.equal(lines[6], '|    200 | 35 ms | 1.2 KB | GET conf · Rossi · 200 |');
    assert.equal(lines[7], '|    404 |  8 ms |   12 B | GET ditte / x · RC-TO · 404 |');
    assert.equal(lines[8], '|      — |       |        | line 9 — The tenant XX is not one of yours |');
  });

  it('links the title of each row that got a response to that response, and no other text', () => {
    const { text, links } = sendAllTable('h', 's', rows, 'en');
    const lines = text.split('\n');
    assert.deepEqual(links.map((link) => [lines[link.line].slice(link.start, link.end), link.document]), [
      ['GET conf · Rossi · 200', 'tenant-api-response:/1/a'],
      ['GET ditte / x · RC-TO · 404', 'tenant-api-response:/2/b'],
    ]);
  });
});

describe('the Send All summary table with assertions', () => {
  const result = (passed: boolean) => ({ line: 3, text: '?? status == 200', passed, actual: passed ? '200' : '404', expected: '200', message: '' });
  const rows = [
    { label: 'ok', status: 200, timeMs: 5, sizeBytes: 10, assertions: [result(true), result(true)] },
    { label: 'bad', status: 404, timeMs: 5, sizeBytes: 10, assertions: [result(true), result(false)] },
    { label: 'none', status: 200, timeMs: 5, sizeBytes: 10 },
  ];

  it('counts each request\'s passed and failed assertions in a column of their own', () => {
    const lines = sendAllTable('h', 's', rows, 'en').text.split('\n');
    assert.equal(lines[4], '| Status | Time | Size | Assertions         | Request |');
    assert.equal(lines[5], '| -----: | ---: | ---: | ------------------ | --- |');
    assert.equal(lines[6], '|    200 | 5 ms | 10 B | 2 passed           | ok |');
    assert.equal(lines[7], '|    404 | 5 ms | 10 B | 1 passed, 1 failed | bad |');
    assert.equal(lines[8], '|    200 | 5 ms | 10 B |                    | none |');
  });
});

describe('a request file\'s send in the request history', () => {
  const outcome = (overrides: Record<string, unknown> = {}) =>
    ({
      label: 'x',
      dependencies: [],
      request: {},
      prepared: { method: 'POST', target: { kind: 'path', path: '/efat/api/v1/ditte?pagina=2&q=a' }, headers: { 'X-Trace': '1' }, body: '{"a":1}', secrets: [] },
      sent: { tenant: { id: 't-mi', descrizioneAmbienteDati: 'Milano' }, response: { url: 'https://c1/efat/api/v1/ditte?pagina=2&q=a', status: 201, timeMs: 12 } },
      ...overrides,
    }) as unknown as RunOutcome;

  it('is an entry as Send Request keeps it: path and query apart, tenant, body, headers, status', () => {
    assert.deepEqual(historyEntryOf(outcome(), 5), {
      method: 'POST',
      path: '/efat/api/v1/ditte',
      query: { pagina: '2', q: 'a' },
      body: '{"a":1}',
      headers: { 'X-Trace': '1' },
      tenantId: 't-mi',
      tenantLabel: 'Milano',
      url: 'https://c1/efat/api/v1/ditte?pagina=2&q=a',
      status: 201,
      timeMs: 12,
      at: 5,
    });
  });

  it('keeps no entry that would store a value the file keeps secret, none for a URL outside the platform, none when nothing was prepared', () => {
    const secret = outcome({ prepared: { method: 'GET', target: { kind: 'path', path: '/a?token=s3cret-value' }, headers: {}, secrets: ['s3cret-value'] } });
    assert.equal(historyEntryOf(secret), undefined);
    assert.equal(historyEntryOf(outcome({ prepared: { method: 'GET', target: { kind: 'absolute', url: new URL('https://x/y') }, headers: {}, secrets: [] } })), undefined);
    assert.equal(historyEntryOf(outcome({ prepared: undefined })), undefined);
  });

  it('records the error kind of a request that failed', () => {
    const failed = outcome({ sent: undefined, error: { kind: 'tenant', message: 'The tenant…' } });
    assert.equal(historyEntryOf(failed)?.error, 'tenant');
    assert.equal(historyEntryOf(failed)?.status, undefined);
  });
});
