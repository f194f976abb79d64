import { strict as assert } from 'node:assert';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';

import { startSandbox } from '../../sandbox/index';
import type { Fault, Sandbox } from '../../sandbox/types';
import { tokensFor } from '../../helpers/sandboxTokens';
import { call, keyOf, LIMIT_HEADER } from './fixtures';

const LIMIT_HEADER_NAME = 'service-limit-info';

describe('sandbox: resource API', () => {
  let sandbox: Sandbox;
  let mario: string;
  let laura: string;
  let rossiCore: string;
  let rossiEfat: string;
  let bianchiEfat: string;
  let milano: Sandbox['tenants'][number];
  let torino: Sandbox['tenants'][number];

  before(async () => {
    // The per-application limits are lifted here; limits.test.ts checks them.
    sandbox = await startSandbox({ accessTokenTtlSeconds: 120, rateLimits: { perSecond: 1e6, perMinute: 1e6 } });
    mario = (await tokensFor(sandbox, 'mario.rossi')).accessToken;
    laura = (await tokensFor(sandbox, 'laura.verdi', { grant: 'password' })).accessToken;
    rossiCore = keyOf(sandbox, 'org-rossi', 'core');
    rossiEfat = keyOf(sandbox, 'org-rossi', 'efat');
    bianchiEfat = keyOf(sandbox, 'org-bianchi', 'efat');
    milano = sandbox.tenants.find((t) => t.codiceAmbienteDati === 'RC-MI')!;
    torino = sandbox.tenants.find((t) => t.codiceAmbienteDati === 'RC-TO')!;
  });
  after(async () => {
    await sandbox.close();
  });
  beforeEach(() => {
    sandbox.resetLimits();
    sandbox.clearFaults();
  });

  const ditte = (tenant: { clusterAddress: string }, query = '') => `${tenant.clusterAddress}/efat/api/v1/ditte${query}`;

  it('serves the tenants on at least two cluster hosts, with GUID ids', async () => {
    assert.ok(sandbox.clusterUrls.length >= 2);
    assert.notEqual(sandbox.clusterUrls[0], sandbox.clusterUrls[1]);
    const res = await call(`${sandbox.baseUrl}/v10/user-tenants`, { token: mario });
    assert.equal(res.status, 200);
    const tenants = res.json as unknown as Array<Record<string, string>>;
    assert.equal(tenants.length, 3);
    assert.deepEqual(Object.keys(tenants[0]).sort(), ['clusterAddress', 'codiceAmbienteDati', 'descrizioneAmbienteDati', 'id']);
    for (const t of tenants) assert.match(t.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.equal(new Set(tenants.map((t) => t.clusterAddress)).size, 2, 'the user has tenants on two clusters');
    const single = await call(`${sandbox.baseUrl}/v10/user-tenants`, { token: laura });
    assert.equal((single.json as unknown as unknown[]).length, 1);
  });

  it('pages /api/configurazioni and /efat/api/v1/ditte', async () => {
    const conf = await call(`${sandbox.baseUrl}/api/configurazioni?pagina=2&dimensionePagina=10`, { token: mario, key: rossiCore });
    assert.equal(conf.status, 200, conf.text);
    assert.equal(conf.json.pagina, 2);
    assert.equal(conf.json.dimensionePagina, 10);
    assert.equal((conf.json.elementi as unknown[]).length, 10);
    assert.ok(Number(conf.json.totaleElementi) > 100);
    assert.equal(conf.json.organizzazione, 'org-rossi');

    const first = await call(ditte(milano, '?dimensionePagina=3'), { token: mario, key: rossiEfat, tenant: milano.id });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.json.totaleElementi, 40000);
    assert.equal(first.json.totalePagine, Math.ceil(40000 / 3));
    const rows = first.json.elementi as Array<Record<string, unknown>>;
    assert.deepEqual(rows.map((r) => r.codiceDitta), ['RC-MI-000001', 'RC-MI-000002', 'RC-MI-000003']);
    const second = await call(ditte(milano, '?pagina=2&dimensionePagina=3'), { token: mario, key: rossiEfat, tenant: milano.id });
    assert.equal((second.json.elementi as Array<Record<string, unknown>>)[0].codiceDitta, 'RC-MI-000004');
    const again = await call(ditte(milano, '?dimensionePagina=3'), { token: mario, key: rossiEfat, tenant: milano.id });
    assert.deepEqual(again.json.elementi, first.json.elementi, 'rows are deterministic');
    const past = await call(ditte(milano, '?pagina=99999&dimensionePagina=50'), { token: mario, key: rossiEfat, tenant: milano.id });
    assert.deepEqual(past.json.elementi, []);
  });

  it('produces a response of more than 10 MB with a big page', async () => {
    const big = await call(ditte(milano, '?dimensionePagina=20000'), { token: mario, key: rossiEfat, tenant: milano.id });
    assert.equal(big.status, 200);
    assert.ok(Buffer.byteLength(big.text) > 10 * 1024 * 1024, `${Buffer.byteLength(big.text)} bytes`);
    assert.equal((big.json.elementi as unknown[]).length, 20000);
  });

  it('refuses bad paging parameters', async () => {
    for (const query of ['?pagina=0', '?pagina=abc', '?dimensionePagina=50001', '?dimensionePagina=-1']) {
      const res = await call(ditte(milano, query), { token: mario, key: rossiEfat, tenant: milano.id });
      assert.equal(res.status, 400, query);
      assert.equal(res.json.error, 'invalid_parameter');
    }
  });

  describe('bearer token', () => {
    const cases: Array<[string, () => Record<string, string>]> = [
      ['missing', () => ({})],
      ['not Bearer', () => ({ authorization: `Basic ${Buffer.from('a:b').toString('base64')}` })],
      ['not a JWT', () => ({ authorization: 'Bearer abc' })],
      ['forged signature', () => ({ authorization: `Bearer ${mario.slice(0, -6)}AAAAAA` })],
      ['expired', () => ({ authorization: `Bearer ${sandbox.signAccessToken({ exp: Math.floor(Date.now() / 1000) - 5 })}` })],
      ['wrong audience', () => ({ authorization: `Bearer ${sandbox.signAccessToken({ aud: 'urn:some-other-api' })}` })],
      ['wrong issuer', () => ({ authorization: `Bearer ${sandbox.signAccessToken({ iss: 'http://127.0.0.1:1' })}` })],
    ];
    for (const [name, headers] of cases) {
      it(`refuses a ${name} token with 401 invalid_token on every endpoint`, async () => {
        for (const url of [`${sandbox.baseUrl}/v10/user-tenants`, `${sandbox.baseUrl}/api/configurazioni`, ditte(milano)]) {
          const res = await call(url, { key: rossiCore, tenant: milano.id, headers: headers() });
          assert.equal(res.status, 401, `${url}: ${res.text}`);
          assert.equal(res.json.error, 'invalid_token');
          assert.ok(String(res.json.message).length > 10);
          assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer error="invalid_token"/);
        }
      });
    }
    it('accepts a valid token signed by the provider (control for the cases above)', async () => {
      const res = await call(`${sandbox.baseUrl}/v10/user-tenants`, { headers: { authorization: `Bearer ${sandbox.signAccessToken()}` } });
      assert.equal(res.status, 200);
    });
    it('refuses a token expired by its real lifetime', async function () {
      this.timeout(10000);
      const short = await startSandbox({ accessTokenTtlSeconds: 1 });
      try {
        const { accessToken } = await tokensFor(short, 'laura.verdi', { grant: 'password' });
        assert.equal((await call(`${short.baseUrl}/v10/user-tenants`, { token: accessToken })).status, 200);
        await new Promise((r) => setTimeout(r, 2100));
        const res = await call(`${short.baseUrl}/v10/user-tenants`, { token: accessToken });
        assert.equal(res.status, 401);
        assert.match(String(res.json.message), /expired/);
      } finally {
        await short.close();
      }
    });
  });

  describe('licence key', () => {
    it('refuses a missing key (401), an unknown key (403) and a key of another module (403)', async () => {
      const missing = await call(`${sandbox.baseUrl}/api/configurazioni`, { token: mario });
      assert.equal(missing.status, 401);
      assert.equal(missing.json.error, 'missing_licence_key');
      const unknown = await call(`${sandbox.baseUrl}/api/configurazioni`, { token: mario, key: 'NOTAKEY123' });
      assert.equal(unknown.status, 403);
      assert.equal(unknown.json.error, 'unknown_licence_key');
      const wrongModule = await call(`${sandbox.baseUrl}/api/configurazioni`, { token: mario, key: rossiEfat });
      assert.equal(wrongModule.status, 403);
      assert.equal(wrongModule.json.error, 'licence_module_mismatch');
      assert.equal(wrongModule.json.module, 'core');
      const wrongModuleCluster = await call(ditte(milano), { token: mario, key: rossiCore, tenant: milano.id });
      assert.equal(wrongModuleCluster.json.error, 'licence_module_mismatch');
      assert.equal(wrongModuleCluster.json.module, 'efat');
    });
    it('does not need a key for the tenant listing', async () => {
      assert.equal((await call(`${sandbox.baseUrl}/v10/user-tenants`, { token: mario })).status, 200);
    });
  });

  describe('tenant', () => {
    it('refuses a missing User-Tenant (400), a non-GUID or foreign tenant (403) and the wrong cluster (421)', async () => {
      const missing = await call(ditte(milano), { token: mario, key: rossiEfat });
      assert.equal(missing.status, 400);
      assert.equal(missing.json.error, 'missing_tenant');
      const notGuid = await call(ditte(milano), { token: mario, key: rossiEfat, tenant: 'RC-MI' });
      assert.equal(notGuid.status, 403);
      assert.equal(notGuid.json.error, 'unknown_tenant');
      const unknown = await call(ditte(milano), { token: mario, key: rossiEfat, tenant: '00000000-0000-4000-8000-000000000000' });
      assert.equal(unknown.status, 403);
      assert.equal(unknown.json.error, 'unknown_tenant');
      const lauraTenant = sandbox.tenants.find((t) => t.codiceAmbienteDati === 'BA-CO')!;
      const foreign = await call(ditte(lauraTenant), { token: mario, key: bianchiEfat, tenant: lauraTenant.id });
      assert.equal(foreign.status, 403, 'a tenant of another user');
      assert.equal(foreign.json.error, 'unknown_tenant');
      assert.notEqual(milano.clusterAddress, torino.clusterAddress);
      const wrongCluster = await call(`${torino.clusterAddress}/efat/api/v1/ditte`, { token: mario, key: rossiEfat, tenant: milano.id });
      assert.equal(wrongCluster.status, 421);
      assert.equal(wrongCluster.json.error, 'wrong_cluster');
      assert.equal(wrongCluster.json.clusterAddress, milano.clusterAddress);
      const onBase = await call(`${sandbox.baseUrl}/efat/api/v1/ditte`, { token: mario, key: rossiEfat, tenant: milano.id });
      assert.equal(onBase.status, 421);
      const right = await call(ditte(torino), { token: mario, key: rossiEfat, tenant: torino.id });
      assert.equal(right.status, 200);
    });
  });

  describe('Service-Limit-Info', () => {
    it('is on every response, errors included, and counts the calls of the key\'s organization', async () => {
      const before = sandbox.usage('org-rossi');
      const responses = [
        await call(`${sandbox.baseUrl}/v10/user-tenants`, { token: mario }),
        await call(`${sandbox.baseUrl}/api/configurazioni`, { token: mario, key: rossiCore }),
        await call(ditte(milano), { token: mario, key: rossiEfat, tenant: milano.id }),
        await call(`${sandbox.baseUrl}/api/configurazioni`, { token: mario }),
        await call(`${sandbox.baseUrl}/nope`, { token: mario }),
        await call(`${sandbox.baseUrl}/api/configurazioni`, { key: rossiCore }),
        await call(ditte(milano), { token: mario, key: rossiEfat }),
      ];
      for (const r of responses) assert.match(r.limitInfo ?? '', LIMIT_HEADER, `status ${r.status}`);
      const after = sandbox.usage('org-rossi');
      // counted: configurazioni, ditte, and the ditte call refused for its missing tenant
      assert.equal(after.used - before.used, 3);
      assert.equal(responses[2].limitInfo, `api-usage=${before.used + 2}/10000`);
      assert.equal(responses[6].limitInfo, `api-usage=${after.used}/10000`);
      const bianchi = await call(`${sandbox.baseUrl}/api/configurazioni`, { token: laura, key: keyOf(sandbox, 'org-bianchi', 'core') });
      assert.equal(bianchi.limitInfo, `api-usage=${sandbox.usage('org-bianchi').used}/5000`);
      assert.equal(sandbox.usage('org-bianchi').used, 1);
      const refusedWithBianchiKey = await call(`${sandbox.baseUrl}/api/configurazioni`, { key: keyOf(sandbox, 'org-bianchi', 'core') });
      assert.equal(refusedWithBianchiKey.status, 401);
      assert.equal(refusedWithBianchiKey.limitInfo, 'api-usage=1/5000', 'a refused call reports the organization of its key');
      const lauraListing = await call(`${sandbox.baseUrl}/v10/user-tenants`, { token: laura });
      assert.equal(lauraListing.limitInfo, 'api-usage=1/5000', 'a keyless call reports the organization of the user\'s first tenant');
    });
  });

  describe('bad input never crashes it', () => {
    it('answers malformed headers, bad JSON, unknown paths, methods and media types with a clear JSON error', async () => {
      const cases: Array<[string, Promise<Awaited<ReturnType<typeof call>>>, number, string]> = [
        ['bad JSON body', call(`${sandbox.baseUrl}/api/configurazioni`, { token: mario, key: rossiCore, body: '{"a":', method: 'GET' }).catch(() => rawGetWithBody('{"a":')), 400, 'invalid_json'],
        ['unknown path', call(`${sandbox.baseUrl}/api/unknown`, { token: mario, key: rossiCore }), 404, 'not_found'],
        ['POST', call(`${sandbox.baseUrl}/api/configurazioni`, { token: mario, key: rossiCore, method: 'POST', body: '{}' }), 405, 'method_not_allowed'],
        ['Accept text/html', call(`${sandbox.baseUrl}/api/configurazioni`, { token: mario, key: rossiCore, headers: { accept: 'text/html' } }), 406, 'not_acceptable'],
        ['Content-Type xml', call(`${sandbox.baseUrl}/api/configurazioni`, { token: mario, key: rossiCore, headers: { 'content-type': 'application/xml' } }), 415, 'unsupported_media_type'],
        ['key with symbols', call(`${sandbox.baseUrl}/api/configurazioni`, { token: mario, key: 'ab$%^&*' }), 403, 'unknown_licence_key'],
        ['Bearer with spaces', call(`${sandbox.baseUrl}/v10/user-tenants`, { headers: { authorization: 'Bearer a b c' } }), 401, 'invalid_token'],
        ['base path on a cluster', call(`${milano.clusterAddress}/api/configurazioni`, { token: mario, key: rossiCore }), 421, 'wrong_host'],
      ];
      for (const [name, promise, status, error] of cases) {
        const res = await promise;
        assert.equal(res.status, status, `${name}: ${res.text}`);
        assert.equal(res.json.error, error, name);
        assert.ok(String(res.json.message).length > 10, name);
      }
      assert.equal((await call(`${sandbox.baseUrl}/v10/user-tenants`, { token: mario })).status, 200, 'still serving');
    });

    async function rawGetWithBody(body: string) {
      const url = new URL(`${sandbox.baseUrl}/api/configurazioni`);
      return new Promise<Awaited<ReturnType<typeof call>>>((resolve, reject) => {
        const req = httpRequest(url, {
          method: 'GET',
          headers: { authorization: `Bearer ${mario}`, 'authorization-key': rossiCore, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        }, (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: new Headers(), limitInfo: String(res.headers['service-limit-info']), json: JSON.parse(text), text }));
        });
        req.on('error', reject);
        req.end(body);
      });
    }

    it('answers huge headers with 431 and a JSON body, and garbage with 400', async () => {
      const huge = await rawHttp(sandbox.baseUrl, `GET /v10/user-tenants HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40000)}\r\n\r\n`);
      assert.match(huge, /^HTTP\/1\.1 431/);
      assert.match(huge, /"error":"headers_too_large"/);
      assert.match(huge, /Service-Limit-Info: api-usage=\d+\/\d+/);
      const garbage = await rawHttp(sandbox.baseUrl, 'THIS IS NOT HTTP\r\n\r\n');
      assert.match(garbage, /^HTTP\/1\.1 400/);
      assert.match(garbage, /"error":"bad_request"/);
      const badHeader = await rawHttp(sandbox.baseUrl, 'GET /v10/user-tenants HTTP/1.1\r\nHost: x\r\nBad Header Name: 1\r\n\r\n');
      assert.match(badHeader, /^HTTP\/1\.1 400/);
      const auth = await rawHttp(sandbox.authUrl, `GET /connect/userinfo HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'a'.repeat(40000)}\r\n\r\n`);
      assert.match(auth, /^HTTP\/1\.1 431/);
      assert.equal((await call(`${sandbox.baseUrl}/v10/user-tenants`, { token: mario })).status, 200, 'still serving');
      assert.equal((await fetch(sandbox.endpoints.discovery)).status, 200, 'auth still serving');
    });

    it('answers bad input at the authorization server with OAuth errors', async () => {
      const json = await fetch(sandbox.endpoints.token, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"grant_type":' });
      assert.equal(json.status, 400);
      assert.equal(((await json.json()) as Record<string, string>).error, 'invalid_request');
      const noGrant = await fetch(sandbox.endpoints.token, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'client_id=tenant-api-workbench' });
      assert.equal(noGrant.status, 400);
      const userinfo = await fetch(sandbox.endpoints.userinfo, { headers: { authorization: 'Bearer not.a.jwt' } });
      assert.equal(userinfo.status, 401);
      const page = await fetch(`${sandbox.authUrl}/interaction/doesnotexist`);
      assert.equal(page.status, 400);
      assert.match(await page.text(), /expired|cookie/);
    });
  });

  describe('faults', () => {
    it('injects 5xx, reset, bad and missing limit headers, non-JSON and slow responses, then recovers', async () => {
      const url = `${sandbox.baseUrl}/v10/user-tenants`;
      sandbox.injectFault({ kind: 'status', status: 503, count: 2, pathPrefix: '/v10/' });
      assert.equal((await call(url, { token: mario })).status, 503);
      assert.equal((await call(url, { token: mario })).status, 503);
      assert.equal((await call(url, { token: mario })).status, 200);

      sandbox.injectFault({ kind: 'reset' });
      await assert.rejects(call(url, { token: mario }));
      assert.equal(sandbox.requests.at(-1)!.status, 0);

      sandbox.injectFault({ kind: 'badLimitHeader', value: 'api-usage=garbage' });
      assert.equal((await call(url, { token: mario })).limitInfo, 'api-usage=garbage');
      sandbox.injectFault({ kind: 'noLimitHeader' });
      assert.equal((await call(url, { token: mario })).limitInfo, null);
      sandbox.injectFault({ kind: 'nonJson' });
      const nonJson = await call(url, { token: mario });
      assert.match(nonJson.headers.get('content-type') ?? '', /text\/html/);
      assert.throws(() => JSON.parse(nonJson.text));
      sandbox.injectFault({ kind: 'slow', delayMs: 150, pathPrefix: '/v10/' });
      const started = performance.now();
      assert.equal((await call(url, { token: mario })).status, 200);
      assert.ok(performance.now() - started >= 145);
      sandbox.injectFault({ kind: 'status', status: 500, pathPrefix: '/efat/' });
      assert.equal((await call(url, { token: mario })).status, 200, 'a fault for another path prefix does not apply');
      sandbox.clearFaults();
      assert.equal((await call(ditte(milano), { token: mario, key: rossiEfat, tenant: milano.id })).status, 200);
    });

    it('redirects with the injected status and Location (relative or absolute), with the limit header, then recovers', async () => {
      const from = sandbox.requests.length;
      const manual = (url: string, init: RequestInit = {}) => fetch(url, {
        redirect: 'manual',
        ...init,
        headers: { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${mario}`, 'authorization-key': bianchiEfat },
      });
      sandbox.injectFault({ kind: 'redirect', location: '/api/configurazioni?pagina=2', pathPrefix: '/api/v0/' });
      const relative = await manual(`${sandbox.baseUrl}/api/v0/configurazioni`);
      assert.equal(relative.status, 307, 'the default status');
      assert.equal(relative.headers.get('location'), '/api/configurazioni?pagina=2');
      assert.match(relative.headers.get('content-type') ?? '', /application\/json/);
      assert.equal((await relative.json()).location, '/api/configurazioni?pagina=2');
      assert.equal(relative.headers.get(LIMIT_HEADER_NAME), `api-usage=${sandbox.usage('org-bianchi').used}/5000`, 'the organization of the key');
      assert.equal((await manual(`${sandbox.baseUrl}/api/v0/configurazioni`)).status, 404, 'the fault is used up');

      for (const status of [301, 302, 303, 307, 308] as const) {
        sandbox.injectFault({ kind: 'redirect', status, location: ditte(torino), pathPrefix: '/efat/' });
        // With a body: the hop drains it, and the connection serves the next call.
        const absolute = await manual(ditte(milano), { method: 'POST', body: '{"a":1}' });
        assert.equal(absolute.status, status);
        assert.equal(absolute.headers.get('location'), ditte(torino));
        assert.match(absolute.headers.get(LIMIT_HEADER_NAME) ?? '', LIMIT_HEADER);
        await absolute.body?.cancel();
      }
      assert.deepEqual(sandbox.requests.slice(from).map((r) => [r.path, r.status]), [
        ['/api/v0/configurazioni', 307],
        ['/api/v0/configurazioni', 404],
        ...[301, 302, 303, 307, 308].map((status) => ['/efat/api/v1/ditte', status]),
      ]);

      for (const bad of [
        { kind: 'redirect', status: 304, location: '/x' },
        { kind: 'redirect', status: 200, location: '/x' },
        { kind: 'redirect', location: '' },
        { kind: 'redirect', location: '/a b' },
        { kind: 'redirect', location: 'http://[::1' },
        { kind: 'redirect' },
      ]) {
        assert.throws(() => sandbox.injectFault(bad as Fault), /redirect fault/, JSON.stringify(bad));
      }
      assert.equal((await call(`${sandbox.baseUrl}/api/configurazioni`, { token: mario, key: rossiCore })).status, 200, 'nothing was queued');
    });

    it('counts a redirect hop with a valid token against the per-application limits, and refuses it with 429 when they are used up', async () => {
      const limited = await startSandbox({ rateLimits: { perSecond: 3, perMinute: 1e6 } });
      try {
        const { accessToken } = await tokensFor(limited, 'mario.rossi');
        const url = `${limited.baseUrl}/api/configurazioni`;
        const key = keyOf(limited, 'org-rossi', 'core');
        const hop = () => fetch(url, { redirect: 'manual', headers: { authorization: `Bearer ${accessToken}`, 'authorization-key': key } });
        // Hops without a valid token are not counted: no application is known.
        limited.injectFault({ kind: 'redirect', location: '/api/configurazioni', count: 5 });
        const anonymous = await fetch(url, { redirect: 'manual' });
        assert.equal(anonymous.status, 307);
        const counted = [await hop(), await hop(), await hop()];
        assert.deepEqual(counted.map((r) => r.status), [307, 307, 307]);
        const refusedHop = await hop();
        assert.equal(refusedHop.status, 429, 'the fourth hop in the second');
        assert.equal((await refusedHop.json()).limit, 'second');
        assert.equal((await call(url, { token: accessToken, key })).status, 429, 'the hops took the slots of ordinary calls');
        assert.equal(limited.usage('org-rossi').used, 0, 'hops are not counted weekly');
      } finally {
        await limited.close();
      }
    });

    it('records every request with its host, headers and status', async () => {
      const from = sandbox.requests.length;
      await call(ditte(milano), { token: mario, key: rossiEfat, tenant: milano.id });
      const rec = sandbox.requests[from];
      assert.equal(rec.host, `cluster${sandbox.clusterUrls.indexOf(milano.clusterAddress)}`);
      assert.equal(rec.path, '/efat/api/v1/ditte');
      assert.equal(rec.headers['user-tenant'], milano.id);
      assert.equal(rec.headers['authorization-key'], rossiEfat);
      assert.equal(rec.status, 200);
    });

    it('records the body of a request as it arrived, even one it refuses', async () => {
      const from = sandbox.requests.length;
      const body = '{\n  "descrizione": "Nuova",\n  "città": "Città di Castello"\n}\n';
      const posted = await call(`${sandbox.baseUrl}/api/configurazioni`, { token: mario, key: rossiCore, method: 'POST', body });
      assert.equal(posted.status, 405);
      assert.equal(sandbox.requests[from].method, 'POST');
      assert.equal(sandbox.requests[from].body, body);
      await call(`${sandbox.baseUrl}/api/configurazioni`, { token: mario, key: rossiCore });
      assert.equal(sandbox.requests[from + 1].body, '', 'a GET has an empty body');
    });

    it('adds latency and jitter', async () => {
      const slow = await startSandbox({ latencyMs: 60, jitterMs: 20 });
      try {
        const { accessToken } = await tokensFor(slow, 'laura.verdi', { grant: 'password' });
        const started = performance.now();
        await call(`${slow.baseUrl}/v10/user-tenants`, { token: accessToken });
        const took = performance.now() - started;
        assert.ok(took >= 58 && took < 400, `${took} ms`);
      } finally {
        await slow.close();
      }
    });
  });
});

function rawHttp(baseUrl: string, payload: string): Promise<string> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let data = '';
    socket.on('data', (c) => (data += c));
    socket.on('end', () => resolve(data));
    socket.on('close', () => resolve(data));
    socket.on('error', (err) => (data ? resolve(data) : reject(err)));
    socket.write(payload);
  });
}
