import * as assert from 'node:assert/strict';
import sinon from 'sinon';
import { ApiClient, pauseAfter429, rateLimitUnit, type ApiSettings } from '../../../src/api/apiClient';
import { CountTimeEstimator, type CountTimeRule } from '../../../src/api/countTimeEstimate';
import { APPLICATION_LIMITS } from '../../../src/api/limits';
import { localScheduler } from '../../../src/api/requestScheduler';
import { SendTimes } from '../../helpers/sendTimes';
import { rejectsWith } from '../../helpers/apiErrorAssertions';
import { LicenceKeyStore } from '../../../src/api/licenceKeyStore';
import type { TenantRecord } from '../../../src/api/types';
import { SignInRequiredError } from '../../../src/auth/errors';
import { InMemorySecretStore } from '../../helpers/inMemorySecretStore';
import { FakeClock, flush } from './fakeClock';
import type { Logger } from '../../../src/common/logger';
import { silentLogger } from '../../../src/common/logger';
import { outcomeOfError } from '../../../src/commands/requestOutcome';

function suggestedCommand(error: unknown): string | undefined {
  const first = outcomeOfError(error, { method: 'GET', path: '/', preview: false }).actions[0];
  return first && 'command' in first ? first.command : undefined;
}

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

type Handler = (request: Seen, index: number) => Response | Promise<Response>;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const tenant: TenantRecord = {
  id: '3f2b8c1e-5d4a-4e6b-9a7c-1b2d3e4f5a60',
  codiceAmbienteDati: 'RC-MI',
  descrizioneAmbienteDati: 'Rossi Milano',
  clusterAddress: 'https://cluster1.example.com',
  usable: true,
};

async function setup(handler: Handler, settings: Partial<ApiSettings> = {}, options: { countTime?: CountTimeRule; logger?: Logger } = {}) {
  const clock = new FakeClock();
  const seen: Seen[] = [];
  const fetch = async (input: Request | URL | string, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    const entry: Seen = {
      method: request.method,
      url: request.url,
      headers,
      body: await request.text(),
    };
    seen.push(entry);
    if (request.signal.aborted) throw request.signal.reason;
    return await new Promise<Response>((resolve, reject) => {
      request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
      Promise.resolve(handler(entry, seen.length - 1)).then(resolve, reject);
    });
  };
  const secrets = new InMemorySecretStore();
  const licenceKeys = new LicenceKeyStore(secrets);
  await licenceKeys.set('core', { key: 'CORE1', label: 'Rossi core', organization: 'Rossi' });
  await licenceKeys.set('efat', { key: 'EFAT1', label: 'Rossi efat', organization: 'Rossi' });
  const tokens = { getAccessToken: sinon.stub().resolves('token-1') };
  const client = new ApiClient({
    settings: () => ({
      baseUrl: 'https://api.example.com',
      allowedHosts: [],
      routes: [],
      endpoints: [],
      requestTimeoutSeconds: 30,
      safetyMarginMs: 0,
      maxQueueLength: 100,
      maxRetries: 2,
      ...settings,
    }),
    tokens,
    licenceKeys,
    clock,
    fetch,
    random: () => 0.5,
    // Another rule for where calls go in the log: through a scheduler of the test's own.
    scheduler: options.countTime
      ? localScheduler({ clock, limits: APPLICATION_LIMITS, safetyMarginMs: () => 0, maxQueueLength: () => 100, countTime: options.countTime })
      : undefined,
    logger: options.logger,
  });
  return { client, clock, seen, tokens, licenceKeys };
}

/** Runs `promise` while moving the fake clock, so that pauses and backoffs elapse. */
async function run<T>(clock: FakeClock, promise: Promise<T>, stepMs = 100, maxMs = 200_000): Promise<T> {
  let settled = false;
  const tracked = promise.finally(() => (settled = true));
  tracked.catch(() => undefined);
  for (let t = 0; t < maxMs && !settled; t += stepMs) await clock.advance(stepMs);
  await flush();
  return tracked;
}


const ok = () => json(200, { ok: true }, { 'service-limit-info': 'api-usage=5/100' });

describe('ApiClient (stub fetch)', () => {
  it('sends the bearer only to the tenant listing', async () => {
    const { client, seen } = await setup(() => json(200, []));
    await client.send({ method: 'GET', path: '/v10/user-tenants' });
    assert.equal(seen[0].url, 'https://api.example.com/v10/user-tenants');
    assert.equal(seen[0].headers['authorization'], 'Bearer token-1');
    assert.equal(seen[0].headers['accept'], 'application/json');
    assert.equal(seen[0].headers['content-type'], 'application/json');
    assert.equal(seen[0].headers['authorization-key'], undefined);
    assert.equal(seen[0].headers['user-tenant'], undefined);
  });

  it('sends /api/ to the base host with the core key and no tenant', async () => {
    const { client, seen } = await setup(ok);
    const response = await client.send({ method: 'GET', path: '/api/configurazioni', query: { top: 5 }, tenant });
    assert.equal(seen[0].url, 'https://api.example.com/api/configurazioni?top=5');
    assert.equal(seen[0].headers['authorization-key'], 'CORE1');
    assert.equal(seen[0].headers['user-tenant'], undefined);
    assert.deepEqual(response.json, { ok: true });
    assert.deepEqual(response.requestHeaders['Authorization-Key'], '*** (Rossi core)');
    assert.equal(response.requestHeaders['Authorization'], 'Bearer ***');
    // Which key's organization selected the data: its public part, never the key.
    assert.deepEqual(response.licence, { module: 'core', label: 'Rossi core', organization: 'Rossi' });
    assert.ok(!JSON.stringify(response).includes('CORE1') && !JSON.stringify(response).includes('token-1'));
  });

  it('sends /efat/ to the tenant cluster with the efat key and User-Tenant', async () => {
    const { client, seen } = await setup(ok);
    await client.send({ method: 'GET', path: '/efat/api/v1/ditte', tenant });
    assert.equal(seen[0].url, 'https://cluster1.example.com/efat/api/v1/ditte');
    assert.equal(seen[0].headers['authorization-key'], 'EFAT1');
    assert.equal(seen[0].headers['user-tenant'], tenant.id);
  });

  it('stops before sending when the module has no key, a tenant is missing or unusable, or the host is not allowed', async () => {
    const { client, seen, licenceKeys } = await setup(ok);
    await licenceKeys.clear('efat');
    await assert.rejects(client.send({ method: 'GET', path: '/efat/api/v1/ditte', tenant }), rejectsWith('licenceMissing', (e) => {
      assert.equal(e.details.module, 'efat');
      // The action the user is offered comes from the one map of outcomes (src/commands/requestOutcome.ts).
      assert.equal(suggestedCommand(e), 'tenantApi.setLicenceKey');
    }));
    await assert.rejects(client.send({ method: 'GET', path: '/efat/api/v1/ditte' }), rejectsWith('tenant'));
    await assert.rejects(client.send({ method: 'GET', path: '/efat/x', tenant: { ...tenant, usable: false, unusableReason: 'bad host' } }), rejectsWith('tenant', (e) => assert.match(e.message, /bad host/)));
    await licenceKeys.set('efat', { key: 'EFAT1', label: 'l', organization: 'Rossi' });
    await assert.rejects(client.send({ method: 'GET', path: '/efat/x', tenant: { ...tenant, clusterAddress: 'https://evil.net' } }), rejectsWith('hostValidation'));
    await assert.rejects(client.send({ method: 'GET', path: '/unknown/x' }), rejectsWith('invalidRequest', (e) => assert.match(e.message, /tenantApi\.routes/)));
    await assert.rejects(client.send({ method: 'GET', path: '//evil.net/api/x' }), rejectsWith('invalidRequest'));
    await assert.rejects(client.send({ method: 'GET', path: '/api/x', body: { a: 1 } }), rejectsWith('invalidRequest'));
    assert.equal(seen.length, 0);
  });

  it('refuses when nobody is signed in', async () => {
    const { client, seen, tokens } = await setup(ok);
    tokens.getAccessToken.rejects(new SignInRequiredError());
    await assert.rejects(client.send({ method: 'GET', path: '/api/x' }), rejectsWith('auth'));
    assert.equal(seen.length, 0);
  });

  it('never lets an extra header replace one the client sets', async () => {
    const { client, seen } = await setup(ok);
    const response = await client.send({ method: 'GET', path: '/api/x', headers: { Authorization: 'Bearer mine', 'X-Trace': 'abc' } });
    assert.equal(seen[0].headers['authorization'], 'Bearer token-1');
    assert.equal(seen[0].headers['x-trace'], 'abc');
    assert.equal(response.warnings.length, 1);
  });

  it('sends a JSON body for POST', async () => {
    const { client, seen } = await setup(ok);
    await client.send({ method: 'post', path: '/api/x', body: { nome: 'Ditta' } });
    assert.equal(seen[0].method, 'POST');
    assert.equal(seen[0].body, '{"nome":"Ditta"}');
  });

  it('keeps a non-JSON body as text without failing', async () => {
    const { client } = await setup(() => new Response('<html>hi</html>', { status: 200, headers: { 'content-type': 'text/html' } }));
    const response = await client.send({ method: 'GET', path: '/api/x' });
    assert.equal(response.bodyText, '<html>hi</html>');
    assert.equal(response.json, undefined);
    assert.equal(response.sizeBytes, 15);
  });

  it('records the usage for the organization of the key, not for keyless calls', async () => {
    const { client } = await setup(ok);
    const events: string[] = [];
    client.quota.onDidChange((e) => events.push(e.organization));
    const response = await client.send({ method: 'GET', path: '/api/x' });
    assert.deepEqual(response.usage && { ...response.usage, seenAt: 0 }, { organization: 'Rossi', keyLabel: 'Rossi core', module: 'core', used: 5, limit: 100, seenAt: 0 });
    await client.send({ method: 'GET', path: '/v10/user-tenants' });
    assert.deepEqual(events, ['Rossi']);
    assert.equal(client.quota.reading('Rossi')?.used, 5);
  });

  it('refreshes the token once after a 401 and retries once', async () => {
    const { client, seen, tokens } = await setup((_r, i) => (i === 0 ? json(401, { error: 'invalid_token' }) : ok()));
    tokens.getAccessToken.withArgs({ forceRefresh: true }).resolves('token-2');
    const response = await client.send({ method: 'POST', path: '/api/x', body: '{}' });
    assert.equal(response.status, 200);
    assert.equal(response.attempts, 2);
    assert.deepEqual(seen.map((s) => s.headers['authorization']), ['Bearer token-1', 'Bearer token-2']);
  });

  it('asks to sign in again when the refreshed token is refused too', async () => {
    const { client, seen } = await setup(() => json(401, { error: 'invalid_token' }));
    await assert.rejects(client.send({ method: 'GET', path: '/api/x' }), rejectsWith('auth', (e) => assert.match(e.message, /Sign in again/)));
    assert.equal(seen.length, 2);
  });

  it('says exactly when the key belongs to another module', async () => {
    const { client } = await setup(() => json(403, { error: 'licence_module_mismatch', message: 'wrong', module: 'efat' }));
    await assert.rejects(client.send({ method: 'GET', path: '/api/x' }), rejectsWith('licenceWrongModule', (e) => {
      assert.equal(e.details.module, 'efat');
      assert.equal(e.details.status, 403);
    }));
  });

  it('logs a first call in the rate-limit window when its answer arrives (or when sent, for comparison)', async () => {
    const rules = [
      ['default (fastest-round-trip)', undefined, 500],
      ['fastest-round-trip', new CountTimeEstimator(() => 'fastest-round-trip'), 500],
      ['answer', new CountTimeEstimator(() => 'answer'), 500],
      ['send', new SendTimes(), 0],
    ] as const;
    for (const [name, countTime, expected] of rules) {
      let clock!: FakeClock;
      const slow = () => new Promise<Response>((resolve) => clock.setTimeout(() => resolve(ok()), 500));
      const made = await setup(slow, {}, { countTime });
      clock = made.clock;
      await run(clock, made.client.send({ method: 'GET', path: '/api/x' }), 100);
      assert.deepEqual(made.client.scheduler.logTimes(), [expected], name);
    }
  });

  it('pauses the queue for the second after a 429 and retries a GET', async () => {
    const { client, clock, seen } = await setup((_r, i) => (i === 0 ? json(429, { error: 'rate_limit_exceeded', limit: 'second' }) : ok()));
    const response = await run(clock, client.send({ method: 'GET', path: '/api/x' }), 50);
    assert.equal(response.status, 200);
    assert.equal(seen.length, 2);
    assert.equal(response.attempts, 2);
    const [first, second] = client.scheduler.logTimes();
    assert.ok(second - first >= 1000, `${second - first}`);
  });

  it('pauses for the second when a 429 names no limit, and for the minute when it repeats (and says why in the log)', async () => {
    const times: number[] = [];
    const warnings: string[] = [];
    const { client, clock } = await setup((_r, i) => {
      times.push(clock.monotonic());
      return i < 2 ? json(429, {}) : ok();
    }, { requestTimeoutSeconds: 120 }, { logger: { ...silentLogger, warn: (message: string) => warnings.push(message) } });
    await run(clock, client.send({ method: 'GET', path: '/api/x' }), 100);
    assert.equal(times.length, 3);
    assert.ok(times[1] - times[0] >= 1000 && times[1] - times[0] < 2000, `first pause ${times[1] - times[0]}`);
    assert.ok(times[2] - times[1] >= 60_000, `second pause ${times[2] - times[1]}`);
    assert.deepEqual(warnings.filter((w) => /names no limit/.test(w)).map((w) => /pausing for the (\w+)/.exec(w)?.[1]), ['second', 'minute']);
  });

  it('never sends a POST again by itself after a 429', async () => {
    const { client, clock, seen } = await setup(() => json(429, { error: 'rate_limit_exceeded', limit: 'second' }));
    await assert.rejects(run(clock, client.send({ method: 'POST', path: '/api/x', body: '{}' })), rejectsWith('rateLimit', (e) => assert.match(e.message, /not sent again/)));
    assert.equal(seen.length, 1);
    assert.ok(client.scheduler.state.pausedUntil !== undefined, 'the queue is paused all the same');
  });

  it('gives up on a GET after the configured retries', async () => {
    const { client, clock, seen } = await setup(() => json(429, { error: 'rate_limit_exceeded', limit: 'second' }));
    await assert.rejects(run(clock, client.send({ method: 'GET', path: '/api/x' })), rejectsWith('rateLimit', (e) => assert.equal(e.details.unit, 'second')));
    assert.equal(seen.length, 3);
  });

  it('stops the organization after a weekly 429 until resumed', async () => {
    const { client, seen } = await setup((_r, i) =>
      i === 0 ? json(429, { error: 'rate_limit_exceeded', limit: 'week' }, { 'service-limit-info': 'api-usage=100/100' }) : ok(),
    );
    await assert.rejects(client.send({ method: 'GET', path: '/api/x' }), rejectsWith('weeklyQuota'));
    assert.equal(client.quota.isBlocked('Rossi'), true);
    await assert.rejects(client.send({ method: 'GET', path: '/efat/x', tenant }), rejectsWith('weeklyQuota', (e) => assert.match(e.message, /stopped/)));
    assert.equal(seen.length, 1, 'the other key of the same organization is stopped too');
    client.quota.resume('Rossi');
    assert.equal((await client.send({ method: 'GET', path: '/api/x' })).status, 200);
    assert.equal(client.quota.isBlocked('Rossi'), false);
  });

  it('tells onDidCount of every call that reported its usage: an answer, an error, a kept answer; not one that reported none', async () => {
    const answers = [
      () => ok(),
      () => json(429, { error: 'rate_limit_exceeded', limit: 'week' }, { 'service-limit-info': 'api-usage=100/100' }),
      () => json(200, {}),
    ];
    const routes = [{ prefix: '/api/static', host: 'base', module: 'core', cacheSeconds: 60 }];
    const { client, seen } = await setup((_r, i) => answers[i]?.() ?? ok(), { routes });
    const counted: string[] = [];
    client.onDidCount(({ request, usage }) => counted.push(`${request.path} ${request.tenant?.id ?? '-'} ${usage.organization} ${usage.used}`));
    await client.send({ method: 'GET', path: '/efat/x', tenant });
    await assert.rejects(client.send({ method: 'GET', path: '/efat/y', tenant }), rejectsWith('weeklyQuota'));
    client.quota.resume('Rossi');
    await client.send({ method: 'GET', path: '/efat/z', tenant });
    assert.deepEqual(counted, [`/efat/x ${tenant.id} Rossi 5`, `/efat/y ${tenant.id} Rossi 100`]);
    await client.send({ method: 'GET', path: '/api/static' });
    await client.send({ method: 'GET', path: '/api/static' });
    assert.equal(seen.length, 4, 'the second static GET is the kept answer');
    assert.deepEqual(counted.slice(2), ['/api/static - Rossi 5', '/api/static - Rossi 5']);
  });

  it('refuses locally when the last reading reached the limit, unless sent anyway', async () => {
    const { client, seen } = await setup(() => json(200, {}, { 'service-limit-info': 'api-usage=100/100' }));
    await client.send({ method: 'GET', path: '/api/x' });
    await assert.rejects(client.send({ method: 'GET', path: '/api/x' }), rejectsWith('quotaReached', (e) => assert.match(e.message, /100 of its 100/)));
    assert.equal(seen.length, 1);
    await client.send({ method: 'GET', path: '/api/x', sendOverQuota: true });
    assert.equal(seen.length, 2);
  });

  it('retries a GET after 5xx and network failures with backoff, but not a POST', async () => {
    let calls = 0;
    const flaky = async () => {
      calls++;
      if (calls === 1) return json(503, { error: 'unavailable' });
      if (calls === 2) throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
      return ok();
    };
    const { client, clock } = await setup(flaky);
    const response = await run(clock, client.send({ method: 'GET', path: '/api/x' }), 50);
    assert.equal(response.attempts, 3);

    calls = 1;
    const second = await setup(flaky);
    await assert.rejects(run(second.clock, second.client.send({ method: 'POST', path: '/api/x', body: '{}' })), rejectsWith('network', (e) =>
      assert.match(e.message, /connection was reset.*POST request is not sent again/),
    ));
    assert.equal(second.seen.length, 1);
  });

  it('returns other HTTP errors with the server body', async () => {
    const { client } = await setup(() => json(404, { error: 'not_found', message: 'Percorso sconosciuto' }));
    await assert.rejects(client.send({ method: 'GET', path: '/api/nope' }), rejectsWith('http', (e) => {
      assert.match(e.message, /404.*Percorso sconosciuto/);
      assert.equal(e.details.response?.status, 404);
      assert.match(e.details.bodyText ?? '', /not_found/);
    }));
  });

  it('drops the credentials when a redirect leaves the origin, keeps them on the same origin', async () => {
    const { client, seen } = await setup((request) => {
      if (request.url.endsWith('/api/a')) return new Response(null, { status: 302, headers: { location: '/api/b' } });
      if (request.url.endsWith('/api/b')) return new Response(null, { status: 307, headers: { location: 'https://files.example.com/c' } });
      return ok();
    });
    const response = await client.send({ method: 'GET', path: '/api/a' });
    assert.equal(response.url, 'https://files.example.com/c');
    assert.equal(seen[1].headers['authorization-key'], 'CORE1');
    assert.equal(seen[2].headers['authorization'], undefined);
    assert.equal(seen[2].headers['authorization-key'], undefined);
  });

  it('reads no licence, tenant, limit or quota meaning into the answer of a host that got no credentials', async () => {
    const foreign = (status: number, body: object) =>
      json(status, body, { 'service-limit-info': 'api-usage=99/100' });
    const redirect = () => new Response(null, { status: 302, headers: { location: 'https://files.example.com/c' } });
    const cases: Array<[number, object, string]> = [
      [401, { error: 'missing_licence_key' }, 'hostValidation'],
      [403, { error: 'unknown_licence_key' }, 'http'],
      [403, { error: 'unknown_tenant', message: 'no' }, 'http'],
      [429, { error: 'rate_limit_exceeded', limit: 'week' }, 'http'],
    ];
    for (const [status, body, kind] of cases) {
      const { client, seen } = await setup((request) => (request.url.startsWith('https://files.example.com') ? foreign(status, body) : redirect()));
      await assert.rejects(client.send({ method: 'GET', path: '/api/a' }), rejectsWith(kind, (e) => assert.equal(e.details.status, status)));
      assert.equal(seen.length, 2, `${status}: not retried`);
      assert.equal(client.quota.reading('Rossi'), undefined, `${status}: the foreign usage is not the organization's`);
      assert.equal(client.quota.isBlocked('Rossi'), false);
      assert.equal(client.scheduler.state.pausedUntil, undefined, `${status}: the queue is not paused`);
    }
  });

  it('does not follow a redirect to plain http', async () => {
    const { client, seen } = await setup(() => new Response(null, { status: 302, headers: { location: 'http://api.example.com/x' } }));
    await assert.rejects(client.send({ method: 'GET', path: '/api/a' }), rejectsWith('hostValidation'));
    assert.equal(seen.length, 1);
  });

  it('times out a call that does not answer, and can cancel one', async () => {
    const { client, clock } = await setup(() => new Promise<Response>(() => undefined), { requestTimeoutSeconds: 2, maxRetries: 0 });
    await assert.rejects(run(clock, client.send({ method: 'GET', path: '/api/x' })), rejectsWith('timeout', (e) => assert.match(e.message, /2 seconds/)));

    const controller = new AbortController();
    const pending = client.send({ method: 'GET', path: '/api/x', signal: controller.signal });
    await flush();
    controller.abort();
    await assert.rejects(pending, rejectsWith('cancelled'));
  });

  it('lists tenants and marks those with a bad cluster address unusable', async () => {
    const { client } = await setup(() =>
      json(200, [
        { ...tenant, usable: undefined },
        { id: 't2', codiceAmbienteDati: 'X', descrizioneAmbienteDati: 'Evil', clusterAddress: 'http://cluster2.example.com' },
        { id: 't3', codiceAmbienteDati: 'Y', descrizioneAmbienteDati: 'Elsewhere', clusterAddress: 'https://other.net' },
        'garbage',
      ]),
    );
    const tenants = await client.listTenants();
    assert.deepEqual(tenants.map((t) => [t.id, t.usable]), [[tenant.id, true], ['t2', false], ['t3', false]]);
    assert.match(tenants[1].unusableReason!, /plain http/);
    assert.match(tenants[2].unusableReason!, /not among the allowed hosts/);
  });

  it('uses the routes and endpoints from the settings', async () => {
    const { client, seen } = await setup(ok, {
      routes: [{ prefix: '/hr/', host: 'cluster', module: 'efat' }],
      endpoints: [{ label: 'Dipendenti', path: '/hr/api/v1/dipendenti' }],
    });
    await client.send({ method: 'GET', path: '/hr/api/v1/dipendenti', tenant });
    assert.equal(seen[0].url, 'https://cluster1.example.com/hr/api/v1/dipendenti');
    assert.equal(seen[0].headers['user-tenant'], tenant.id);
    assert.equal(client.endpoints()[0].label, 'Dipendenti');
  });
});

describe('pause after a 429', () => {
  it('waits the whole unit unless the server says when the block ends', () => {
    assert.equal(pauseAfter429('second', {}, undefined), 1000);
    assert.equal(pauseAfter429('minute', {}, undefined, 0.1), 6000);
    assert.equal(pauseAfter429('minute', { retryAfterMs: 1234 }, undefined), 1234);
    assert.equal(pauseAfter429('minute', {}, '7'), 7000);
    assert.equal(pauseAfter429('second', {}, '7'), 1000, 'never longer than the unit');
    assert.equal(pauseAfter429('second', {}, 'Wed, 21 Oct 2026 07:28:00 GMT'), 1000);
    assert.equal(rateLimitUnit({ limit: 'Second' }, undefined), 'second');
    assert.equal(rateLimitUnit({}, undefined), 'second', 'the smallest unit first when it cannot be told');
    assert.equal(rateLimitUnit({}, undefined, { repeats: 1 }), 'minute', 'the minute when that repeats');
    assert.equal(rateLimitUnit({}, undefined, { retryAfter: '7' }), 'minute', 'bounded by the time the server gives');
    assert.equal(rateLimitUnit({}, { organization: 'o', used: 10, limit: 10, seenAt: 0 }), 'week');
  });
});
