import * as assert from 'node:assert/strict';
import sinon from 'sinon';
import { rejectsWith } from '../../helpers/apiErrorAssertions';
import { silentLogger } from '../../../src/common/logger';
import { startSandbox, type Sandbox } from '../../sandbox';
import { ROSSI, clientFor, tenantOf, type Harness } from './harness';


describe('ApiClient against the sandbox', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let h: Harness;

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
    h = await clientFor(sandbox);
  });
  afterEach(() => h.client.dispose());

  const milano = () => tenantOf(sandbox, 0); // cluster 0
  const torino = () => tenantOf(sandbox, 1); // cluster 1

  describe('headers and hosts', () => {
    it('lists the tenants with the bearer only, and every cluster address passes', async () => {
      const tenants = await h.client.listTenants();
      assert.deepEqual(tenants.map((t) => t.id).sort(), sandbox.users[0].tenantIds.slice().sort());
      assert.ok(tenants.every((t) => t.usable));
      const [sent] = sandbox.requests;
      assert.equal(sent.host, 'base');
      assert.equal(sent.path, '/v10/user-tenants');
      assert.match(sent.headers['authorization'], /^Bearer ey/);
      assert.equal(sent.headers['accept'], 'application/json');
      assert.equal(sent.headers['authorization-key'], undefined);
      assert.equal(sent.headers['user-tenant'], undefined);
    });

    it('sends /api/ to the base host with Accept, Content-Type, bearer and the core key', async () => {
      const response = await h.client.send({ method: 'GET', path: '/api/configurazioni' });
      assert.equal(response.status, 200);
      assert.ok(response.json && typeof response.json === 'object');
      const [sent] = sandbox.requests;
      assert.equal(sent.host, 'base');
      assert.equal(sent.headers['content-type'], 'application/json');
      assert.equal(sent.headers['accept'], 'application/json');
      assert.equal(sent.headers['authorization-key'], (await h.keys.get('core'))!.key);
      assert.equal(sent.headers['user-tenant'], undefined);
    });

    it('sends /efat/ to the cluster of the tenant with User-Tenant and the efat key', async () => {
      await h.client.send({ method: 'GET', path: '/efat/api/v1/ditte', tenant: milano() });
      await h.client.send({ method: 'GET', path: '/efat/api/v1/ditte', tenant: torino() });
      assert.deepEqual(sandbox.requests.map((r) => [r.host, r.status, r.headers['user-tenant']]), [
        ['cluster0', 200, milano().id],
        ['cluster1', 200, torino().id],
      ]);
      assert.equal(sandbox.requests[0].headers['authorization-key'], (await h.keys.get('efat'))!.key);
    });

    it('reads the usage of the key organization from every response', async () => {
      const events: string[] = [];
      h.client.quota.onDidChange((e) => events.push(`${e.organization} ${e.reading?.used}/${e.reading?.limit}`));
      await h.client.send({ method: 'GET', path: '/api/configurazioni' });
      await h.client.send({ method: 'GET', path: '/efat/api/v1/ditte', tenant: milano() });
      const usage = sandbox.usage('org-rossi');
      assert.deepEqual(events, [`${ROSSI} 1/${usage.limit}`, `${ROSSI} 2/${usage.limit}`]);
      assert.equal(h.client.quota.reading(ROSSI)?.keyLabel, 'Rossi efat');
    });

    it('never sends a call whose module has no key', async () => {
      await h.keys.clear('efat');
      await assert.rejects(h.client.send({ method: 'GET', path: '/efat/api/v1/ditte', tenant: milano() }), rejectsWith('licenceMissing'));
      assert.equal(sandbox.requests.length, 0);
    });

    it('says so when the key belongs to another module', async () => {
      const efat = (await h.keys.get('efat'))!;
      await h.keys.set('core', { key: efat.key, label: 'mistake', organization: ROSSI });
      await assert.rejects(h.client.send({ method: 'GET', path: '/api/configurazioni' }), rejectsWith('licenceWrongModule', (e) => {
        assert.equal(e.details.status, 403);
        assert.equal(e.details.module, 'core');
        assert.match(e.message, /another module.*"core"/);
      }));
    });

    it('says so when the key is unknown', async () => {
      await h.keys.set('core', { key: 'NOTAKEY123', label: 'typo', organization: ROSSI });
      await assert.rejects(h.client.send({ method: 'GET', path: '/api/configurazioni' }), rejectsWith('licenceUnknown'));
    });

    it('reports the tenant refusals of the server', async () => {
      const stranger = { ...milano(), id: sandbox.tenants.find((t) => !sandbox.users[0].tenantIds.includes(t.id))!.id };
      await assert.rejects(h.client.send({ method: 'GET', path: '/efat/api/v1/ditte', tenant: stranger }), rejectsWith('tenant', (e) => assert.equal(e.details.status, 403)));
      const misplaced = { ...milano(), clusterAddress: torino().clusterAddress };
      await assert.rejects(h.client.send({ method: 'GET', path: '/efat/api/v1/ditte', tenant: misplaced }), rejectsWith('tenant', (e) => assert.equal(e.details.status, 421)));
    });

    it('never calls a tenant whose cluster is not an allowed host', async () => {
      const h2 = await clientFor(sandbox, { allowedHosts: ['example.com'] });
      const tenants = await h2.client.listTenants();
      assert.ok(tenants.every((t) => t.clusterAddress.startsWith('http://127.0.0.1')));
      // The base host is always allowed; cluster hosts share its address here, so move one away.
      const elsewhere = { ...milano(), clusterAddress: milano().clusterAddress.replace('127.0.0.1', 'localhost') };
      const before = sandbox.requests.length;
      await assert.rejects(h2.client.send({ method: 'GET', path: '/efat/api/v1/ditte', tenant: elsewhere }), rejectsWith('hostValidation'));
      assert.equal(sandbox.requests.length, before);
      h2.client.dispose();
    });

    it('refreshes the token once after a 401 and retries', async () => {
      h.tokens.next = sandbox.signAccessToken({ exp: Math.floor(Date.now() / 1000) - 60 }, 'mario.rossi');
      const response = await h.client.send({ method: 'GET', path: '/api/configurazioni' });
      assert.equal(response.status, 200);
      assert.deepEqual(sandbox.requests.map((r) => r.status), [401, 200]);
      assert.deepEqual(h.tokens.calls, [{}, { forceRefresh: true }]);
    });

    it('asks to sign in again when the refreshed token is refused too', async () => {
      const expired = sandbox.signAccessToken({ exp: Math.floor(Date.now() / 1000) - 60 }, 'mario.rossi');
      h.tokens.getAccessToken = async () => expired;
      await assert.rejects(h.client.send({ method: 'GET', path: '/api/configurazioni' }), rejectsWith('auth', (e) => assert.match(e.message, /Sign in again/)));
      assert.deepEqual(sandbox.requests.map((r) => r.status), [401, 401]);
    });
  });

  describe('limits', () => {
    it('sends a burst of 40 calls without a single 429', async () => {
      const responses = await Promise.all(Array.from({ length: 40 }, () => h.client.send({ method: 'GET', path: '/api/configurazioni' })));
      assert.ok(responses.every((r) => r.status === 200));
      assert.equal(sandbox.requests.filter((r) => r.status === 429).length, 0);
      assert.equal(sandbox.requests.length, 40);
    });

    it('learns the floor of the round trip and then sends 200 calls through jitter without a single 429', async () => {
      const jittery = await startSandbox({ timeScale: 0.1, latencyMs: 3, jitterMs: 2 });
      try {
        // The default margin (5 ms of a second), scaled like the windows.
        const r = await clientFor(jittery, { safetyMarginMs: 0.5 });
        const origin = new URL(jittery.baseUrl).origin;
        assert.equal(r.client.scheduler.roundTripFloor(origin), undefined, 'nothing learned yet: answer times');
        // Learning: the floor is trusted after ROUND_TRIP_SAMPLES round trips in a row that do not beat
        // it by more than the margin. On a loaded machine a quiet moment can beat it late and start the
        // count again, so send until it holds instead of assuming a number of calls is enough.
        let learning = 0;
        while (r.client.scheduler.roundTripFloor(origin) === undefined && learning < 500) {
          await Promise.all(Array.from({ length: 10 }, () => r.client.send({ method: 'GET', path: '/api/configurazioni' })));
          learning += 10;
        }
        const floor = r.client.scheduler.roundTripFloor(origin);
        assert.ok(floor !== undefined && floor >= 3, `the 3 ms latency of the sandbox is taken off answer times (floor ${floor} ms after ${learning} calls)`);
        // With the floor in force, a burst through the jitter.
        const before = jittery.requests.length;
        const responses = await Promise.all(Array.from({ length: 200 }, () => r.client.send({ method: 'GET', path: '/api/configurazioni' })));
        assert.ok(responses.every((response) => response.status === 200));
        assert.equal(jittery.requests.filter((request) => request.status === 429).length, 0);
        assert.equal(jittery.requests.length - before, 200);
        r.client.dispose();
      } finally {
        await jittery.close();
      }
    });

    it('recovers from a 429 burst caused by another client of the same application: every GET succeeds', async () => {
      // Real time here: a scaled window (100 ms) can end before a loaded machine delivers the burst.
      const real = await startSandbox({ timeScale: 1 });
      try {
        const r = await clientFor(real);
        const token = real.signAccessToken({}, 'mario.rossi');
        // Another process of the same application uses the whole second window.
        await Promise.all(Array.from({ length: 5 }, () => fetch(`${real.baseUrl}/v10/user-tenants`, { headers: { Authorization: `Bearer ${token}` } })));
        const responses = await Promise.all(Array.from({ length: 8 }, () => r.client.send({ method: 'GET', path: '/api/configurazioni' })));
        assert.ok(responses.every((response) => response.status === 200));
        const ours = real.requests.filter((request) => request.path === '/api/configurazioni');
        assert.ok(ours.some((request) => request.status === 429), 'the sandbox refused some');
        assert.equal(ours.filter((request) => request.status === 200).length, 8, 'nothing lost, nothing doubled');
        assert.equal(r.fetched.length, ours.length);
        await Promise.all(Array.from({ length: 30 }, () => r.client.send({ method: 'GET', path: '/v10/user-tenants' })));
        assert.equal(r.client.scheduler.roundTripFloor(new URL(real.baseUrl).origin), undefined, 'after a 429, answer times for good');
        r.client.dispose();
      } finally {
        await real.close();
      }
    });

    it('does not send a POST again after a 429', async () => {
      // The sandbox checks the method before the limits, so the 429 is injected.
      sandbox.injectFault({ kind: 'status', status: 429, pathPrefix: '/api/' });
      await assert.rejects(h.client.send({ method: 'POST', path: '/api/configurazioni', body: {} }), rejectsWith('rateLimit'));
      assert.equal(sandbox.requests.filter((r) => r.method === 'POST').length, 1);
      assert.equal(h.fetched.length, 1);
    });

    it('stops the organization at the weekly limit until the user resumes it', async () => {
      const weekly = await startSandbox({ timeScale: 0.1, weeklyLimit: 3 });
      try {
        const w = await clientFor(weekly);
        for (let i = 0; i < 3; i++) await w.client.send({ method: 'GET', path: '/api/configurazioni' });
        assert.deepEqual(w.client.quota.reading(ROSSI) && [w.client.quota.reading(ROSSI)!.used, w.client.quota.reading(ROSSI)!.limit], [3, 3]);
        await assert.rejects(w.client.send({ method: 'GET', path: '/api/configurazioni' }), rejectsWith('quotaReached'));
        assert.equal(weekly.requests.length, 3, 'refused locally');
        await assert.rejects(w.client.send({ method: 'GET', path: '/efat/api/v1/ditte', tenant: tenantOf(weekly, 0), sendOverQuota: true }), rejectsWith('weeklyQuota'));
        assert.equal(weekly.requests.at(-1)!.status, 429);
        assert.ok(w.client.quota.isBlocked(ROSSI));
        await assert.rejects(w.client.send({ method: 'GET', path: '/api/configurazioni' }), rejectsWith('weeklyQuota', (e) => assert.match(e.message, /stopped/)));
        assert.equal(weekly.requests.length, 4);
        weekly.resetLimits();
        w.client.quota.resume(ROSSI);
        assert.equal((await w.client.send({ method: 'GET', path: '/api/configurazioni' })).status, 200);
        assert.equal(w.client.quota.isBlocked(ROSSI), false);
        w.client.dispose();
      } finally {
        await weekly.close();
      }
    });
  });

  describe('injected faults', () => {
    const path = '/api/configurazioni';
    const sentTo = (method: string) => sandbox.requests.filter((r) => r.path === path && r.method === method);

    for (const status of [500, 502, 503, 504]) {
      it(`retries a GET after ${status} and gets the answer`, async () => {
        sandbox.injectFault({ kind: 'status', status, count: 2, pathPrefix: path });
        const response = await h.client.send({ method: 'GET', path });
        assert.equal(response.status, 200);
        assert.deepEqual(sentTo('GET').map((r) => r.status), [status, status, 200]);
      });
    }

    it('sends a POST that got a 503 only once', async () => {
      sandbox.injectFault({ kind: 'status', status: 503, pathPrefix: path });
      await assert.rejects(h.client.send({ method: 'POST', path, body: { a: 1 } }), rejectsWith('http', (e) => assert.equal(e.details.status, 503)));
      assert.equal(sentTo('POST').length, 1);
      assert.equal(h.fetched.filter((f) => f.method === 'POST').length, 1);
    });

    it('retries a GET after a connection reset', async () => {
      sandbox.injectFault({ kind: 'reset', pathPrefix: path });
      const response = await h.client.send({ method: 'GET', path });
      assert.equal(response.status, 200);
      assert.deepEqual(sentTo('GET').map((r) => r.status), [0, 200]);
    });

    it('sends a POST whose connection was reset only once, and says it may have taken effect', async () => {
      sandbox.injectFault({ kind: 'reset', pathPrefix: path });
      await assert.rejects(h.client.send({ method: 'POST', path, body: {} }), rejectsWith('network', (e) => assert.match(e.message, /check whether it took effect/)));
      assert.equal(sentTo('POST').length, 1);
      assert.equal(h.fetched.filter((f) => f.method === 'POST').length, 1);
    });

    it('retries a GET that timed out', async () => {
      const slow = await clientFor(sandbox, { requestTimeoutSeconds: 0.3 });
      sandbox.injectFault({ kind: 'slow', delayMs: 1000, pathPrefix: path });
      const response = await slow.client.send({ method: 'GET', path });
      assert.equal(response.status, 200);
      assert.equal(response.attempts, 2);
      slow.client.dispose();
    });

    it('sends a POST that timed out only once', async () => {
      const slow = await clientFor(sandbox, { requestTimeoutSeconds: 0.3 });
      sandbox.injectFault({ kind: 'slow', delayMs: 600, pathPrefix: path });
      await assert.rejects(slow.client.send({ method: 'POST', path, body: {} }), rejectsWith('timeout', (e) => assert.match(e.message, /check whether it took effect/)));
      await new Promise((resolve) => setTimeout(resolve, 700));
      assert.deepEqual(slow.fetched.map((f) => f.method), ['POST']);
      // It reached the server once (recorded on arrival, before the injected delay): sent, never sent again.
      assert.equal(sentTo('POST').length, 1);
      slow.client.dispose();
    });

    it('logs and ignores a malformed Service-Limit-Info, keeping the last good reading', async () => {
      const logger = { ...silentLogger, warn: sinon.spy() };
      const logged = await clientFor(sandbox, {}, { logger });
      await logged.client.send({ method: 'GET', path });
      const good = logged.client.quota.reading(ROSSI);
      sandbox.injectFault({ kind: 'badLimitHeader', value: 'api-usage=lots/unknown', pathPrefix: path });
      const response = await logged.client.send({ method: 'GET', path });
      assert.equal(response.status, 200);
      assert.equal(response.usage, undefined);
      assert.equal(logged.client.quota.reading(ROSSI), good);
      assert.ok(logger.warn.getCalls().some((c) => /malformed Service-Limit-Info/.test(String(c.args[0]))));
      logged.client.dispose();
    });

    it('accepts a response without Service-Limit-Info', async () => {
      sandbox.injectFault({ kind: 'noLimitHeader', pathPrefix: path });
      const response = await h.client.send({ method: 'GET', path });
      assert.equal(response.status, 200);
      assert.equal(response.usage, undefined);
    });

    it('keeps a non-JSON body as text', async () => {
      sandbox.injectFault({ kind: 'nonJson', pathPrefix: path });
      const response = await h.client.send({ method: 'GET', path });
      assert.equal(response.status, 200);
      assert.equal(response.json, undefined);
      assert.match(response.bodyText, /not JSON/);
    });

    it('can cancel a call that waits for a slot without it ever being sent', async () => {
      const calls = Array.from({ length: 6 }, () => h.client.send({ method: 'GET', path }));
      const controller = new AbortController();
      const cancelled = h.client.send({ method: 'GET', path, signal: controller.signal, onQueuePosition: (p) => p > 0 && controller.abort() });
      await assert.rejects(cancelled, rejectsWith('cancelled'));
      await Promise.all(calls);
      assert.equal(sentTo('GET').length, 6);
    });
  });
});
