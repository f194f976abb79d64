// The built runner (`tenant-api`, dist/cli.js) as a child process against the sandbox, as a CI job runs
// it: exit codes, JUnit read back, each grant from environment variables, a wrong secret, the quota
// guard, the dry run, and no secret in anything it wrote.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startSandbox, type Sandbox } from '../../sandbox';
import { CLI_TIMINGS_PRELOAD, readCliTimings } from '../../helpers/cliTimings';
import { elements, parseXml } from '../../helpers/xmlCheck';
import { Redis } from 'ioredis';
import { freePort } from '../../helpers/freePort';
import { RedisServer } from '../../helpers/redisServer';
import { buildRunner, passwordGrantEnv, REPO, runRunner, sandboxWorkspace, type RunnerResult } from './runnerProcess';

const SMOKE = path.join(REPO, 'test', 'sandbox', 'requests', 'cli-smoke.http');

const MIXED = `@tenant = RC-MI
###
# @name tenants
GET /v10/user-tenants
?? status == 200
?? body $[0].codiceAmbienteDati == RC-MI
###
# @name wrongStatus
GET /api/configurazioni
?? status == 201
###
# @name ditte
GET /efat/api/v1/ditte?dimensionePagina=1
?? status == 200
?? body $.totalePagine < 0
`;

describe('tenant-api, the built runner, against the sandbox', function () {
  this.timeout(120_000);
  let sandbox: Sandbox;
  let folder: string;
  let passwordEnv: Record<string, string>;
  const outputs: string[] = [];

  const run = async (command: string[], env: Record<string, string>, stdin?: string, preload?: string): Promise<RunnerResult> => {
    const result = await runRunner(command, folder, env, stdin, undefined, preload);
    outputs.push(result.stdout, result.stderr);
    return result;
  };
  const report = (name: string) => {
    const text = fs.readFileSync(path.join(folder, 'out', name), 'utf8');
    outputs.push(text);
    return text;
  };

  before(async () => {
    buildRunner();
    sandbox = await startSandbox({});
    folder = sandboxWorkspace(sandbox, sandbox.clients.password.clientId);
    fs.copyFileSync(SMOKE, path.join(folder, 'smoke.http'));
    fs.writeFileSync(path.join(folder, 'mixed.http'), MIXED);
    passwordEnv = passwordGrantEnv(sandbox);
  });
  beforeEach(() => sandbox.resetLimits());
  after(async () => {
    await sandbox?.close();
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('password grant from environment variables: the smoke file passes, exit 0, a JUnit and a JSON report', async () => {
    // With the runners bench's seam preloaded: when its sign-in ended and its first request left.
    const timings = path.join(folder, 'out', 'timings.json');
    fs.mkdirSync(path.dirname(timings), { recursive: true });
    const result = await run(
      ['run', 'smoke.http', '--env', 'Sandbox', '--reporter', 'junit=out/smoke.xml', '--reporter', 'json=out/smoke.json'],
      { ...passwordEnv, TENANT_API_TIMINGS_FILE: timings },
      undefined,
      CLI_TIMINGS_PRELOAD,
    );
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /4 requests: 4 passed, 0 failed; 4 calls/);
    const root = parseXml(report('smoke.xml'));
    assert.deepEqual([root.attributes.tests, root.attributes.failures, root.attributes.errors], ['4', '0', '0']);
    const json = JSON.parse(report('smoke.json'));
    assert.equal(json.exitCode, 0);
    const { firstRequestMs, firstOnWireMs, signInMs } = readCliTimings(timings);
    assert.ok(firstRequestMs! > 0 && firstOnWireMs! >= firstRequestMs! && signInMs! > 0, `when its first request left: ${JSON.stringify({ firstRequestMs, firstOnWireMs, signInMs })}`);
  });

  it('the editor\'s settings from TENANT_API_EDITOR_SETTINGS (Run Request File in Terminal): no settings file needed, the environment and the settings\' source said', async () => {
    const bare = fs.mkdtempSync(path.join(path.dirname(folder), 'tenant-api-editor-'));
    try {
      fs.copyFileSync(SMOKE, path.join(bare, 'smoke.http'));
      const editorSettings = JSON.stringify({ 'tenantApi.environments': [{ name: 'Sandbox', authUrl: sandbox.authUrl, baseUrl: sandbox.baseUrl, clientId: sandbox.clients.password.clientId, allowedHosts: ['127.0.0.1'] }] });
      const without = await runRunner(['run', 'smoke.http', '--env', 'Sandbox'], bare, passwordEnv);
      assert.equal(without.code, 2, 'no settings file: no environment Sandbox');
      const result = await runRunner(['run', 'smoke.http', '--env', 'Sandbox'], bare, { ...passwordEnv, TENANT_API_EDITOR_SETTINGS: editorSettings });
      outputs.push(result.stdout, result.stderr);
      assert.equal(result.code, 0, result.stdout + result.stderr);
      assert.match(result.stderr, /^Environment "Sandbox", settings: the editor's settings \(user, workspace and folder\)$/m);
      // A key missing, nobody at a terminal to ask: the runner names its variable, not the editor's command.
      fs.writeFileSync(path.join(bare, 'efat.http'), '# @tenant RC-MI\nGET /efat/api/v1/ditte?dimensionePagina=1\n');
      const { TENANT_API_KEY_EFAT: _efat, ...withoutEfat } = passwordEnv;
      const noKey = await runRunner(['run', 'efat.http', '--env', 'Sandbox'], bare, { ...withoutEfat, TENANT_API_EDITOR_SETTINGS: editorSettings });
      outputs.push(noKey.stdout, noKey.stderr);
      assert.equal(noKey.code, 3, noKey.stdout + noKey.stderr);
      assert.match(noKey.stdout, /No licence key is set for the module "efat": set TENANT_API_KEY_EFAT\./);
    } finally {
      fs.rmSync(bare, { recursive: true, force: true });
    }
  });

  it('passing and failing assertions: exit 1, and a JUnit file with the right counts and the expected and found values', async () => {
    const result = await run(['run', 'mixed.http', '--env', 'sandbox', '--reporter', 'junit=out/mixed.xml'], passwordEnv);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    const root = parseXml(report('mixed.xml'));
    assert.deepEqual([root.attributes.tests, root.attributes.failures, root.attributes.errors, root.attributes.skipped], ['3', '2', '0', '0']);
    const [suite] = elements(root, 'testsuite');
    assert.equal(suite.attributes.name, 'mixed.http');
    const failures = elements(suite, 'failure');
    assert.deepEqual(failures.map((failure) => failure.text.split('\n').slice(0, 3).join(' | ')), ['?? status == 201 |   expected: 201 |   actual: 200', '?? body $.totalePagine < 0 |   expected: 0 |   actual: 40000']);
    assert.match(result.stdout, /Exit code 1: an assertion failed/);
  });

  it('client credentials from environment variables: the listing passes; a request that needs a tenant says which grant to use (exit 3)', async () => {
    const env = { TENANT_API_CLIENT_ID: sandbox.clients.confidential.clientId, TENANT_API_CLIENT_SECRET: sandbox.clients.confidential.clientSecret, TENANT_API_KEY_EFAT: passwordEnv.TENANT_API_KEY_EFAT };
    fs.writeFileSync(path.join(folder, 'service.http'), 'GET /v10/user-tenants\n?? status == 200\n?? body $ isArray\n');
    const listing = await run(['run', 'service.http', '--env', 'Sandbox'], env);
    assert.equal(listing.code, 0, listing.stdout + listing.stderr);
    fs.writeFileSync(path.join(folder, 'tenant.http'), '# @tenant RC-MI\nGET /efat/api/v1/ditte\n');
    const tenant = await run(['run', 'tenant.http', '--env', 'Sandbox'], env);
    assert.equal(tenant.code, 3);
    assert.match(tenant.stdout, /client credentials grant signs in no user.*TENANT_API_USERNAME and TENANT_API_PASSWORD/);
  });

  it('a tenant the run needs: --tenant CODE for requests that name none; a missing or foreign one says so in the runner\'s words (exit 3)', async () => {
    fs.writeFileSync(path.join(folder, 'untenanted.http'), 'GET /efat/api/v1/ditte?dimensionePagina=1\n?? status == 200\n');
    const chosen = await run(['run', 'untenanted.http', '--env', 'Sandbox', '--tenant', 'RC-MI'], passwordEnv);
    assert.equal(chosen.code, 0, chosen.stdout + chosen.stderr);
    const none = await run(['run', 'untenanted.http', '--env', 'Sandbox'], passwordEnv);
    assert.equal(none.code, 3);
    assert.match(none.stdout, /needs a tenant: name one in the file \(@tenant = CODE.*or with --tenant CODE/);
    assert.doesNotMatch(none.stdout, /Tenants view/);
    const foreign = await run(['run', 'untenanted.http', '--env', 'Sandbox', '--tenant', 'NOPE'], passwordEnv);
    assert.equal(foreign.code, 3);
    assert.match(foreign.stdout, /The tenant NOPE of --tenant is not one of your tenants/);
  });

  it('a wrong secret: the sign-in exit code (4) and a message that names what to check; nothing is sent', async () => {
    const before = sandbox.requests.length;
    const result = await run(['run', 'smoke.http', '--env', 'Sandbox'], { ...passwordEnv, TENANT_API_CLIENT_SECRET: 'wrong-secret-value' });
    assert.equal(result.code, 4);
    assert.match(result.stderr, /Sign-in with the password grant failed: .*invalid_client.*Check TENANT_API_CLIENT_ID and TENANT_API_CLIENT_SECRET/);
    const password = await run(['run', 'smoke.http', '--env', 'Sandbox'], { ...passwordEnv, TENANT_API_PASSWORD: 'wrong-password-value' });
    assert.equal(password.code, 4);
    assert.match(password.stderr, /invalid_grant.*Check TENANT_API_USERNAME and TENANT_API_PASSWORD/);
    assert.equal(sandbox.requests.length, before, 'no API call without a token');
  });

  it('the password from standard input (--secret-stdin) instead of the environment', async () => {
    const { TENANT_API_PASSWORD, ...rest } = passwordEnv;
    const result = await run(['run', 'smoke.http', '--env', 'Sandbox', '--secret-stdin', '--quiet'], rest, `TENANT_API_PASSWORD=${TENANT_API_PASSWORD}\n`);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.doesNotMatch(result.stdout, /PASS/, '--quiet prints no passed request');
  });

  it('--max-calls stops the run with the quota guard\'s exit code (5); the rest is skipped in the JUnit file', async () => {
    const result = await run(['run', 'smoke.http', '--env', 'Sandbox', '--max-calls', '2', '--reporter', 'junit=out/max.xml'], passwordEnv);
    assert.equal(result.code, 5, result.stdout + result.stderr);
    assert.match(result.stdout, /Stopped by --max-calls 2/);
    const root = parseXml(report('max.xml'));
    assert.deepEqual([root.attributes.tests, root.attributes.skipped], ['4', '2']);
  });

  it('--keep-quota stops the run before the week\'s quota would fall below it (exit 5), from the readings of the run', async () => {
    const requests = Array.from({ length: 8 }, (_, i) => `# @name d${i}\nGET /efat/api/v1/ditte?dimensionePagina=1\n`);
    fs.writeFileSync(path.join(folder, 'quota.http'), `@tenant = RC-MI\n###\n${requests.join('###\n')}`);
    // Rossi's 10,000 a week: after 5 calls the next would leave 9,994, 99.94 %, below 99.95 %.
    const result = await run(['run', 'quota.http', '--env', 'Sandbox', '--keep-quota', '99.95', '--reporter', 'junit=out/quota.xml'], passwordEnv);
    assert.equal(result.code, 5, result.stdout + result.stderr);
    assert.match(result.stdout, /Stopped by the quota guard: 1 call\(s\) more would leave 99\.9 % of the organization of TENANT_API_KEY_EFAT's weekly quota \(5 of 10000 used\)/);
    const root = parseXml(report('quota.xml'));
    assert.deepEqual([root.attributes.tests, root.attributes.skipped], ['8', '3']);
  });

  it('--dry-run prints what would be sent and the cost, and sends nothing', async () => {
    const before = sandbox.requests.length;
    const result = await run(['run', 'smoke.http', '--env', 'Sandbox', '--dry-run'], {});
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /ditte: GET \/efat\/api\/v1\/ditte\?dimensionePagina=2\n {4}→ the tenant's cluster, licence module efat \(no key: set TENANT_API_KEY_EFAT\), tenant RC-MI/);
    assert.match(result.stdout, /Would cost: 4 calls/);
    assert.equal(sandbox.requests.length, before);
  });

  it('bad usage and a file that does not parse: exit 2 with the reason', async () => {
    const unknown = await run(['run', 'smoke.http', '--client-secret=abc123456'], passwordEnv);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Unknown option --client-secret/);
    fs.writeFileSync(path.join(folder, 'broken.http'), 'GET /v10/user-tenants\n?? status frobnicates 200\n');
    const broken = await run(['run', 'broken.http', '--env', 'Sandbox'], passwordEnv);
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, /broken\.http:2: /);
    const missing = await run(['run', 'nothing/*.http'], passwordEnv);
    assert.equal(missing.code, 2);
  });

  it('--ledger shares the limits through Redis; Redis unreachable is exit 6, or a warning with --ledger-fallback local; a password in the flag is refused', async () => {
    const redis = await RedisServer.start();
    const connection = new Redis(redis.url, { lazyConnect: true });
    try {
      const shared = await run(['run', 'smoke.http', '--env', 'Sandbox', '--ledger', redis.url], passwordEnv);
      assert.equal(shared.code, 0, shared.stdout + shared.stderr);
      await connection.connect();
      const keys = await connection.keys('tenant-api:ledger:*');
      assert.ok(keys.length > 0, 'the run kept its calls in Redis');
      assert.ok(!keys.some((key) => key.includes(sandbox.clients.password.clientId)), 'the application is hashed in the keys');
      const fromEnvironment = await run(['run', 'smoke.http', '--env', 'Sandbox'], { ...passwordEnv, TENANT_API_LEDGER: `redis://:ledger-secret-value@127.0.0.1:${redis.port}/0` });
      assert.equal(fromEnvironment.code, 0, 'TENANT_API_LEDGER (its password in the URL) names the ledger too: ' + fromEnvironment.stderr);
    } finally {
      connection.disconnect();
      await redis.stop();
    }
    const nowhere = `redis://127.0.0.1:${await freePort()}/0`;
    const unreachable = await run(['run', 'smoke.http', '--env', 'Sandbox', '--ledger', nowhere], passwordEnv);
    assert.equal(unreachable.code, 6, unreachable.stderr);
    assert.match(unreachable.stderr, /cannot be reached/);
    const alone = await run(['run', 'smoke.http', '--env', 'Sandbox', '--ledger', nowhere, '--ledger-fallback', 'local'], passwordEnv);
    assert.equal(alone.code, 0, alone.stderr);
    assert.match(alone.stderr, /Rate-limit ledger: .*cannot be reached.*local ledger/);
    const withPassword = await run(['run', 'smoke.http', '--env', 'Sandbox', '--ledger', 'redis://:ledger-secret-value@127.0.0.1:1/0'], passwordEnv);
    assert.equal(withPassword.code, 2, withPassword.stderr);
    assert.match(withPassword.stderr, /TENANT_API_LEDGER_PASSWORD/);
  });

  it('no secret in stdout, stderr or the reports: not the client secrets, the password, the keys, nor any token', () => {
    const secrets = [...Object.values(passwordEnv).filter((value) => value !== 'mario.rossi'), sandbox.clients.confidential.clientSecret, 'wrong-secret-value', 'wrong-password-value', 'abc123456', 'ledger-secret-value'];
    assert.ok(outputs.length >= 20, `only ${outputs.length} outputs were collected`);
    const all = outputs.join('\n');
    for (const secret of secrets) assert.ok(!all.includes(secret), `${secret.slice(0, 4)}… appears in the runner's output`);
    assert.doesNotMatch(all, /eyJ[A-Za-z0-9_-]{5,}\./, 'a JWT appears in the output');
    assert.doesNotMatch(all, /Bearer [A-Za-z0-9]/i);
  });
});
