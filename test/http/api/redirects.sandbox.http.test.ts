import * as assert from 'node:assert/strict';
import type { Logger } from '../../../src/common/logger';
import { rejectsWith } from '../../helpers/apiErrorAssertions';
import { startSandbox, type Sandbox } from '../../sandbox';
import { clientFor, tenantOf, type Harness } from './harness';

/** The API client's redirect handling against the sandbox's redirect fault, over real HTTP. */
describe('ApiClient redirects against the sandbox', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let h: Harness;
  let logged: string[];

  before(async () => {
    sandbox = await startSandbox({ timeScale: 0.1 });
  });
  after(async () => {
    await sandbox?.close();
  });
  beforeEach(async () => {
    sandbox.resetLimits();
    sandbox.clearFaults();
    sandbox.requests.length = 0;
    logged = [];
    const record = (message: string | Error) => logged.push(String(message));
    const logger: Logger = { trace: record, debug: record, info: record, warn: record, error: record };
    h = await clientFor(sandbox, {}, { logger });
  });
  afterEach(() => h.client.dispose());

  const keyOf = async (module: string) => (await h.keys.get(module))!.key;
  const hops = () => sandbox.requests.map((r) => [r.method, r.host, r.path, r.status]);

  it('follows a 307 to another /api/ path on the base host with the bearer and the licence key, and answers with the target', async () => {
    sandbox.injectFault({ kind: 'redirect', location: '/api/configurazioni?pagina=2&dimensionePagina=3', pathPrefix: '/api/v0/' });
    const response = await h.client.send({ method: 'GET', path: '/api/v0/configurazioni' });

    assert.equal(response.status, 200);
    assert.equal(response.url, `${sandbox.baseUrl}/api/configurazioni?pagina=2&dimensionePagina=3`);
    const page = response.json as { organizzazione: string; pagina: number; dimensionePagina: number; elementi: unknown[] };
    assert.deepEqual([page.organizzazione, page.pagina, page.dimensionePagina, page.elementi.length], ['org-rossi', 2, 3, 3]);
    assert.deepEqual(hops(), [
      ['GET', 'base', '/api/v0/configurazioni', 307],
      ['GET', 'base', '/api/configurazioni', 200],
    ]);
    const [first, second] = sandbox.requests;
    assert.match(second.headers['authorization'], /^Bearer ey/);
    assert.equal(second.headers['authorization'], first.headers['authorization']);
    assert.equal(second.headers['authorization-key'], await keyOf('core'));
  });

  it('drops Authorization, Authorization-Key and User-Tenant when an /efat/ call is sent to another cluster, and stops with a clear error when that host asks for them', async () => {
    const milano = tenantOf(sandbox, 0);
    const otherCluster = sandbox.clusterUrls.find((url) => url !== milano.clusterAddress)!;
    sandbox.injectFault({ kind: 'redirect', location: `${otherCluster}/efat/api/v1/ditte`, pathPrefix: '/efat/' });

    let failure: Error | undefined;
    await assert.rejects(
      h.client.send({ method: 'GET', path: '/efat/api/v1/ditte', tenant: milano }),
      rejectsWith('hostValidation', (error) => {
        failure = error;
        assert.match(error.message, /redirected .* not followed: the new host asked for credentials/);
        assert.equal(error.details.status, 401);
        assert.equal(error.details.serverError, 'invalid_token');
        assert.equal(error.details.url, `${otherCluster}/efat/api/v1/ditte`);
      }),
    );

    assert.deepEqual(hops(), [
      ['GET', 'cluster0', '/efat/api/v1/ditte', 307],
      ['GET', 'cluster1', '/efat/api/v1/ditte', 401],
    ]);
    const [first, second] = sandbox.requests;
    assert.equal(first.headers['user-tenant'], milano.id);
    assert.equal(first.headers['authorization-key'], await keyOf('efat'));
    for (const name of ['authorization', 'authorization-key', 'user-tenant']) {
      assert.equal(second.headers[name], undefined, `${name} must not reach the other origin`);
    }
    assert.equal(second.headers['accept'], 'application/json', 'the other headers still go');

    const token = first.headers['authorization'].slice('Bearer '.length);
    const secrets = [token, await keyOf('efat'), await keyOf('core')];
    const texts = [failure!.message, (failure as unknown as { describe(): string }).describe(), ...logged];
    assert.ok(logged.some((line) => /credentials and the request's own headers dropped/.test(line)), 'the drop is logged');
    for (const text of texts) for (const secret of secrets) assert.ok(!text.includes(secret), `a secret in: ${text}`);
  });

  it('re-sends a POST as a GET without the body after a 303', async () => {
    sandbox.injectFault({ kind: 'redirect', status: 303, location: '/api/configurazioni', pathPrefix: '/api/v0/' });
    const body = { nome: 'prova' };
    const response = await h.client.send({ method: 'POST', path: '/api/v0/configurazioni', body });

    assert.equal(response.status, 200);
    assert.equal(response.method, 'GET');
    assert.deepEqual(hops(), [
      ['POST', 'base', '/api/v0/configurazioni', 303],
      ['GET', 'base', '/api/configurazioni', 200],
    ]);
    assert.equal(sandbox.requests[0].headers['content-length'], String(JSON.stringify(body).length));
    assert.equal(sandbox.requests[1].headers['content-length'], undefined);
    assert.equal(sandbox.requests[1].headers['transfer-encoding'], undefined);
  });

  it('re-sends a POST as a POST with the same body after a 307', async () => {
    sandbox.injectFault({ kind: 'redirect', status: 307, location: '/api/configurazioni', pathPrefix: '/api/v0/', count: 2 });
    const body = '{"nome":"prova"}';
    // The sandbox only serves GET: a POST that reaches the target with its JSON body gets 405 there.
    await assert.rejects(
      h.client.send({ method: 'POST', path: '/api/v0/configurazioni', body }),
      rejectsWith('http', (error) => assert.equal(error.details.serverError, 'method_not_allowed')),
    );
    // The bytes themselves: a body that is not JSON is refused by the target as invalid_json.
    await assert.rejects(
      h.client.send({ method: 'POST', path: '/api/v0/configurazioni', body: '{"nome": not json' }),
      rejectsWith('http', (error) => assert.equal(error.details.serverError, 'invalid_json')),
    );

    assert.deepEqual(hops(), [
      ['POST', 'base', '/api/v0/configurazioni', 307],
      ['POST', 'base', '/api/configurazioni', 405],
      ['POST', 'base', '/api/v0/configurazioni', 307],
      ['POST', 'base', '/api/configurazioni', 400],
    ]);
    assert.equal(sandbox.requests[1].headers['content-length'], String(body.length));
    assert.equal(sandbox.requests[1].headers['authorization-key'], await keyOf('core'));
  });

  it('stops a redirect loop with "more than 5 redirects" after 6 requests, and the next call works', async () => {
    sandbox.injectFault({ kind: 'redirect', location: '/api/configurazioni', pathPrefix: '/api/configurazioni', count: 50 });
    await assert.rejects(
      h.client.send({ method: 'GET', path: '/api/configurazioni' }),
      rejectsWith('hostValidation', (error) => {
        assert.match(error.message, /more than 5 redirects/);
        assert.equal(error.details.attempts, 6);
      }),
    );
    assert.deepEqual(hops(), Array.from({ length: 6 }, () => ['GET', 'base', '/api/configurazioni', 307]));
    assert.equal(h.client.scheduler.length, 0, 'no call is left waiting');

    sandbox.clearFaults();
    const next = await h.client.send({ method: 'GET', path: '/api/configurazioni' });
    assert.equal(next.status, 200);
    assert.equal(sandbox.requests.length, 7);
  });

  it('takes a rate-limit slot for every hop: 4 calls of 2 hops each stay within 5 per second, without a 429', async () => {
    sandbox.injectFault({ kind: 'redirect', location: '/api/configurazioni', pathPrefix: '/api/v0/', count: 4 });
    const started = performance.now();
    const responses = await Promise.all([1, 2, 3, 4].map(() => h.client.send({ method: 'GET', path: '/api/v0/configurazioni' })));
    const tookMs = performance.now() - started;

    assert.deepEqual(responses.map((r) => [r.status, r.attempts]), [[200, 2], [200, 2], [200, 2], [200, 2]]);
    const statuses = sandbox.requests.map((r) => r.status);
    assert.equal(statuses.length, 8);
    assert.equal(statuses.filter((s) => s === 307).length, 4);
    assert.equal(statuses.filter((s) => s === 200).length, 4);
    // The sandbox counts hops too (resourceApi.test.ts): 8 in one window would have met a 429.
    const windowMs = 1000 * sandbox.options.timeScale;
    const arrivals = sandbox.requests.map((r) => r.at).sort((a, b) => a - b);
    assert.ok(arrivals[5] - arrivals[0] >= windowMs - 5, `the sixth hop arrived ${arrivals[5] - arrivals[0]} ms after the first`);
    assert.ok(tookMs < 20 * windowMs, `${tookMs} ms`);
  });
});
