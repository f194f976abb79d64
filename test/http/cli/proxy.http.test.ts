// tenant-api behind a real forward proxy (squid, on a free port of 127.0.0.1), the built runner as a
// child process as a CI job runs it: every call in the proxy's log, NO_PROXY, proxy credentials, a
// proxy that cannot be reached, a 407, TLS to the sandbox through the proxy with and without its
// certificate authority, a client certificate, and the device code sign-in through the proxy.
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FormBrowser } from '../../helpers/signInWithForm';
import { startForwardProxy, type ForwardProxy, type ProxyLogLine } from '../../helpers/forwardProxy';
import { freePort } from '../../helpers/freePort';
import { RedisServer } from '../../helpers/redisServer';
import { startSandbox, type Sandbox } from '../../sandbox';
import { TestAuthority } from '../../sandbox/tls/certificates';
import { buildRunner, passwordGrantEnv, REPO, runRunner, sandboxWorkspace, startLogin, type RunnerResult } from './runnerProcess';

const SMOKE = path.join(REPO, 'test', 'sandbox', 'requests', 'cli-smoke.http');
const PROXY_USER = 'ci-runner';
const PROXY_PASSWORD = 'pr0xy:p@ss word';

/** A workspace for `sandbox` with the smoke file, and the run of it. */
function workspace(sandbox: Sandbox, folders: string[]): string {
  const folder = sandboxWorkspace(sandbox, sandbox.clients.password.clientId);
  fs.copyFileSync(SMOKE, path.join(folder, 'smoke.http'));
  folders.push(folder);
  return folder;
}

const lineText = (lines: ProxyLogLine[]) => lines.map((line) => `${line.result} ${line.method} ${line.url} ${line.user}`).join('\n');

describe('tenant-api behind a forward proxy (squid)', function () {
  this.timeout(120_000);
  const folders: string[] = [];
  const outputs: string[] = [];
  const run = async (folder: string, env: Record<string, string>, extra: string[] = []): Promise<RunnerResult> => {
    const result = await runRunner(['run', 'smoke.http', '--env', 'Sandbox', ...extra], folder, env);
    outputs.push(result.stdout, result.stderr);
    return result;
  };

  before(() => buildRunner());
  after(() => {
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
    for (const text of outputs) assert.ok(!text.includes(PROXY_PASSWORD) && !text.includes(encodeURIComponent(PROXY_PASSWORD)), `the proxy password was printed:\n${text}`);
  });

  describe('plain http', () => {
    let sandbox: Sandbox;
    let proxy: ForwardProxy;
    let folder: string;
    before(async () => {
      [sandbox, proxy] = await Promise.all([startSandbox({}), startForwardProxy()]);
      folder = workspace(sandbox, folders);
    });
    beforeEach(() => sandbox.resetLimits());
    after(async () => {
      await sandbox?.close();
      await proxy?.close();
    });

    it('HTTP_PROXY: sign-in, the tenant listing and every resource call are in the proxy\'s log, forwarded one by one', async () => {
      const before = sandbox.requests.length;
      const result = await run(folder, { ...passwordGrantEnv(sandbox), HTTP_PROXY: proxy.url });
      assert.equal(result.code, 0, result.stdout + result.stderr);
      const calls = sandbox.requests.slice(before);
      assert.ok(calls.length >= 4, 'the run called the API');
      const lines = await proxy.waitForLog((log) => log.length >= calls.length + 1);
      for (const call of calls) {
        const url = new URL(call.url, call.host === 'base' ? sandbox.baseUrl : sandbox.clusterUrls[Number(call.host.slice('cluster'.length))]);
        const expected = `${url.origin}${url.pathname}`;
        assert.ok(lines.some((line) => line.method === call.method && line.url.startsWith(expected)), `${call.method} ${expected} is not in the proxy's log:\n${lineText(lines)}`);
      }
      assert.ok(lines.some((line) => line.method === 'POST' && line.url === sandbox.endpoints.token), `the token request is not in the proxy's log:\n${lineText(lines)}`);
      const toApi = lines.filter((line) => !line.url.startsWith(sandbox.authUrl));
      assert.equal(toApi.length, calls.length, `one proxied exchange per API call, none direct, none twice:\n${lineText(lines)}`);
    });

    it('NO_PROXY: the hosts it names are reached directly, by host or by host:port', async () => {
      const start = proxy.log().length;
      const direct = await run(folder, { ...passwordGrantEnv(sandbox), HTTP_PROXY: proxy.url, NO_PROXY: 'example.com, 127.0.0.1' });
      assert.equal(direct.code, 0, direct.stdout + direct.stderr);
      // Only the authorization server's port bypasses the proxy; the API hosts share its host name.
      const authPort = new URL(sandbox.authUrl).port;
      const mixed = await run(folder, { ...passwordGrantEnv(sandbox), http_proxy: proxy.url, no_proxy: `127.0.0.1:${authPort}` });
      assert.equal(mixed.code, 0, mixed.stdout + mixed.stderr);
      const lines = (await proxy.waitForLog((log) => log.length > start)).slice(start);
      assert.ok(lines.length > 0);
      assert.ok(lines.every((line) => !line.url.startsWith(sandbox.authUrl)), `the authorization server went through the proxy:\n${lineText(lines)}`);
      assert.ok(lines.some((line) => line.url.startsWith(sandbox.baseUrl)), `the base URL did not go through the proxy:\n${lineText(lines)}`);
    });

    it('a proxy that cannot be reached: named without its credentials, the exit code of a request failure (3), nothing sent', async () => {
      const closed = await freePort();
      const before = sandbox.requests.length;
      const result = await run(folder, { ...passwordGrantEnv(sandbox), HTTP_PROXY: `http://${PROXY_USER}:${encodeURIComponent(PROXY_PASSWORD)}@127.0.0.1:${closed}` });
      assert.equal(result.code, 3, result.stdout + result.stderr);
      assert.match(result.stderr, new RegExp(`The proxy http://127\\.0\\.0\\.1:${closed} could not be reached: the connection was refused \\(ECONNREFUSED\\)\\. Check HTTPS_PROXY and HTTP_PROXY`));
      assert.doesNotMatch(result.stdout + result.stderr, new RegExp(PROXY_USER));
      assert.equal(sandbox.requests.length, before);
    });
  });

  describe('a proxy that wants credentials', () => {
    let sandbox: Sandbox;
    let proxy: ForwardProxy;
    let folder: string;
    before(async () => {
      [sandbox, proxy] = await Promise.all([startSandbox({}), startForwardProxy({ credentials: { user: PROXY_USER, password: PROXY_PASSWORD } })]);
      folder = workspace(sandbox, folders);
    });
    after(async () => {
      await sandbox?.close();
      await proxy?.close();
    });

    it('the user and password in the proxy URL (percent-encoded) pass; every call is the user\'s', async () => {
      const result = await run(folder, { ...passwordGrantEnv(sandbox), HTTP_PROXY: proxy.urlWith(PROXY_USER, PROXY_PASSWORD) });
      assert.equal(result.code, 0, result.stdout + result.stderr);
      const lines = await proxy.waitForLog((log) => log.filter((line) => line.status === 200).length >= 5);
      assert.ok(lines.every((line) => line.user === PROXY_USER), lineText(lines));
    });

    it('407 without credentials, and with a wrong password: the run says the proxy wants credentials (exit 3), no password shown', async () => {
      const before = sandbox.requests.length;
      for (const url of [proxy.url, proxy.urlWith(PROXY_USER, 'not-the-password')]) {
        const result = await run(folder, { ...passwordGrantEnv(sandbox), HTTP_PROXY: url });
        assert.equal(result.code, 3, result.stdout + result.stderr);
        assert.match(result.stderr, new RegExp(`The proxy ${proxy.url.replace(/\./g, '\\.')} wants credentials \\(407 Proxy Authentication Required\\)`));
        assert.doesNotMatch(result.stderr, /not-the-password/);
      }
      const lines = await proxy.waitForLog((log) => log.filter((line) => line.status === 407).length >= 2);
      // The discovery document is not tried again by the token request: one 407 per run.
      assert.equal(lines.filter((line) => line.status === 407).length, 2, lineText(lines));
      assert.equal(sandbox.requests.length, before);
    });
  });

  describe('TLS to the sandbox through the proxy', () => {
    let sandbox: Sandbox;
    let proxy: ForwardProxy;
    let folder: string;
    before(async () => {
      [sandbox, proxy] = await Promise.all([startSandbox({ tls: true }), startForwardProxy()]);
      folder = workspace(sandbox, folders);
    });
    beforeEach(() => sandbox.resetLimits());
    after(async () => {
      await sandbox?.close();
      await proxy?.close();
    });

    it('without its certificate authority: the certificate is not trusted, which problem it is and how to trust one (exit 3)', async () => {
      const before = sandbox.requests.length;
      const result = await run(folder, { ...passwordGrantEnv(sandbox), HTTPS_PROXY: proxy.url });
      assert.equal(result.code, 3, result.stdout + result.stderr);
      assert.match(result.stderr, /The certificate of 127\.0\.0\.1:\d+ is not trusted: it is signed by a certificate authority that is not trusted here .* name its PEM file in NODE_EXTRA_CA_CERTS, TENANT_API_CA_FILE or --ca-file\./);
      assert.equal(sandbox.requests.length, before);
    });

    it('with --ca-file, TENANT_API_CA_FILE or NODE_EXTRA_CA_CERTS: every host through a CONNECT tunnel', async () => {
      const caFile = sandbox.tls!.caFile;
      const start = proxy.log().length;
      for (const [env, extra] of [[{ TENANT_API_CA_FILE: caFile }, []], [{ NODE_EXTRA_CA_CERTS: caFile }, []], [{}, ['--ca-file', caFile]]] as const) {
        const result = await run(folder, { ...passwordGrantEnv(sandbox), HTTPS_PROXY: proxy.url, ...env }, [...extra]);
        assert.equal(result.code, 0, result.stdout + result.stderr);
      }
      const hosts = [sandbox.authUrl, sandbox.baseUrl, sandbox.clusterUrls[0]].map((url) => new URL(url).host);
      const lines = await proxy.waitForLog((log) => hosts.every((host) => log.slice(start).some((line) => line.method === 'CONNECT' && line.url === host)));
      assert.ok(lines.slice(start).every((line) => line.method === 'CONNECT' && line.status === 200), lineText(lines));
    });
  });

  describe('a client certificate (mutual TLS)', () => {
    let sandbox: Sandbox;
    let folder: string;
    before(async () => {
      sandbox = await startSandbox({ tls: { clientCertificates: true } });
      folder = workspace(sandbox, folders);
    });
    after(() => sandbox?.close());

    it('from files named by options or variables, the key\'s passphrase from the environment; a wrong one is a usage error (2)', async () => {
      const client = sandbox.tls!.client!;
      const base = { ...passwordGrantEnv(sandbox), TENANT_API_CA_FILE: sandbox.tls!.caFile };
      const byVariables = await run(folder, { ...base, TENANT_API_CLIENT_CERT_FILE: client.certFile, TENANT_API_CLIENT_KEY_FILE: client.keyFile, TENANT_API_CLIENT_KEY_PASSPHRASE: client.keyPassphrase });
      assert.equal(byVariables.code, 0, byVariables.stdout + byVariables.stderr);
      sandbox.resetLimits();
      const byOptions = await run(folder, { ...base, TENANT_API_CLIENT_KEY_PASSPHRASE: client.keyPassphrase }, ['--client-cert', client.certFile, '--client-key', client.keyFile]);
      assert.equal(byOptions.code, 0, byOptions.stdout + byOptions.stderr);
      const wrong = await run(folder, { ...base, TENANT_API_CLIENT_KEY_PASSPHRASE: 'wrong-passphrase' }, ['--client-cert', client.certFile, '--client-key', client.keyFile]);
      assert.equal(wrong.code, 2, wrong.stdout + wrong.stderr);
      assert.match(wrong.stderr, /The client key .*client-key\.pem is encrypted: its passphrase in TENANT_API_CLIENT_KEY_PASSPHRASE is missing or wrong\./);
      assert.doesNotMatch(wrong.stderr, new RegExp(client.keyPassphrase));
      // TLS 1.3: the server refuses a missing certificate after the handshake; the client only sees the connection close.
      const without = await run(folder, base);
      assert.equal(without.code, 4, without.stdout + without.stderr);
      assert.match(without.stderr, /Could not reach the authorization server/);
    });
  });

  it('the Redis ledger over rediss:// trusts the same certificate authority (--ca-file); without it Redis cannot be reached (exit 6)', async () => {
    const authority = await TestAuthority.create('Tenant API test Redis CA');
    const pair = await authority.issue();
    const files = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-rediss-'));
    folders.push(files);
    const write = (name: string, text: string) => {
      fs.writeFileSync(path.join(files, name), text, { mode: 0o600 });
      return path.join(files, name);
    };
    const [cert, key, ca] = [write('redis.pem', pair.cert), write('redis-key.pem', pair.key), write('ca.pem', authority.cert)];
    const redis = await RedisServer.start(undefined, { cert, key, ca });
    const sandbox = await startSandbox({});
    try {
      const folder = workspace(sandbox, folders);
      const ledger = ['--ledger', redis.url];
      const trusted = await run(folder, passwordGrantEnv(sandbox), [...ledger, '--ca-file', ca]);
      assert.equal(trusted.code, 0, trusted.stdout + trusted.stderr);
      const untrusted = await run(folder, passwordGrantEnv(sandbox), ledger);
      assert.equal(untrusted.code, 6, untrusted.stdout + untrusted.stderr);
      // The certificate check that failed, not only that the connection closed.
      assert.match(untrusted.stderr, /The shared rate-limit ledger at rediss:\/\/127\.0\.0\.1:\d+\/0 cannot be reached \([^)]*certificate[^)]*, [A-Z_]+\)/);
      assert.doesNotMatch(untrusted.stderr, /Connection is closed/);
    } finally {
      await redis.stop();
      await sandbox.close();
    }
  });

  it('tenant-api login: the device code request and the token polls go through the proxy', async () => {
    const [sandbox, proxy] = await Promise.all([startSandbox({ deviceCodeIntervalSeconds: 1 }), startForwardProxy()]);
    try {
      const folder = sandboxWorkspace(sandbox, sandbox.clients.public.clientId);
      folders.push(folder);
      const login = startLogin(folder, { HTTP_PROXY: proxy.url });
      const { address, code } = await login.prompt;
      const mario = sandbox.users.find((user) => user.username === 'mario.rossi')!;
      await new FormBrowser().approveDevice(address, { username: mario.username, password: mario.password }, code);
      const exited = await login.exited;
      assert.equal(exited.code, 0, exited.output);
      const lines = await proxy.waitForLog((log) => ['/connect/deviceauthorization', '/connect/token', '/connect/userinfo'].every((endpoint) => log.some((line) => line.url === `${sandbox.authUrl}${endpoint}`)));
      assert.ok(lines.every((line) => line.url.startsWith(sandbox.authUrl)), lineText(lines));
    } finally {
      await sandbox.close();
      await proxy.close();
    }
  });
});
