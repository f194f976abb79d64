import * as assert from 'node:assert/strict';
import { apiErrors, isApiError } from '../../../src/api/errors';
import { RouteTable } from '../../../src/api/routes';
import { TenantResolver } from '../../../src/api/tenantResolver';
import type { ApiRequest, ApiResponse, TenantRecord } from '../../../src/api/types';
import { curlForPrepared } from '../../../src/engine/curlCommand';
import { parseRequestFile } from '../../../src/engine/parser';
import { prepareRequest } from '../../../src/engine/prepare';
import { RequestFileRunner, describeError, outcomeSelector, summarize, type RunOutcome } from '../../../src/engine/runner';
import { callPlatform } from '../../../src/engine/sender';
import { defaultSystemContext } from '../../../src/engine/systemVariables';
import type { FileEnvironment } from '../../../src/settings/environmentFileSources';

const tenants: TenantRecord[] = [
  { id: 't-mi', codiceAmbienteDati: 'RC-MI', descrizioneAmbienteDati: 'Rossi Milano', clusterAddress: 'http://127.0.0.1:4403', usable: true },
  { id: 't-to', codiceAmbienteDati: 'RC-TO', descrizioneAmbienteDati: 'Rossi Torino', clusterAddress: 'http://127.0.0.1:4404', usable: true },
];

function response(request: ApiRequest, body: unknown): ApiResponse {
  const bodyText = JSON.stringify(body);
  return {
    method: String(request.method),
    url: `http://127.0.0.1:4402${request.path}`,
    status: 200,
    statusText: 'OK',
    headers: { 'content-type': 'application/json', location: '/api/items/9' },
    bodyText,
    json: body,
    timeMs: 1,
    sizeBytes: bodyText.length,
    requestHeaders: { Authorization: 'Bearer ***', ...(request.headers ?? {}) },
    attempts: 1,
    warnings: [],
  };
}

function setup(options: { active?: string; failing?: string; fileEnvironment?: FileEnvironment } = {}) {
  const sent: ApiRequest[] = [];
  const fetched: Array<{ url: string; headers: Record<string, string> }> = [];
  const routes = new RouteTable();
  const runner = new RequestFileRunner({
    sender: {
      api: {
        routeFor: (path) => routes.match(path),
        send: async (request) => {
          sent.push(request);
          if (options.failing && request.path.startsWith(options.failing)) throw apiErrors.network('the server closed the connection', { method: String(request.method), url: request.path });
          return response(request, { total: 3, path: request.path, items: [{ id: 'a1' }] });
        },
      },
      tenants: new TenantResolver({ listed: () => [], tenants: async () => tenants, active: () => (options.active ? { id: options.active } : undefined), isSignedIn: () => true }),
      baseUrl: () => 'http://127.0.0.1:4402',
      fetch: (async (url: URL, init: RequestInit) => {
        fetched.push({ url: String(url), headers: init.headers as Record<string, string> });
        return new Response('{"ok":true}', { status: 201, headers: { 'content-type': 'application/json' } });
      }) as typeof fetch,
      timeoutMs: () => 1000,
    },
    environment: () => ({ region: 'settings', pageSize: '5' }),
    ...(options.fileEnvironment ? { fileEnvironment: (key: string) => (key === 'file:///x.http' ? options.fileEnvironment! : { ...options.fileEnvironment!, variables: {} }) } : {}),
    system: (lookup, dotenv) => defaultSystemContext(lookup, dotenv),
  });
  const document = (text: string) => ({ key: 'file:///x.http', text, readBodyFile: () => '' });
  return { runner, sent, fetched, document };
}

describe('engine/runner', () => {
  it('picks the tenant: the request\'s, else the file\'s, else the active one; none for a base path', async () => {
    const { runner, sent, document } = setup({ active: 't-to' });
    const text = ['@tenant = Rossi Milano', '# @tenant t-to', 'GET /efat/api/v1/ditte', '###', 'GET /efat/api/v1/ditte', '###', 'GET /api/configurazioni'].join('\n');
    for (const index of [0, 1, 2]) await runner.send(document(text), index);
    assert.deepEqual(sent.map((request) => request.tenant?.codiceAmbienteDati), ['RC-TO', 'RC-MI', 'RC-MI']);
    const active = setup({ active: 't-to' });
    await active.runner.send(active.document('GET /efat/api/v1/ditte\n###\nGET /api/x'), 0);
    await active.runner.send(active.document('GET /efat/api/v1/ditte\n###\nGET /api/x'), 1);
    assert.deepEqual(active.sent.map((request) => request.tenant?.id), ['t-to', undefined]);
  });

  it('reads the environment files of the request file: their variables win over the settings, private values and $dotenv are secrets', async () => {
    const fileEnvironment: FileEnvironment = {
      variables: { region: 'file', user: 'ada', secretCode: 'c0de-77' },
      secrets: new Set(['secretCode']),
      dotenv: { KEY: 'dot-key-55' },
      origins: {},
      problems: [],
    };
    const { runner, sent, document } = setup({ active: 't-mi', fileEnvironment });
    const outcome = await runner.send(document('GET /api/x?r={{region}}&p={{pageSize}}&u={{user}}&c={{secretCode}}&k={{$dotenv KEY}}'), 0);
    assert.equal(sent[0].path, '/api/x?r=file&p=5&u=ada&c=c0de-77&k=dot-key-55');
    assert.deepEqual(outcome.prepared?.secrets.sort(), ['c0de-77', 'dot-key-55']);
    const missing = await runner.send(document('GET /api/x?k={{$dotenv NOPE}}'), 0);
    assert.match(missing.error?.message ?? '', /NOPE is not in a \.env file beside the request file/);
  });

  it('says what to do when a cluster path has no tenant, or names an unknown one', async () => {
    const { runner, sent, document } = setup();
    const missing = await runner.send(document('GET /efat/api/v1/ditte'), 0);
    assert.match(missing.error?.message ?? '', /needs a tenant/);
    assert.equal(missing.error?.kind, 'tenant', 'the client\'s kind for a missing tenant, in every front end');
    const unknown = await runner.send(document('# @tenant XX\nGET /api/x'), 0);
    assert.match(unknown.error?.message ?? '', /XX is not one of your tenants/);
    assert.equal(sent.length, 0);
  });

  it('sends a named request first when another reads its response, and only once', async () => {
    const { runner, sent, document } = setup({ active: 't-mi' });
    const text = ['# @name first', 'GET /api/configurazioni', '###', '# @name second', 'GET /api/x?n={{first.response.body.$.total}}&l={{first.response.headers.Location}}'].join('\n');
    const outcome = await runner.send(document(text), 1);
    assert.deepEqual(sent.map((request) => request.path), ['/api/configurazioni', '/api/x?n=3&l=%2Fapi%2Fitems%2F9'.replace('%2Fapi%2Fitems%2F9', '/api/items/9')]);
    assert.equal(outcome.dependencies.length, 1);
    await runner.send(document(text), 1);
    assert.equal(sent.length, 3, 'the first request is not sent again');
  });

  it('checks a request\'s assertions against its answer, expected values filled from earlier responses', async () => {
    const { runner, document } = setup({ active: 't-mi' });
    const text = [
      '# @name first',
      'GET /api/configurazioni',
      '###',
      'GET /api/x',
      '?? status == 200',
      '?? body $.total == {{first.response.body.$.total}}',
      '?? body $.items[0].id == a2',
      '?? header content-type includes json',
      '?? body $.missing exists',
      '?? body $.total == {{nowhere}}',
    ].join('\n');
    const outcome = await runner.send(document(text), 1);
    assert.deepEqual(
      outcome.assertions?.map((result) => [result.line, result.passed, result.actual]),
      [
        [4, true, '200'],
        [5, true, '3'],
        [6, false, 'a1'],
        [7, true, 'application/json'],
        [8, false, 'missing'],
        [9, false, 'not checked'],
      ],
    );
    const none = await runner.send(document('GET /api/configurazioni'), 0);
    assert.equal(none.assertions, undefined, 'no assertions, no results');
  });

  it('within a run, a request that failed is not sent again for a later one that reads it: that one fails with the reason', async () => {
    const text = ['# @name create', 'POST /api/configurazioni', '', '{"a": 1}', '###', 'GET /api/x?id={{create.response.body.$.total}}'].join('\n');
    const all = setup({ active: 't-mi', failing: '/api/configurazioni' });
    const outcomes = await all.runner.sendAll(all.document(text));
    assert.deepEqual(all.sent.map((request) => `${request.method} ${request.path}`), ['POST /api/configurazioni'], 'Send All: the POST once');
    assert.equal(outcomes[1].error?.kind, 'dependency');
    assert.match(outcomes[1].error!.message, /needs create, which failed: .*closed the connection/);
    const one = setup({ active: 't-mi', failing: '/api/configurazioni' });
    const attempted = new Map();
    await one.runner.send(one.document(text), 0, { attempted });
    await one.runner.send(one.document(text), 1, { attempted });
    assert.equal(one.sent.length, 1, 'request by request with the run\'s memo (the command line, the Testing view): the POST once');
    const alone = setup({ active: 't-mi', failing: '/api/configurazioni' });
    await alone.runner.send(alone.document(text), 1);
    assert.equal(alone.sent.length, 1, 'a Send of the reader alone still sends what it reads, once');
  });

  it('drops credential headers with a warning; never sends them to another host either', async () => {
    const { runner, sent, fetched, document } = setup();
    const text = ['GET /api/x', 'Authorization: Bearer secret', 'X-Keep: 1', '###', 'POST https://other.example/hook', 'Authorization-Key: k', '', '{"a":1}'].join('\n');
    const own = await runner.send(document(text), 0);
    assert.deepEqual(sent[0].headers, { 'X-Keep': '1' });
    assert.match(own.sent?.warnings[0] ?? '', /header Authorization is set by the extension; your value was ignored/);
    const other = await runner.send(document(text), 1);
    assert.equal(sent.length, 1, 'another host does not go through the API client');
    assert.deepEqual(fetched, [{ url: 'https://other.example/hook', headers: { 'Content-Type': 'application/json' } }]);
    assert.equal(other.sent?.credentials, false);
    assert.equal(other.sent?.response.status, 201);
    assert.ok(other.sent?.warnings.some((warning) => /without your credentials/.test(warning)));
  });

  it('calls a platform path for any front end: the tenant by the one resolver, a failure as a kind, nothing thrown', async () => {
    const { runner, sent } = setup({ active: 't-mi' });
    const deps = runner['deps'].sender;
    const named = await callPlatform({ method: 'GET', path: '/efat/api/v1/ditte', tenant: 'rossi torino' }, deps);
    assert.equal(named.tenant?.id, 't-to');
    assert.equal(named.response?.status, 200);
    const active = await callPlatform({ method: 'GET', path: '/efat/api/v1/ditte' }, deps);
    assert.equal(active.tenant?.id, 't-mi');
    const unknown = await callPlatform({ method: 'GET', path: '/efat/api/v1/ditte', tenant: 'XX' }, deps);
    assert.equal(describeError(unknown.error).kind, 'tenant', 'Send Request called it invalidRequest, request files too');
    assert.equal(unknown.response, undefined);
    assert.equal(sent.length, 2);
  });

  it('keeps the error as thrown, a dependency\'s too, so a front end can offer its fix', async () => {
    const { runner, document } = setup();
    runner['deps'].sender.api.send = async () => {
      throw apiErrors.signInRequired();
    };
    const text = ['# @name first', 'GET /api/a', '###', 'GET /api/b?x={{first.response.body.$.id}}'].join('\n');
    const outcome = await runner.send(document(text), 1);
    assert.equal(outcome.error?.kind, 'dependency');
    assert.ok(isApiError(outcome.error?.cause) && outcome.error.cause.kind === 'auth', String(outcome.error?.cause));
  });

  it('says another host that does not answer is a network failure', async () => {
    const { runner, document } = setup();
    runner['deps'].sender.fetch = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    const outcome = await runner.send(document('GET https://other.example/x'), 0);
    assert.equal(outcome.error?.kind, 'network');
    assert.match(outcome.error?.message ?? '', /other\.example did not answer/);
  });

  it('sends an absolute URL on the base URL or the cluster through the client, as a path', async () => {
    const { runner, sent, document } = setup();
    const text = ['@base = http://127.0.0.1:4402', 'GET {{base}}/api/configurazioni?a=1', '###', '# @tenant RC-TO', 'GET http://127.0.0.1:4404/efat/api/v1/ditte', '###', 'GET http://127.0.0.1:4402/efat/api/v1/ditte'].join('\n');
    await runner.send(document(text), 0);
    await runner.send(document(text), 1);
    const wrongHost = await runner.send(document(text), 2);
    assert.deepEqual(sent.map((request) => [request.path, request.tenant?.id]), [['/api/configurazioni?a=1', undefined], ['/efat/api/v1/ditte', 't-to']]);
    assert.match(wrongHost.error?.message ?? '', /served by the tenant's cluster/);
  });

  it('Send All runs in order, reports progress and stops when cancelled', async () => {
    const { runner, sent, document } = setup({ active: 't-mi' });
    const text = Array.from({ length: 5 }, (_, index) => `GET /api/r${index}`).join('\n###\n');
    const progress: number[] = [];
    const all = await runner.sendAll(document(text), { onProgress: (done) => progress.push(done) });
    assert.deepEqual(sent.map((request) => request.path), ['/api/r0', '/api/r1', '/api/r2', '/api/r3', '/api/r4']);
    assert.deepEqual(progress, [0, 1, 2, 3, 4, 5]);
    assert.equal(summarize(all, 5).text, '5 requests: 5 × 200');
    const controller = new AbortController();
    const partial = await runner.sendAll(document(text), { signal: controller.signal, onProgress: (done) => done === 2 && controller.abort() });
    assert.equal(partial.length, 2);
    assert.equal(summarize(partial, 5).text, '2 of 5 requests (cancelled): 2 × 200');
  });

  it('Send All waits for each answer before sending the next (one call in flight)', async () => {
    const { runner, document } = setup({ active: 't-mi' });
    let inFlight = 0;
    let most = 0;
    const send = runner['deps'].sender.api.send;
    runner['deps'].sender.api.send = async (request) => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      return send(request);
    };
    await runner.sendAll(document(Array.from({ length: 4 }, (_, index) => `GET /api/r${index}`).join('\n###\n')));
    assert.equal(most, 1);
  });

  it('summarizes statuses and failures', () => {
    const outcome = (status?: number): RunOutcome =>
      ({ label: 'x', request: parseRequestFile('GET /a').requests[0], dependencies: [], ...(status ? { sent: { response: { status } } } : { error: { kind: 'tenant', message: 'm' } }) }) as unknown as RunOutcome;
    assert.equal(summarize([outcome(200), outcome(404), outcome(200), outcome()], 4).text, '4 requests: 2 × 200, 1 × 404, 1 request not sent');
  });

  it('says what selected the data: the tenant on a cluster path, the licence key\'s organization on a base path even under # @tenant', () => {
    const routes = new RouteTable();
    const licence = { module: 'core', label: 'Rossi core', organization: 'Rossi Costruzioni' };
    const sentTo = (target: unknown, credentials = true): RunOutcome =>
      ({ label: 'x', dependencies: [], prepared: { method: 'GET', target }, sent: { tenant: tenants[0], credentials, warnings: [], response: { status: 200, licence } } }) as unknown as RunOutcome;
    const select = (outcome: RunOutcome) => outcomeSelector(outcome, (path) => routes.match(path), 'http://b');
    assert.equal(select(sentTo({ kind: 'path', path: '/efat/api/v1/ditte' }))?.kind, 'tenant');
    assert.deepEqual(select(sentTo({ kind: 'path', path: '/api/configurazioni' })), { kind: 'licenceKey', module: 'core', licence });
    assert.deepEqual(select(sentTo({ kind: 'absolute', url: new URL('http://b/api/configurazioni?x=1') }))?.kind, 'licenceKey');
    assert.equal(select(sentTo({ kind: 'absolute', url: new URL('http://elsewhere/api/configurazioni') }, false)), undefined);
    assert.equal(select({ ...sentTo({ kind: 'path', path: '/api/configurazioni' }), sent: undefined }), undefined);
  });

  it('copies a request as cURL with the platform host and masked credentials', () => {
    const file = parseRequestFile('# @tenant RC-TO\nGET /efat/api/v1/ditte?x=1\nX-A: b');
    const prepared = prepareRequest(file, file.requests[0], { fileVariables: new Map(), environment: {}, requestNames: new Set(), result: () => undefined, system: defaultSystemContext() }, { readBodyFile: () => '' });
    assert.ok(prepared.ok);
    const routes = new RouteTable();
    const command = curlForPrepared(prepared.request, { baseUrl: 'http://b', route: routes.match('/efat/api/v1/ditte'), tenant: tenants[1] });
    assert.equal(
      command,
      [
        "curl 'http://127.0.0.1:4404/efat/api/v1/ditte?x=1'",
        "-H 'Accept: application/json'",
        '-H "Authorization: Bearer $TENANT_API_TOKEN"',
        '-H "Authorization-Key: $TENANT_API_KEY_EFAT"',
        "-H 'User-Tenant: t-to'",
        "-H 'X-A: b'",
      ].join(' \\\n  '),
    );
  });
});

describe('engine/saveBlock', () => {
  // Imported here so the save tests sit beside the runner's: both turn requests into file text and back.
  const { appendText, historyEntryForResponse, requestBlock, suggestedName } = require('../../../src/engine/saveBlock') as typeof import('../../../src/engine/saveBlock');

  it('writes a history entry as a block that parses back to the same request, without credentials', () => {
    const block = requestBlock({
      method: 'post',
      target: '/api/configurazioni',
      query: { pagina: '2', 'a b': 'c&d' },
      headers: { 'X-Trace': '1', Authorization: 'Bearer secret' },
      body: '{"a": 1}',
      tenant: 'RC-MI',
      name: suggestedName('/api/configurazioni', new Set(['configurazioni'])),
    });
    assert.ok(!block.includes('secret'));
    const file = parseRequestFile('GET /api/x' + appendText('GET /api/x', block));
    assert.equal(file.requests.length, 2);
    const saved = file.requests[1];
    assert.equal(saved.name, 'configurazioni2');
    assert.equal(saved.method, 'POST');
    assert.equal(saved.url, '/api/configurazioni?pagina=2&a%20b=c%26d');
    assert.deepEqual(saved.headers.map((header) => header.name), ['X-Trace', 'Content-Type']);
    assert.deepEqual(saved.body, { kind: 'inline', text: '{"a": 1}', startLine: saved.body && saved.body.kind === 'inline' ? saved.body.startLine : -1, endLine: saved.body && saved.body.kind === 'inline' ? saved.body.endLine : -1 });
    assert.equal(saved.metadata.tenant?.value, 'RC-MI');
    assert.equal(appendText('  \n', 'GET /a\n'), 'GET /a\n');
  });

  it('finds the history entry of a response tab by its first line', () => {
    const entries = [
      { method: 'GET', path: '/a', url: 'http://h/a', at: 1 },
      { method: 'GET', path: '/a', url: 'http://h/a', at: 3, tenantId: 'newest' },
      { method: 'POST', path: '/a', url: 'http://h/a', at: 4 },
    ];
    assert.equal(historyEntryForResponse('// GET http://h/a', entries)?.tenantId, 'newest');
    assert.equal(historyEntryForResponse('// PUT http://h/a', entries), undefined);
  });
});
