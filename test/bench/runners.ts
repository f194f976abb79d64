// npm run bench:runners [-- --runner-calls 20 --window-calls 40]
//
// The runner beside an editor: one editor-like window process (windowProcess.ts: the real
// client and the real coordination) and three `tenant-api` processes (dist/cli.js, built first), all
// of one application, against the sandbox in real time (the runner has no time scale), through the
// shared ledger in a private runtime directory. The window sends its calls at once; each runner sends
// its file's requests in order. First a runner alone beside the idle window (its start-up with no queue
// ahead). Targets: 0 x 429, a combined ratio of 0.95 or more (minimum ms for the calls answered 200 /
// wall ms from the window's start to the last call's arrival), and less than 300 ms from a runner's start to its first
// request handed to the client, sign-in excluded (measured from outside: test/helpers/cliTimings), and to its first request on
// the wire for the runner alone (beside the burst, a runner's first request waits its turn in the queue).
// Writes test/bench/results/runners.json.
import { fork, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CliTimings } from '../helpers/cliTimings';
import { option } from './options';
import { runRunnerJson } from './runnerProcess';
import { SandboxProcess } from './sandboxClient';
import type { WindowOptions } from './windowProcess';

const RUNNERS = 3;
const RUNNER_CALLS = Math.floor(option('runner-calls', 20));
const WINDOW_CALLS = Math.floor(option('window-calls', 40));
const MARGIN_MS = 5;
const PATH = '/api/configurazioni';
const REPO = resolve(__dirname, '..', '..');
const RESULTS = join(__dirname, 'results');

/** The runner's JSON report, and when its first request left (test/helpers/cliTimings: the runner measures nothing for the bench). */
interface RunnerReport extends CliTimings {
  calls: number;
  exitCode: number;
}

const minimumMs = (calls: number) => (Math.ceil(calls / 5) - 1) * 1000;

function startWindow(options: WindowOptions): Promise<{ go(): void; done: Promise<unknown>; stop(): void }> {
  const child = fork(join(__dirname, 'windowProcess.ts'), [JSON.stringify(options)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const done = new Promise((resolveDone) => child.on('message', (m: { done?: unknown }) => m.done && resolveDone(m.done)));
  return new Promise((resolveStart, reject) => {
    child.once('exit', (code) => reject(new Error(`the window exited (${code})`)));
    child.on('message', (m: { ready?: { sharing: boolean } }) => {
      if (!m.ready) return;
      if (!m.ready.sharing) reject(new Error('the window could not share the ledger'));
      resolveStart({ go: () => child.send({ cmd: 'go' }), done, stop: () => child.send({ cmd: 'exit' }) });
    });
  });
}

function runRunner(workspace: string, name: string, env: Record<string, string>): Promise<RunnerReport> {
  return runRunnerJson<RunnerReport>(workspace, [`${name}.http`], env);
}

function row(name: string, calls: Array<{ status: number }>, reports: RunnerReport[], wallMs: number | undefined) {
  const ok = calls.filter((c) => c.status === 200).length;
  return {
    name,
    calls: calls.length,
    count429: calls.filter((c) => c.status === 429).length,
    ratio: wallMs === undefined ? null : Number((minimumMs(ok) / wallMs).toFixed(4)),
    firstRequestMs: reports.map((report) => report.firstRequestMs ?? null),
    firstOnWireMs: reports.map((report) => report.firstOnWireMs ?? null),
    signInMs: reports.map((report) => report.signInMs ?? null),
    runnerExitCodes: reports.map((report) => report.exitCode),
  };
}

async function main(): Promise<void> {
  console.log(`Machine: ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`Runners benchmark: ${RUNNERS} tenant-api processes x ${RUNNER_CALLS} requests + 1 window x ${WINDOW_CALLS} calls, real time (5/s, 300/min)`);
  const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: REPO, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(build.stderr);
  const sandbox = await SandboxProcess.start({ weeklyLimit: 1_000_000_000, accessTokenTtlSeconds: 3600 });
  const runtime = mkdtempSync(join(tmpdir(), 'bench-runners-'));
  const workspace = mkdtempSync(join(tmpdir(), 'bench-runners-ws-'));
  try {
    const { info } = sandbox;
    const client = info.clients.password;
    const mario = info.users.find((user) => user.username === 'mario.rossi')!;
    const coreKey = info.licenceKeys.find((k) => k.module === 'core' && k.organizationId === 'org-rossi')!.key;
    mkdirSync(join(workspace, '.vscode'));
    const environment = { name: 'Sandbox', authUrl: info.authUrl, baseUrl: info.baseUrl, clientId: client.clientId, allowedHosts: ['127.0.0.1'] };
    writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'tenantApi.environments': [environment], 'tenantApi.rateLimit.safetyMarginMs': MARGIN_MS }));
    for (let r = 0; r < RUNNERS; r++) {
      const requests = Array.from({ length: RUNNER_CALLS }, (_, i) => `GET ${PATH}?call=r${r}-${i}\n?? status == 200\n`);
      writeFileSync(join(workspace, `r${r}.http`), requests.join('###\n'));
    }
    // The window's token: the same application (client) as the runners', from the same grant.
    const token = (await (
      await fetch(`${info.authUrl}/connect/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'password', client_id: client.clientId, client_secret: client.clientSecret, username: mario.username, password: mario.password, scope: 'openid api' }),
      })
    ).json()) as { access_token: string };
    const window = await startWindow({
      name: 'w', baseUrl: info.baseUrl, token: token.access_token, coreKey, scale: 1, marginMs: MARGIN_MS, calls: WINDOW_CALLS, dirBase: runtime, path: PATH,
      application: { authUrl: info.authUrl, clientId: client.clientId },
    });
    const env = { XDG_RUNTIME_DIR: runtime, TENANT_API_CLIENT_SECRET: client.clientSecret, TENANT_API_USERNAME: mario.username, TENANT_API_PASSWORD: mario.password, TENANT_API_KEY_CORE: coreKey };
    const rows = [];
    // A runner alone beside an idle window: its start-up, joining the ledger included, with no queue ahead of it.
    await sandbox.call('reset');
    const alone = await runRunner(workspace, 'r0', env);
    rows.push(row('1 runner beside an idle window', await sandbox.call('calls'), [alone], undefined));
    await sandbox.call('reset');
    // The ledger still holds the lone runner's calls of the last second: wait them out, or the burst's first
    // call waits for them (correctly) and the wall time measures the phase before.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const started = Date.now();
    window.go();
    const reports = await Promise.all(Array.from({ length: RUNNERS }, (_, r) => runRunner(workspace, `r${r}`, env)));
    await window.done;
    window.stop();
    // To the last call's arrival at the sandbox: the runners' own exit is not the throttle's time.
    const calls = await sandbox.call<Array<{ at: number; status: number }>>('calls');
    const wallMs = Math.max(...calls.map((call) => call.at)) - started;
    rows.push(row(`${RUNNERS} runners + 1 window at once`, calls, reports, wallMs));
    console.table(rows.map((r) => ({ ...r, firstRequestMs: r.firstRequestMs.join(', '), firstOnWireMs: r.firstOnWireMs.join(', '), signInMs: r.signInMs.join(', '), runnerExitCodes: r.runnerExitCodes.join(', ') })));
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(join(RESULTS, 'runners.json'), `${JSON.stringify(rows, null, 2)}\n`);
    const pass =
      rows.every((r) => r.count429 === 0 && r.firstRequestMs.every((ms) => ms !== null && ms < 300) && r.runnerExitCodes.every((code) => code === 0)) &&
      rows.every((r) => r.ratio === null || r.ratio >= 0.95) &&
      rows[0].firstOnWireMs.every((ms) => ms !== null && ms < 300);
    console.log(`Targets (0 x 429, ratio >= 0.95, first request handed to the client < 300 ms after start and, with no queue ahead, on the wire < 300 ms, sign-in excluded; every runner exit 0): ${pass ? 'met' : 'NOT met'}`);
    console.log(`Load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    process.exitCode = pass ? 0 : 1;
  } finally {
    await sandbox.close();
    rmSync(runtime, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
