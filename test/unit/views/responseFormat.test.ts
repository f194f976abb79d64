import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { REDACTED, registerSecret } from '../../../src/common/redact';
import { formatBytes, formatCompactJson, formatDuration, formatResponse, type ResponseLike } from '../../../src/views/responseFormat';

function response(overrides: Partial<ResponseLike> = {}): ResponseLike {
  const bodyText = '{"ditte":[{"codice":"D1","ragioneSociale":"Rossi S.p.A."}]}';
  return {
    method: 'get',
    url: 'http://127.0.0.1:9/efat/api/v1/ditte?pagina=1',
    status: 200,
    statusText: 'OK',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'service-limit-info': 'api-usage=12/1000',
      'x-request-id': 'abc',
    },
    bodyText,
    json: JSON.parse(bodyText),
    timeMs: 42.4,
    sizeBytes: bodyText.length,
    ...overrides,
  };
}

function bodyOf(text: string): string {
  return text
    .split('\n')
    .filter((line) => !line.startsWith('//'))
    .join('\n');
}

describe('responseFormat', () => {
  it('puts method, URL, status, time, size and Service-Limit-Info in a comment block above the body', () => {
    const { text, languageId } = formatResponse(response(), { receivedAt: new Date(2026, 10, 22, 10, 0, 0).getTime() });
    const header = text.split('\n').filter((line) => line.startsWith('//'));
    assert.equal(header[0], '// GET http://127.0.0.1:9/efat/api/v1/ditte?pagina=1');
    assert.equal(header[1], '// 200 OK · 42 ms · 59 B · Nov 22, 2026, 10:00:00 AM', 'when it came, in the editor\'s locale and time zone');
    assert.match(formatResponse(response(), { receivedAt: new Date(2026, 10, 22, 15, 0, 0).getTime(), locale: 'it' }).text, /^\/\/ 200 OK · 42 ms · 59 B · 22 nov 2026, 15:00:00$/m);
    assert.ok(header.includes('// Service-Limit-Info: api-usage=12/1000'));
    assert.ok(header.includes('//   x-request-id: abc'));
    assert.equal(languageId, 'jsonc');
  });

  it('shows the request as sent between the context and the response headers, secret headers masked', () => {
    const request = {
      headers: {
        Accept: 'application/json',
        Authorization: 'Bearer eyJ.token-value.sig',
        'Authorization-Key': '*** (Rossi core)',
        'X-Api-Token': 'sekret-123',
        'User-Tenant': 't-mi',
      },
      bodyText: '{"descrizione":"Nuova"}\nsecond line',
    };
    const { text } = formatResponse(response({ method: 'POST' }), { context: ['Tenant: Rossi Milano (RC-MI) t-mi'], request });
    const header = text.split('\n').filter((line) => line.startsWith('//'));
    const start = header.indexOf('// Request headers');
    assert.ok(start > header.indexOf('// Tenant: Rossi Milano (RC-MI) t-mi'), header.join('\n'));
    assert.deepEqual(header.slice(start, start + 9), [
      '// Request headers',
      '//   Accept: application/json',
      '//   Authorization: [redacted]',
      '//   Authorization-Key: [redacted] (Rossi core)',
      '//   User-Tenant: t-mi',
      '//   X-Api-Token: [redacted]',
      '// Request body (35 B)',
      '//   {"descrizione":"Nuova"}',
      '//   second line',
    ]);
    assert.ok(header.indexOf('// Response headers') > start + 8);
    assert.ok(!text.includes('token-value') && !text.includes('sekret-123'));
    // A GET has no body line; a long body is cut.
    assert.ok(!formatResponse(response(), { request: { headers: {} } }).text.includes('Request body'));
    const long = formatResponse(response(), { request: { headers: {}, bodyText: 'x'.repeat(5000) } }).text;
    assert.match(long, /\/\/ {3}… 904 more characters/);
  });

  it('pretty-prints a JSON body so that it parses back to the same value', () => {
    const r = response();
    const { text, prettyPrinted } = formatResponse(r);
    assert.equal(prettyPrinted, true);
    const body = bodyOf(text);
    assert.ok(body.includes('\n  "ditte": [\n'));
    assert.deepEqual(JSON.parse(body), r.json);
  });

  it('parses a JSON body the client did not parse when the content type says JSON', () => {
    const r = response({ json: undefined });
    const { text, languageId } = formatResponse(r);
    assert.equal(languageId, 'jsonc');
    assert.ok(bodyOf(text).includes('\n  "ditte"'));
  });

  it('shows a non-JSON body as plain text, unchanged', () => {
    const r = response({ json: undefined, bodyText: '<html>oops</html>', headers: { 'content-type': 'text/html' } });
    const { text, languageId } = formatResponse(r);
    assert.equal(languageId, 'plaintext');
    assert.ok(text.endsWith('<html>oops</html>\n'));
    assert.ok(text.includes('// Service-Limit-Info: (missing)'));
  });

  it('does not pretty-print a body above the limit and says so', () => {
    const r = response();
    const { text, prettyPrinted, languageId } = formatResponse(r, { prettyPrintLimitBytes: 10, compactLayoutLimitBytes: 10 });
    assert.equal(prettyPrinted, false);
    assert.equal(languageId, 'jsonc');
    assert.ok(text.endsWith(r.bodyText + '\n'));
    assert.match(text, /without pretty-printing/);
  });

  it('does not parse a large body without a parsed value, but keeps JSON highlighting when it is declared JSON', () => {
    const r = response({ json: undefined });
    const { prettyPrinted, languageId } = formatResponse(r, { prettyPrintLimitBytes: 10, compactLayoutLimitBytes: 10 });
    assert.equal(prettyPrinted, false);
    assert.equal(languageId, 'jsonc');
  });

  it('keeps a header value with a line break on one comment line', () => {
    const { text } = formatResponse(response({ headers: { 'x-evil': 'a\n{"injected": true}' } }));
    assert.ok(text.includes('//   x-evil: a {"injected": true}'));
    assert.deepEqual(JSON.parse(bodyOf(text)), response().json);
  });

  it('lists warnings and retries', () => {
    const { text } = formatResponse(response({ warnings: ['Authorization was ignored'], attempts: 3 }));
    assert.ok(text.includes('// Warning: Authorization was ignored'));
    assert.ok(text.includes('// Sent 3 times (retried)'));
  });

  it('formats sizes and durations', () => {
    assert.equal(formatBytes(512), '512 B');
    assert.equal(formatBytes(1536), '1.5 KB');
    assert.equal(formatBytes(10 * 1024 * 1024), '10.0 MB');
    assert.equal(formatDuration(12.6), '13 ms');
    assert.equal(formatDuration(1530), '1.53 s');
  });

  it('lays out a large body with one record per line', () => {
    const rows = Array.from({ length: 200 }, (_, index) => ({ codice: `D${index}`, indirizzo: { comune: 'Milano' }, attiva: index % 2 === 0 }));
    const json = { pagina: 1, ditte: rows };
    const bodyText = JSON.stringify(json);
    const { text, prettyPrinted } = formatResponse(response({ bodyText, json, sizeBytes: bodyText.length }), { prettyPrintLimitBytes: 100 });
    assert.equal(prettyPrinted, true);
    const body = bodyOf(text);
    assert.deepEqual(JSON.parse(body), json);
    const lines = body.trimEnd().split('\n');
    assert.equal(lines.length, rows.length + 5);
    assert.equal(lines[3], '    {"codice":"D0","indirizzo":{"comune":"Milano"},"attiva":true},');
  });

  it('compact layout: parses back to the same value, and only values longer than a line are split', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 2, max: 80 }), (value, lineLength) => {
        const text = formatCompactJson(value, lineLength);
        assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(value)));
        for (const line of text.split('\n')) {
          const trimmed = line.trim().replace(/,$/, '');
          const isBracket = /^("(?:[^"\\]|\\.)*": )?[[{]$|^[\]}]$/.test(trimmed);
          if (!isBracket && trimmed.replace(/^"(?:[^"\\]|\\.)*": /, '').length > lineLength) {
            // Only a primitive may be longer than the line.
            const valuePart = trimmed.replace(/^"(?:[^"\\]|\\.)*": /, '');
            assert.ok(!/^[[{]/.test(valuePart), `a long container stayed on one line: ${line}`);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('compact layout matches JSON.stringify(value, null, 2) when every container is longer than a line', () => {
    const value = { a: [1, { b: 'x' }], c: { d: null, e: [] }, f: {} };
    assert.equal(formatCompactJson(value, 1), JSON.stringify(value, null, 2));
  });
});

describe('response tab header block and secrets', () => {
  it('redacts a token or licence key that the server echoes in a header or a message', () => {
    const key = `LIC${Date.now()}ECHOED`;
    registerSecret(key);
    const text = formatResponse(
      response({
        status: 401,
        headers: { 'x-echo': `your key ${key}`, 'www-authenticate': 'Bearer realm="api", error="invalid_token"', 'authorization-key': key },
        warnings: [`The server answered 401: key ${key} refused`],
      }),
    ).text;
    const header = text.split('\n').filter((line) => line.startsWith('//')).join('\n');
    assert.ok(!header.includes(key), header);
    assert.ok(header.includes(`x-echo: your key ${REDACTED}`), header);
  });
});
