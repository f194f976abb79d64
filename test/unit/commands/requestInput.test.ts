import * as assert from 'node:assert/strict';
import {
  RequestInputError,
  methodTakesBody,
  normalizeArgs,
  parseRequestLine,
  parseHeaderText,
  splitPathAndQuery,
  validateJsonBody,
  validateMethod,
  validatePath,
} from '../../../src/commands/requestInput';

describe('requestInput', () => {
  it('accepts known methods in any case and refuses others', () => {
    assert.equal(validateMethod('get'), undefined);
    assert.match(validateMethod('FETCH') ?? '', /Unsupported method FETCH/);
    assert.match(validateMethod('G ET') ?? '', /word/);
  });

  it('checks paths', () => {
    assert.equal(validatePath('/api/configurazioni'), undefined);
    assert.match(validatePath('api/x') ?? '', /start with/);
    assert.equal(validatePath('https://api.example.com/v10/user-tenants'), undefined, 'an address, as request files take them');
    assert.match(validatePath('ftp://evil.example/x') ?? '', /neither a path starting with "\/" nor an http\(s\) address/);
    assert.match(validatePath('//evil.example/x') ?? '', /neither a path/);
    assert.match(validatePath('localhost:8080/x') ?? '', /neither a path/);
    assert.match(validatePath('/a b') ?? '', /spaces/);
    assert.match(validatePath('') ?? '', /Enter a path/);
  });

  it('reads an address typed whole, with its method and query', () => {
    assert.deepEqual(parseRequestLine('GET https://api.example.com/v10/user-tenants?a=1'), { method: 'GET', path: 'https://api.example.com/v10/user-tenants', query: { a: '1' } });
    assert.equal(normalizeArgs({ method: 'GET', path: 'https://elsewhere.example.org/x?y=2' }).path, 'https://elsewhere.example.org/x');
  });

  it('checks JSON bodies', () => {
    assert.equal(validateJsonBody('{"a":1}'), undefined);
    assert.equal(validateJsonBody(''), undefined);
    assert.match(validateJsonBody('{a:1}') ?? '', /not valid JSON/);
    assert.equal(
      validateJsonBody('{\n  "a": 1\n  "b": 2\n}'),
      "The body is not valid JSON: Expected ',' or '}' after property value (line 3, column 3)",
      'where it breaks, as line and column, not a character position',
    );
    assert.match(validateJsonBody('{"a": {{id}}}') ?? '', /line 1, column 8/, 'Send Request fills no variable: a reference is no JSON');
  });

  it('parses extra headers and refuses the ones the extension sets', () => {
    assert.deepEqual(parseHeaderText('X-A: 1\nX-B: two; If-None-Match: "x"'), {
      headers: { 'X-A': '1', 'X-B': 'two', 'If-None-Match': '"x"' },
    });
    for (const name of ['Authorization', 'authorization-key', 'User-Tenant']) {
      const result = parseHeaderText(`${name}: forged`);
      assert.ok('error' in result && result.error.includes('cannot be replaced'), name);
    }
    assert.ok('error' in parseHeaderText('no colon'));
    assert.ok('error' in parseHeaderText('Bad Name: x'));
  });

  it('splits a path with a query', () => {
    assert.deepEqual(splitPathAndQuery('/x?a=1&b=2'), { path: '/x', query: { a: '1', b: '2' } });
    assert.deepEqual(splitPathAndQuery('/x'), { path: '/x', query: {} });
  });

  it('knows which methods take a body', () => {
    assert.equal(methodTakesBody('post'), true);
    assert.equal(methodTakesBody('GET'), false);
  });

  it('normalizes a scripted argument object', () => {
    const normalized = normalizeArgs({
      method: 'post',
      path: '/api/x?a=1',
      query: { b: 2 },
      body: { nome: 'Rossi' },
      headers: { 'X-Trace': 't', Authorization: 'Bearer forged', 'user-tenant': 'other' },
      tenantId: ' t1 ',
    });
    assert.equal(normalized.method, 'POST');
    assert.equal(normalized.path, '/api/x');
    assert.deepEqual(normalized.query, { a: '1', b: '2' });
    assert.equal(normalized.bodyText, '{"nome":"Rossi"}');
    assert.deepEqual(normalized.headers, { 'X-Trace': 't' });
    assert.deepEqual(normalized.droppedHeaders, ['Authorization', 'user-tenant']);
    assert.equal(normalized.tenantId, 't1');
    assert.equal(normalized.preview, true);
  });

  it('refuses bad argument objects with a clear message', () => {
    assert.throws(() => normalizeArgs(undefined), RequestInputError);
    assert.throws(() => normalizeArgs({ path: '/x' }), /no method/);
    assert.throws(() => normalizeArgs({ method: 'GET' }), /no path/);
    assert.throws(() => normalizeArgs({ method: 'GET', path: '/x', body: '{}' }), /GET request has no body/);
    assert.throws(() => normalizeArgs({ method: 'POST', path: '/x', body: '{bad' }), /not valid JSON/);
    assert.throws(() => normalizeArgs({ method: 'GET', path: 'x' }), /start with/);
    assert.throws(() => normalizeArgs({ method: 'GET', path: '/x', headers: 'X: y' }), /Headers must be an object/);
  });
});

describe('a request typed on one line (Send Request\'s path step)', () => {
  it('takes the method, the path and the query from `GET /efat/api/v1/ditte?pagina=1`', () => {
    assert.deepEqual(parseRequestLine('GET /efat/api/v1/ditte?pagina=1'), { method: 'GET', path: '/efat/api/v1/ditte', query: { pagina: '1' } });
    assert.deepEqual(parseRequestLine('  post /api/configurazioni '), { method: 'POST', path: '/api/configurazioni', query: {} });
  });

  it('a bare path is a GET: a read, never a write by default', () => {
    assert.deepEqual(parseRequestLine('/api/configurazioni?a=1&b=2'), { method: 'GET', path: '/api/configurazioni', query: { a: '1', b: '2' } });
  });

  it('says what is wrong: an unknown method, a path without "/", an address that is not http(s)', () => {
    assert.match((parseRequestLine('GETT /api/x') as { error: string }).error, /^Unsupported method GETT: did you mean GET\? Use one of: GET, POST/);
    assert.match((parseRequestLine('api/x') as { error: string }).error, /must start with "\/"/);
    assert.match((parseRequestLine('GET ftp://example.com/api') as { error: string }).error, /neither a path starting with "\/" nor an http\(s\) address/);
    assert.match((parseRequestLine('') as { error: string }).error, /Enter a path/);
  });
});
