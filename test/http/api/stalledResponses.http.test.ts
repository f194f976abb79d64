import * as assert from 'node:assert/strict';
import { setMaxListeners } from 'node:events';
import { ApiClient } from '../../../src/api/apiClient';
import { ApiError } from '../../../src/api/errors';
import { LicenceKeyStore } from '../../../src/api/licenceKeyStore';
import { InMemorySecretStore } from '../../helpers/inMemorySecretStore';
import { forceGc, settlement } from './settlement';
import { startHostileServer, type HostileBehaviour, type HostileServer } from './hostileServer';

/** Marks the rejection as handled (it is examined later). */
const handled = <T>(promise: Promise<T>): Promise<T> => {
  promise.catch(() => undefined);
  return promise;
};

const until = async (condition: () => boolean, limitMs = 5000) => {
  const end = Date.now() + limitMs;
  while (!condition() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(condition(), 'the server saw every call');
};

describe('Every call settles whatever the server does (a hostile server on loopback)', function () {
  this.timeout(30_000);
  const BEHAVIOURS: HostileBehaviour[] = ['silent', 'stall', 'trickle'];
  const PER_BEHAVIOUR = 8;
  let server: HostileServer;
  let client: ApiClient;

  before(async () => {
    server = await startHostileServer();
  });
  after(async () => {
    await server.close();
  });
  beforeEach(async () => {
    for (const behaviour of Object.keys(server.received) as HostileBehaviour[]) server.received[behaviour] = 0;
    const keys = new LicenceKeyStore(new InMemorySecretStore());
    await keys.set('core', { key: 'HOSTILE1', label: 'k', organization: 'o' });
    client = new ApiClient({
      settings: () => ({
        baseUrl: server.url,
        allowedHosts: [],
        routes: [],
        endpoints: [],
        requestTimeoutSeconds: 0.4,
        safetyMarginMs: 0,
        maxQueueLength: 1000,
        maxRetries: 0,
      }),
      tokens: { getAccessToken: async () => 'hostile-token' },
      licenceKeys: keys,
      limits: [{ unit: 'second', windowMs: 1000, max: 1000 }],
    });
  });
  afterEach(() => client.dispose());

  const calls = (signal?: AbortSignal) =>
    BEHAVIOURS.flatMap((behaviour) =>
      Array.from({ length: PER_BEHAVIOUR }, (_, i) => ({
        behaviour,
        promise: handled(client.send({ method: i % 2 ? 'POST' : 'GET', path: `/api/${behaviour}`, body: i % 2 ? { i } : undefined, signal })),
      })),
    );

  it('times out a call with no headers, a stalled body or a trickling body, after a garbage collection too', async () => {
    const started = performance.now();
    const pending = calls();
    await until(() => BEHAVIOURS.every((b) => server.received[b] === PER_BEHAVIOUR));
    forceGc();
    const results = await Promise.all(pending.map((call) => settlement(call.promise, 8000, started)));
    const unsettled = pending.filter((_, i) => !results[i].settled).map((call) => call.behaviour);
    assert.deepEqual(unsettled, [], 'calls left unsettled');
    for (const result of results) {
      assert.ok(result.error instanceof ApiError && result.error.kind === 'timeout', String(result.error));
      // Our 0.4 s limit ended it, not fetch's own (minutes): seconds leave room for a loaded machine (2.3 s seen at load 20).
      assert.ok(result.afterMs < 400 + 4000, `settled ${Math.round(result.afterMs)} ms after the start (limit 0.4 s)`);
    }
  });

  it('ends every such call at once when it is cancelled, after a garbage collection too', async () => {
    const controller = new AbortController();
    setMaxListeners(100, controller.signal);
    client.settings = () => ({ ...ApiClient.prototype.settings.call(client), requestTimeoutSeconds: 60 });
    const pending = calls(controller.signal);
    await until(() => BEHAVIOURS.every((b) => server.received[b] === PER_BEHAVIOUR));
    forceGc();
    await new Promise((resolve) => setTimeout(resolve, 100));
    forceGc();
    const cancelledAt = performance.now();
    controller.abort();
    const results = await Promise.all(pending.map((call) => settlement(call.promise, 2000, cancelledAt)));
    const unsettled = pending.filter((_, i) => !results[i].settled).map((call) => call.behaviour);
    assert.deepEqual(unsettled, [], 'calls left unsettled');
    for (const result of results) {
      assert.ok(result.error instanceof ApiError && result.error.kind === 'cancelled', String(result.error));
      // Not the 60 s time limit: the cancel itself ended it (1.5 s leaves room for a loaded machine).
      assert.ok(result.afterMs < 1500, `settled ${Math.round(result.afterMs)} ms after the cancel`);
    }
  });
});
