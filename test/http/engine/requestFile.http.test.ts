// The engine without VS Code, as the command line runs it: the example request file
// against the sandbox over real HTTP, each request's result (status, timings, usage, the tenant).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TenantResolver } from '../../../src/api/tenantResolver';
import type { TenantRecord } from '../../../src/api/types';
import { requestDocument } from '../../../src/engine/documents';
import { RequestFileRunner, summarize } from '../../../src/engine/runner';
import { defaultSystemContext } from '../../../src/engine/systemVariables';
import { startSandbox, type Sandbox } from '../../sandbox';
import { clientFor, type Harness } from '../api/harness';

const EXAMPLE = path.resolve(__dirname, '../../sandbox/requests/example.http');
const TESTS = path.resolve(__dirname, '../../sandbox/requests/tests.http');

describe('the request engine in plain Node, against the sandbox', function () {
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
    h = await clientFor(sandbox);
  });
  afterEach(() => h.client.dispose());

  function engine(active?: string) {
    let listed: TenantRecord[] = [];
    const tenants = new TenantResolver({
      listed: () => listed,
      tenants: async () => (listed = await h.client.listTenants()),
      active: () => (active ? { id: active } : undefined),
      isSignedIn: () => true,
    });
    return new RequestFileRunner({
      sender: { api: h.client, tenants, baseUrl: () => sandbox.baseUrl, fetch, timeoutMs: () => 5000 },
      environment: () => ({}),
      system: (lookup) => defaultSystemContext(lookup),
    });
  }

  it('runs the example file: every request answered, chained ones after what they read, tenants by code (the file\'s @tenant labels its base-host requests too)', async () => {
    const document = requestDocument(EXAMPLE, fs.readFileSync(EXAMPLE, 'utf8'), path.dirname(EXAMPLE));
    const outcomes = await engine().sendAll(document);
    const rows = outcomes.map((outcome) => [outcome.label, outcome.sent?.response.status ?? outcome.error?.kind, outcome.sent?.tenant?.codiceAmbienteDati]);
    assert.deepEqual(rows, [
      ['tenants', 200, 'RC-MI'],
      ['configurazioni', 200, 'RC-MI'],
      ['ditte', 200, 'RC-MI'],
      ['ditteTorino', 200, 'RC-TO'],
      ['ultimaPagina', 200, 'RC-MI'],
      ['secondoTenant', 200, 'RC-TO'],
    ]);
    assert.equal(summarize(outcomes, outcomes.length).text, '6 requests: 6 × 200');
    const ditte = outcomes[2].sent!.response;
    assert.ok(ditte.timeMs > 0 && ditte.sizeBytes > 0);
    assert.equal(ditte.usage?.organization, 'Rossi Costruzioni', 'the usage reading of the answer');
    assert.ok(ditte.json && typeof ditte.json === 'object');
    const failed = outcomes.flatMap((outcome) => outcome.assertions ?? []).filter((result) => !result.passed);
    assert.deepEqual(failed, [], 'the example file\'s assertions pass');
    assert.equal(outcomes[0].assertions?.length, 2);
  });

  it('runs tests.http: every assertion passes but the one of failsOnPurpose, which says expected and actual', async () => {
    const document = requestDocument(TESTS, fs.readFileSync(TESTS, 'utf8'), path.dirname(TESTS));
    const outcomes = await engine().sendAll(document);
    const counts = outcomes.map((outcome) => [outcome.label, (outcome.assertions ?? []).filter((result) => result.passed).length, (outcome.assertions ?? []).filter((result) => !result.passed).length]);
    assert.deepEqual(counts, [
      ['tenants', 6, 0],
      ['ditte', 6, 0],
      ['ultimaPagina', 3, 0],
      ['senzaTenant', 2, 0],
      ['failsOnPurpose', 1, 1],
    ]);
    const [failure] = outcomes[4].assertions!.filter((result) => !result.passed);
    assert.deepEqual([failure.text, failure.expected, failure.actual], ['?? body $.dimensionePagina == 2', '2', '1']);
    assert.equal(outcomes[2].assertions![1].expected, String(Math.ceil(40000 / 2)), 'the chained expected value, read from ditte');
  });

  it('gives a failure as one of the client\'s kinds: no tenant named or active', async () => {
    const document = requestDocument('memory:x.http', 'GET /efat/api/v1/ditte\n###\n# @tenant rc-to\nGET /efat/api/v1/ditte', process.cwd());
    const [missing, named] = await engine().sendAll(document);
    assert.equal(missing.error?.kind, 'tenant');
    assert.match(missing.error?.message ?? '', /needs a tenant/);
    assert.equal(named.sent?.response.status, 200, 'a code in any case names the tenant');
  });
});
