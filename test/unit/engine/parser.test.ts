import * as assert from 'node:assert/strict';
import { parseRequestFile, requestAtLine, tenantOf, type ParsedFile } from '../../../src/engine/parser';

interface Case {
  name: string;
  text: string;
  /** Checked fields of each request, in order. */
  requests: Array<{
    method: string;
    url: string;
    name?: string;
    tenant?: string;
    headers?: Array<[string, string]>;
    body?: string | { file: string; substitute: boolean };
    requestLine?: number;
    /** Lines of the request's assertions. */
    assertions?: number[];
  }>;
  variables?: Array<[string, string]>;
  problems?: string[];
}

// The first cases are the examples of REST Client's README (Huachao/vscode-restclient), written as its
// users write them; the others are this platform's own.
const cases: Case[] = [
  { name: 'REST Client: a URL alone is a GET', text: 'https://example.com/comments/1', requests: [{ method: 'GET', url: 'https://example.com/comments/1', requestLine: 0 }] },
  {
    name: 'REST Client: request line with HTTP version',
    text: 'GET https://example.com/comments/1 HTTP/1.1',
    requests: [{ method: 'GET', url: 'https://example.com/comments/1' }],
  },
  {
    name: 'REST Client: POST with headers and a JSON body',
    text: [
      'POST https://example.com/comments HTTP/1.1',
      'content-type: application/json',
      '',
      '{',
      '    "name": "sample",',
      '    "time": "Wed, 21 Oct 2015 18:27:50 GMT"',
      '}',
    ].join('\n'),
    requests: [
      {
        method: 'POST',
        url: 'https://example.com/comments',
        headers: [['content-type', 'application/json']],
        body: '{\n    "name": "sample",\n    "time": "Wed, 21 Oct 2015 18:27:50 GMT"\n}',
      },
    ],
  },
  {
    name: 'REST Client: requests separated by ### with comments',
    text: [
      'GET https://example.com/comments/1 HTTP/1.1',
      '',
      '###',
      '',
      'GET https://example.com/topics/1 HTTP/1.1',
      '',
      '### A separator may carry text',
      '# A comment',
      '// Another comment',
      'POST https://example.com/comments HTTP/1.1',
      'content-type: application/json',
      '',
      '{ "name": "sample" }',
    ].join('\n'),
    requests: [
      { method: 'GET', url: 'https://example.com/comments/1' },
      { method: 'GET', url: 'https://example.com/topics/1', requestLine: 4 },
      { method: 'POST', url: 'https://example.com/comments', body: '{ "name": "sample" }', requestLine: 9 },
    ],
  },
  {
    name: 'REST Client: query on continuation lines',
    text: ['GET https://example.com/comments', '    ?page=2', '    &pageSize=10'].join('\n'),
    requests: [{ method: 'GET', url: 'https://example.com/comments?page=2&pageSize=10' }],
  },
  {
    name: 'REST Client: body from a file, with and without variables',
    text: ['POST https://example.com/comments HTTP/1.1', 'Content-Type: application/xml', '', '< ./demo.xml', '###', 'POST /x', '', '<@ ./demo.json'].join('\n'),
    requests: [
      { method: 'POST', url: 'https://example.com/comments', body: { file: './demo.xml', substitute: false } },
      { method: 'POST', url: '/x', body: { file: './demo.json', substitute: true } },
    ],
  },
  {
    name: 'REST Client: file variables and a named request chained to another',
    text: [
      '@baseUrl = https://example.com/api',
      '@contentType = application/json',
      '',
      '# @name login',
      'POST {{baseUrl}}/api/login HTTP/1.1',
      'Content-Type: {{contentType}}',
      '',
      '{"name": "foo"}',
      '',
      '###',
      '// @name createComment',
      'POST {{baseUrl}}/comments HTTP/1.1',
      'Authorization: {{login.response.headers.X-AuthToken}}',
      'Content-Type: application/json',
      '',
      '{"content": "fake content"}',
    ].join('\n'),
    variables: [
      ['baseUrl', 'https://example.com/api'],
      ['contentType', 'application/json'],
    ],
    requests: [
      { method: 'POST', name: 'login', url: '{{baseUrl}}/api/login', headers: [['Content-Type', '{{contentType}}']], body: '{"name": "foo"}' },
      {
        method: 'POST',
        name: 'createComment',
        url: '{{baseUrl}}/comments',
        headers: [
          ['Authorization', '{{login.response.headers.X-AuthToken}}'],
          ['Content-Type', 'application/json'],
        ],
        body: '{"content": "fake content"}',
      },
    ],
  },
  {
    name: 'REST Client: system variables stay as written',
    text: ['POST https://api.example.com/comments', 'Content-Type: application/json', 'Date: {{$datetime rfc1123}}', '', '{"request_id": "{{$guid}}", "r": {{$randomInt 10 20}}}'].join('\n'),
    requests: [
      { method: 'POST', url: 'https://api.example.com/comments', headers: [['Content-Type', 'application/json'], ['Date', '{{$datetime rfc1123}}']], body: '{"request_id": "{{$guid}}", "r": {{$randomInt 10 20}}}' },
    ],
  },
  {
    name: 'lower-case method, comments among headers, CRLF line ends',
    text: 'post /api/x\r\nAccept: application/json\r\n# not a header\r\nX-Trace: 1\r\n\r\n{}\r\n',
    requests: [{ method: 'POST', url: '/api/x', headers: [['Accept', 'application/json'], ['X-Trace', '1']], body: '{}' }],
  },
  {
    name: 'platform: path alone, tenant per request and per file',
    text: ['@tenant = RC-TO', '', '# @tenant RC-MI', 'GET /efat/api/v1/ditte', '###', 'GET /efat/api/v1/ditte?pagina=2'].join('\n'),
    requests: [
      { method: 'GET', url: '/efat/api/v1/ditte', tenant: 'RC-MI' },
      { method: 'GET', url: '/efat/api/v1/ditte?pagina=2', tenant: 'RC-TO' },
    ],
    variables: [['tenant', 'RC-TO']],
  },
  {
    name: 'blocks without a request only define variables; trailing blank lines are not body',
    text: ['###', '@a = 1', '###', '', 'PUT /api/x', '', '{"a": {{a}}}', '', '', '###', '# only a comment'].join('\n'),
    variables: [['a', '1']],
    requests: [{ method: 'PUT', url: '/api/x', body: '{"a": {{a}}}' }],
  },
  {
    name: 'problems: unknown method, header without colon, duplicate name, cURL',
    text: ['# @name a', 'FETCH /api/x', 'not a header', '###', '# @name a', 'GET /api/y', '###', 'curl https://example.com'].join('\n'),
    requests: [
      { method: 'FETCH', url: '/api/x', name: 'a' },
      { method: 'GET', url: '/api/y', name: 'a' },
      { method: 'GET', url: '' },
    ],
    problems: ['1:unknownMethod', '2:headerWithoutColon', '7:curlNotSupported', '4:duplicateName'],
  },
  {
    name: 'problems: a JSON body without the blank line before it is not a header',
    text: ['POST /api/x', 'Content-Type: application/json', '{"a": 1}'].join('\n'),
    requests: [{ method: 'POST', url: '/api/x', headers: [['Content-Type', 'application/json']] }],
    problems: ['2:headerWithoutColon'],
  },
  {
    name: 'assertions: after the body, right after the request line and among headers; never part of the body',
    text: [
      'POST /api/x',
      '?? status == 201',
      'Content-Type: application/json',
      '?? header content-type includes json',
      '',
      '{"a": 1}',
      '',
      '?? body $.a == 1',
      '?? duration < 500',
      '###',
      'GET /api/y',
      '?? body $.items exists',
    ].join('\n'),
    requests: [
      { method: 'POST', url: '/api/x', headers: [['Content-Type', 'application/json']], body: '{"a": 1}', assertions: [1, 3, 7, 8] },
      { method: 'GET', url: '/api/y', assertions: [11] },
    ],
  },
  {
    name: 'assertions: a malformed one is a problem, one before the request line belongs to it, one alone in a block has no request',
    text: ['?? status == 200', 'GET /api/x', '?? status ===', '###', '?? status == 200'].join('\n'),
    requests: [{ method: 'GET', url: '/api/x', assertions: [0] }],
    problems: ['2:assertion', '4:assertionWithoutRequest'],
  },
  {
    name: 'scripts (httpYac, JetBrains, REST Client) are set aside and reported, never sent as a body',
    text: [
      '{{',
      '  exports.token = "x";',
      '}}',
      'POST /api/x',
      'Content-Type: application/json',
      '',
      '{"a": 1}',
      '',
      '> {%',
      '  client.test("ok", () => client.assert(response.status === 200));',
      '%}',
      '> {% client.global.set("id", response.body.id); %}',
      '> ./handler.js',
      '###',
      'GET /api/y?q={{query}}',
      '',
      '{{@response',
      '  console.log(response);',
    ].join('\n'),
    requests: [
      { method: 'POST', url: '/api/x', body: '{"a": 1}', requestLine: 3 },
      { method: 'GET', url: '/api/y?q={{query}}' },
    ],
    problems: ['0:scriptNotRun', '8:scriptNotRun', '11:scriptNotRun', '12:scriptNotRun', '16:scriptNotRun'],
  },
  // What other clients' files hold (REST Client, httpYac, the JetBrains client, Kulala), in our own words.
  {
    name: 'comment lines inside a body are left out of it, and a comment after a GET is no body',
    text: [
      'POST /api/ordini',
      'Content-Type: application/json',
      '',
      '// NuovoOrdine',
      '{',
      '  # the customer',
      '  "cliente": 7',
      '}',
      '###',
      'GET /api/ordini/7',
      '',
      '# then delete it',
      '',
    ].join('\n'),
    requests: [
      { method: 'POST', url: '/api/ordini', headers: [['Content-Type', 'application/json']], body: '{\n  "cliente": 7\n}' },
      { method: 'GET', url: '/api/ordini/7' },
    ],
  },
  {
    name: 'a pre-request script file above the request line is set aside, and the request is read',
    text: ['< {%', '  request.variables.set("x", 1);', '%}', '< ./scripts/before.js', '# @name ordini', 'POST /api/ordini HTTP/1.1', 'Accept: application/json', '', '{"a": 1}', '', '> ./scripts/after.js'].join('\n'),
    requests: [{ method: 'POST', url: '/api/ordini', name: 'ordini', headers: [['Accept', 'application/json']], body: '{"a": 1}', requestLine: 5 }],
    problems: ['0:scriptNotRun', '10:scriptNotRun', '3:scriptNotRun'],
  },
  {
    name: 'continuation lines are joined before the HTTP version is taken off the end',
    text: ['GET /api/ordini', '  ?cliente=7', '  &stato=aperto HTTP/1.1', 'Accept: application/json', '###', 'GET https://example.com', '  /v1/items', '  ?page=2 HTTP/2'].join('\n'),
    requests: [
      { method: 'GET', url: '/api/ordini?cliente=7&stato=aperto', headers: [['Accept', 'application/json']] },
      { method: 'GET', url: 'https://example.com/v1/items?page=2' },
    ],
  },
  {
    name: 'the text after ### names the request below it; # @name wins; a line of signs names nothing',
    text: ['### Elenco ordini', 'GET /api/ordini', '###   login  ', 'POST /auth', '### Ignored title', '# @name dettaglio', 'GET /api/ordini/{{login.response.body.$.id}}', '### ------', 'GET /api/altro'].join('\n'),
    requests: [
      { method: 'GET', url: '/api/ordini', name: 'Elenco ordini' },
      { method: 'POST', url: '/auth', name: 'login' },
      { method: 'GET', url: '/api/ordini/{{login.response.body.$.id}}', name: 'dettaglio' },
      { method: 'GET', url: '/api/altro', name: undefined },
    ],
  },
  {
    name: 'a title used twice is a duplicate name at its ### line',
    text: ['### ordini', 'GET /a', '### ordini', 'GET /b'].join('\n'),
    requests: [
      { method: 'GET', url: '/a', name: 'ordini' },
      { method: 'GET', url: '/b', name: 'ordini' },
    ],
    problems: ['2:duplicateName'],
  },
  {
    name: 'request lines without ### between them are requests of their own, each said at its line',
    text: [
      '@host = http://localhost:8080',
      'GET {{host}}/health',
      'GET {{host}}/info',
      'Accept: text/plain',
      '',
      '# @name create',
      'POST {{host}}/items',
      'Content-Type: application/json',
      '',
      '{"a": 1}',
      '',
      '?? status == 201',
      '',
      'DELETE {{host}}/items/1',
    ].join('\n'),
    requests: [
      { method: 'GET', url: '{{host}}/health', requestLine: 1 },
      { method: 'GET', url: '{{host}}/info', headers: [['Accept', 'text/plain']], requestLine: 2 },
      { method: 'POST', url: '{{host}}/items', name: 'create', body: '{"a": 1}', requestLine: 6, assertions: [11] },
      { method: 'DELETE', url: '{{host}}/items/1', requestLine: 13 },
    ],
    variables: [['host', 'http://localhost:8080']],
    problems: ['2:missingSeparator', '6:missingSeparator', '13:missingSeparator'],
  },
  {
    name: 'a line in a body that merely mentions a method is body text',
    text: ['POST /api/note', 'Content-Type: text/plain', '', 'Remember to', 'GET /api/ordini', 'later.'].join('\n'),
    requests: [{ method: 'POST', url: '/api/note', body: 'Remember to\nGET /api/ordini\nlater.' }],
  },
  {
    name: 'an unknown method is named as such, never read as a GET of the whole line',
    text: ['GETT /v10/user-tenants', '###', 'Gett https://example.com/x HTTP/1.1', '###', 'POSTT v10/x', '###', 'Some words here'].join('\n'),
    requests: [
      { method: 'GETT', url: '/v10/user-tenants' },
      { method: 'GETT', url: 'https://example.com/x' },
      { method: 'POSTT', url: 'v10/x' },
      { method: 'GET', url: 'Some words here' },
    ],
    problems: ['0:unknownMethod', '2:unknownMethod', '4:unknownMethod'],
  },
  {
    name: 'a cURL command over several lines is one problem, and the request after it is read',
    text: ["curl -X POST 'https://example.com/x' \\", "  -H 'Accept: application/json' \\", "  -d '{", '  "a": 1', "}'", '', 'GET /api/y'].join('\n'),
    requests: [
      { method: 'GET', url: '' },
      { method: 'GET', url: '/api/y', requestLine: 6 },
    ],
    problems: ['0:curlNotSupported', '6:missingSeparator'],
  },
];

function check(file: ParsedFile, expected: Case): void {
  assert.equal(file.requests.length, expected.requests.length, 'number of requests');
  expected.requests.forEach((want, index) => {
    const got = file.requests[index];
    assert.equal(got.method, want.method, `method of ${index}`);
    assert.equal(got.url, want.url, `url of ${index}`);
    if ('name' in want) assert.equal(got.name, want.name, `name of ${index}`);
    if (want.tenant !== undefined) assert.equal(tenantOf(file, got), want.tenant);
    if (want.requestLine !== undefined) assert.equal(got.requestLine, want.requestLine);
    if (want.headers) assert.deepEqual(got.headers.map((header) => [header.name, header.value]), want.headers);
    if (typeof want.body === 'string') assert.deepEqual(got.body && got.body.kind === 'inline' ? got.body.text : got.body, want.body);
    else if (want.body) assert.deepEqual(got.body && got.body.kind === 'file' ? { file: got.body.path, substitute: got.body.substitute } : got.body, want.body);
    else assert.equal(got.body, undefined, `no body in ${index}`);
    if (want.assertions) assert.deepEqual(got.assertions.map((assertion) => assertion.line), want.assertions, `assertions of ${index}`);
  });
  if (expected.variables) assert.deepEqual(file.variables.map((v) => [v.name, v.value]), expected.variables);
  assert.deepEqual(file.problems.map((p) => `${p.line}:${p.message}`), expected.problems ?? []);
}

describe('engine/parser', () => {
  for (const testCase of cases) {
    it(testCase.name, () => check(parseRequestFile(testCase.text), testCase));
  }

  it('finds the request under a line, and none on a separator', () => {
    const file = parseRequestFile(['GET /a', '', '###', '', 'GET /b', 'X: 1'].join('\n'));
    assert.equal(requestAtLine(file, 0)?.url, '/a');
    assert.equal(requestAtLine(file, 1)?.url, '/a');
    assert.equal(requestAtLine(file, 2), undefined);
    assert.equal(requestAtLine(file, 5)?.url, '/b');
  });
});
