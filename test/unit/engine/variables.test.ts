import * as assert from 'node:assert/strict';
import { evaluateJsonPath, parseJsonPath } from '../../../src/engine/jsonPath';
import { parseRequestFile } from '../../../src/engine/parser';
import { parseTarget, platformPath, prepareRequest } from '../../../src/engine/prepare';
import { evaluateSystemVariable, type SystemVariableContext } from '../../../src/engine/systemVariables';
import { resolveText, type RequestResult, type VariableSources } from '../../../src/engine/variables';

const system: SystemVariableContext = {
  now: () => new Date(Date.UTC(2026, 10, 23, 20, 30, 5, 7)),
  random: () => 0.5,
  uuid: () => '00000000-0000-4000-8000-000000000000',
  processEnv: { HOME_TOKEN: 's3cret', PLAIN: 'p' },
  lookup: (name) => (name === 'which' ? 'PLAIN' : undefined),
};

function sources(overrides: Partial<VariableSources> = {}): VariableSources {
  const results = new Map<string, RequestResult>([
    [
      'login',
      {
        request: { headers: { 'content-type': 'application/json' }, body: '{"user":"mario"}' },
        response: { headers: { location: '/api/x/7', 'x-token': 'abc' }, bodyText: '{"id":7,"items":[{"id":"a"},{"id":"b"}],"n":null}', json: { id: 7, items: [{ id: 'a' }, { id: 'b' }], n: null } },
      },
    ],
  ]);
  return {
    fileVariables: new Map([
      ['host', 'http://127.0.0.1:1'],
      ['api', '{{host}}/api'],
      ['loop', '{{loop}}'],
    ]),
    environment: { env: 'from-env', host: 'ignored: the file wins' },
    requestNames: new Set(['login', 'later']),
    result: (name) => results.get(name),
    system,
    ...overrides,
  };
}

describe('engine/variables', () => {
  const table: Array<[string, string, string[]?]> = [
    ['{{host}}/x', 'http://127.0.0.1:1/x'],
    ['{{ api }}/y', 'http://127.0.0.1:1/api/y'],
    ['{{env}}', 'from-env'],
    ['{{login.response.body.$.id}}', '7'],
    ['{{login.response.body.$.items[1].id}}', 'b'],
    ["{{login.response.body.$['items'][-1].id}}", 'b'],
    ['{{login.response.body.$.items[*].id}}', '["a","b"]'],
    ['{{login.response.body.$.n}}', 'null'],
    ['{{login.response.body.*}}', '{"id":7,"items":[{"id":"a"},{"id":"b"}],"n":null}'],
    ['{{login.response.headers.Location}}', '/api/x/7'],
    ['{{login.request.headers.Content-Type}}', 'application/json'],
    ['{{login.request.body.$.user}}', 'mario'],
    ['{{$guid}}', '00000000-0000-4000-8000-000000000000'],
    ['{{$timestamp}}', String(Math.floor(Date.UTC(2026, 10, 23, 20, 30, 5) / 1000))],
    ['{{$timestamp -1 d}}', String(Math.floor(Date.UTC(2026, 10, 22, 20, 30, 5) / 1000))],
    ['{{$datetime iso8601}}', '2026-11-23T20:30:05.007Z'],
    ['{{$datetime rfc1123}}', 'Mon, 23 Nov 2026 20:30:05 GMT'],
    ['{{$datetime "DD/MM/YYYY HH:mm" 2 h}}', '23/11/2026 22:30'],
    ['{{$datetime iso8601 1 M}}', '2026-12-23T20:30:05.007Z'],
    ['{{$randomInt 10 20}}', '15'],
    ['{{$processEnv PLAIN}}', 'p'],
    ['{{$processEnv %which}}', 'p'],
    ['{{nope}}', '{{nope}}', ['unknownVariable']],
    ['{{loop}}', '{{loop}}', ['invalid']],
    ['{{later.response.body.$.id}}', '{{later.response.body.$.id}}', ['notSent']],
    ['{{other.response.body.$.id}}', '{{other.response.body.$.id}}', ['unknownRequest']],
    ['{{login.response.body.$.missing}}', '{{login.response.body.$.missing}}', ['noValue']],
    ['{{login.response.body.$..id}}', '{{login.response.body.$..id}}', ['invalid']],
    ['{{login.response.headers.X-None}}', '{{login.response.headers.X-None}}', ['noValue']],
    ['{{$randomInt 5}}', '{{$randomInt 5}}', ['invalid']],
    ['{{$processEnv MISSING}}', '{{$processEnv MISSING}}', ['invalid']],
    ['{{$dotenv X}}', '{{$dotenv X}}', ['invalid']],
  ];
  for (const [text, expected, problems] of table) {
    it(`${text} -> ${expected}`, () => {
      const resolved = resolveText(text, sources());
      assert.equal(resolved.text, expected);
      assert.deepEqual(resolved.problems.map((p) => p.kind).slice(-1), problems ?? []);
    });
  }

  it('marks $processEnv values and secret-looking names as secrets', () => {
    const resolved = resolveText('{{$processEnv HOME_TOKEN}} {{apiKey}}', sources({ environment: { apiKey: 'k-123' } }));
    assert.equal(resolved.text, 's3cret k-123');
    assert.deepEqual(resolved.secrets, ['s3cret', 'k-123']);
  });

  it('JSONPath: rejects filters and slices with a reason', () => {
    for (const path of ['$[?(@.a)]', '$[0:2]', 'items']) assert.equal(parseJsonPath(path).ok, false, path);
    const parsed = parseJsonPath('$.a.b[0]');
    assert.ok(parsed.ok);
    assert.deepEqual(evaluateJsonPath({ a: { b: [3] } }, parsed.steps), [3]);
  });

  it('system variables report wrong arguments', () => {
    assert.equal(evaluateSystemVariable('$datetime', system).ok, false);
    assert.equal(evaluateSystemVariable('$datetime iso8601 1 parsec', system).ok, false);
  });
});

describe('engine/prepare', () => {
  const read = (path: string) => {
    if (path === './body.json') return '{"x": "{{env}}"}';
    throw new Error(`cannot read ${path}`);
  };

  it('fills variables, drops credential headers and the JSON defaults, keeps others', () => {
    const file = parseRequestFile(
      ['@tenant = RC-MI', 'POST {{host}}/api/a?b=c d', 'Authorization: Bearer x', 'authorization-key: k', 'User-Tenant: t', 'Content-Type: application/json', 'X-Env: {{env}}', '', '{"v": "{{env}}"}'].join('\n'),
    );
    const outcome = prepareRequest(file, file.requests[0], sources(), { readBodyFile: read });
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.deepEqual(outcome.request.headers, { 'X-Env': 'from-env' });
    assert.deepEqual(outcome.request.droppedCredentialHeaders, ['Authorization', 'authorization-key', 'User-Tenant']);
    assert.equal(outcome.request.body, '{"v": "from-env"}');
    assert.equal(outcome.request.tenant, 'RC-MI');
    assert.equal(outcome.request.target.kind, 'absolute');
  });

  it('encodes a path, reads a body file with or without variables, reports what is missing', () => {
    const file = parseRequestFile(['POST /api/a b?q=ü', '', '<@ ./body.json', '###', 'POST /api/b', '', '< ./body.json', '###', 'POST /api/c', '', '< ./none.json', '###', 'GET /api/{{nope}}'].join('\n'));
    const [a, b, c, d] = file.requests.map((request) => prepareRequest(file, request, sources(), { readBodyFile: read }));
    assert.ok(a.ok && b.ok);
    assert.deepEqual(a.request.target, { kind: 'path', path: '/api/a%20b?q=%C3%BC' });
    assert.equal(a.request.body, '{"x": "from-env"}');
    assert.equal(b.request.body, '{"x": "{{env}}"}');
    assert.ok(!c.ok && /cannot read/.test(c.message));
    assert.ok(!d.ok && d.problems[0].kind === 'unknownVariable');
  });

  it('sends nothing for an unknown method, and says which', () => {
    const file = parseRequestFile('GETT /v10/user-tenants');
    const outcome = prepareRequest(file, file.requests[0], sources(), { readBodyFile: read });
    assert.ok(!outcome.ok);
    assert.equal(outcome.message, 'Unknown method "GETT": nothing was sent.');
  });

  it('sends a multipart body with CRLF line ends (a file is written with LF)', () => {
    const file = parseRequestFile(['POST /api/upload', 'Content-Type: multipart/form-data; boundary=B', '', '--B', 'Content-Disposition: form-data; name="a"', '', '1', '--B--'].join('\n'));
    const outcome = prepareRequest(file, file.requests[0], sources(), { readBodyFile: read });
    assert.ok(outcome.ok);
    assert.equal(outcome.request.body, '--B\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--B--\r\n');
  });

  it('maps an absolute URL on the base URL or the cluster to a path, any other host to none', () => {
    const hosts = { baseUrl: 'http://127.0.0.1:4402/root', clusterAddress: 'http://127.0.0.1:4403' };
    const url = (text: string) => {
      const target = parseTarget(text);
      assert.ok(target.ok && target.target.kind === 'absolute');
      return target.target.url;
    };
    assert.deepEqual(platformPath(url('http://127.0.0.1:4402/root/api/x?a=1'), hosts), { where: 'base', path: '/api/x?a=1' });
    assert.deepEqual(platformPath(url('http://127.0.0.1:4403/efat/api/v1/ditte'), hosts), { where: 'cluster', path: '/efat/api/v1/ditte' });
    assert.equal(platformPath(url('http://127.0.0.1:4402/other/api/x'), hosts), undefined);
    assert.equal(platformPath(url('https://example.com/api/x'), hosts), undefined);
    assert.equal(parseTarget('ftp://example.com/x').ok, false);
    assert.equal(parseTarget('example.com/x').ok, false);
  });
});
