// The cache of static resources in the one client every front end's GET goes through, against
// the sandbox's static summary: the second GET is not sent, Refresh (bypassCache) is, an error answer is
// never kept, and a rule without cacheSeconds caches nothing.
import * as assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../sandbox';
import { clientFor, tenantOf, type Harness } from './harness';

const SUMMARY = '/efat/api/v1/riepilogo';
const STATIC_RULE = { prefix: SUMMARY, host: 'cluster', module: 'efat', cacheSeconds: 300 };

describe('ApiClient: static resources cached', function () {
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
    h = await clientFor(sandbox, { routes: [STATIC_RULE] });
  });
  afterEach(() => h.client.dispose());

  const milano = () => tenantOf(sandbox, 0);
  const torino = () => tenantOf(sandbox, 1);

  it('answers the second GET from memory, labelled with when it came; another tenant or query is sent', async () => {
    const first = await h.client.send({ method: 'GET', path: SUMMARY, tenant: milano() });
    assert.equal(first.cachedAt, undefined);
    sandbox.updateSummary(milano().id);
    const second = await h.client.send({ method: 'GET', path: SUMMARY, tenant: milano() });
    assert.equal(sandbox.callsTo(SUMMARY), 1, 'the second was not sent');
    assert.equal(typeof second.cachedAt, 'number');
    assert.equal(second.bodyText, first.bodyText, 'the kept answer, not the changed one');
    await h.client.send({ method: 'GET', path: SUMMARY, tenant: torino() });
    await h.client.send({ method: 'GET', path: `${SUMMARY}?x=1`, tenant: milano() });
    assert.equal(sandbox.callsTo(SUMMARY), 3);
  });

  it('sends past the cache when asked (Refresh, a watch) and keeps the new answer', async () => {
    await h.client.send({ method: 'GET', path: SUMMARY, tenant: milano() });
    const revision = sandbox.updateSummary(milano().id);
    const fresh = await h.client.send({ method: 'GET', path: SUMMARY, tenant: milano(), bypassCache: true });
    assert.equal((fresh.json as { revisione: number }).revisione, revision);
    const kept = await h.client.send({ method: 'GET', path: SUMMARY, tenant: milano() });
    assert.equal((kept.json as { revisione: number }).revisione, revision);
    assert.equal(sandbox.callsTo(SUMMARY), 2);
  });

  it('never keeps an error answer, and clearCache (sign-out, switch) empties it', async () => {
    sandbox.injectFault({ kind: 'status', status: 404, pathPrefix: SUMMARY });
    await assert.rejects(h.client.send({ method: 'GET', path: SUMMARY, tenant: milano() }));
    await h.client.send({ method: 'GET', path: SUMMARY, tenant: milano() });
    assert.equal(sandbox.callsTo(SUMMARY), 2, 'the error answer was not kept');
    h.client.clearCache();
    await h.client.send({ method: 'GET', path: SUMMARY, tenant: milano() });
    assert.equal(sandbox.callsTo(SUMMARY), 3);
  });

  it('caches nothing without cacheSeconds', async () => {
    h.client.dispose();
    h = await clientFor(sandbox);
    await h.client.send({ method: 'GET', path: SUMMARY, tenant: milano() });
    await h.client.send({ method: 'GET', path: SUMMARY, tenant: milano() });
    assert.equal(sandbox.callsTo(SUMMARY), 2);
  });
});
