// npm run bench:matrix [-- --requests 50]
//
// Matrix runs through the runner (dist/cli.js, built first) against the sandbox in its own process, in
// real time (5/s, 300/min):
// - 4 tenants x 50 requests: one file of 50 requests run with --tenant '*' for a user of four tenants
//   (the sandbox gives mario.rossi all four), keys of both organizations. Targets: 0 x 429, a ratio of
//   0.95 or more (the minimum time the limits allow for the calls answered 200, over the wall time from
//   the first call's arrival to the last's: the ratio of the run's throttle, sign-in and start aside).
// - a data file of 10,000 rows: the first request handed to the client within 300 ms of the runner's
//   start, sign-in excluded (measured from outside the runner: test/helpers/cliTimings), stopped by --max-calls after a few calls.
// Writes test/bench/results/matrix.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { option } from './options';
import { runRunnerJson } from './runnerProcess';
import { SandboxProcess } from './sandboxClient';

const REQUESTS = Math.floor(option('requests', 50));
const ROWS = 10_000;
const REPO = resolve(__dirname, '..', '..');
const RESULTS = join(__dirname, 'results');
const minimumMs = (calls: number) => Math.max((Math.ceil(calls / 5) - 1) * 1000, (Math.ceil(calls / 300) - 1) * 60_000);

interface RunnerJson {
  exitCode: number;
  total: number;
  statistics?: { calls: number; answers429: number; rateLimitWaits: number };
}

async function main(): Promise<void> {
  console.log(`Machine: ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`Matrix benchmark: 4 tenants x ${REQUESTS} requests, and a ${ROWS}-row data file, through tenant-api in real time (5/s, 300/min)`);
  const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: REPO, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(build.stderr);
  const sandbox = await SandboxProcess.start({ weeklyLimit: 1_000_000_000, accessTokenTtlSeconds: 3600, moreTenants: { 'mario.rossi': ['BA-CO'] } });
  const runtime = mkdtempSync(join(tmpdir(), 'bench-matrix-'));
  const workspace = mkdtempSync(join(tmpdir(), 'bench-matrix-ws-'));
  try {
    const { info } = sandbox;
    const client = info.clients.password;
    const mario = info.users.find((user) => user.username === 'mario.rossi')!;
    const key = (organization: string) => info.licenceKeys.find((k) => k.module === 'core' && k.organizationId === organization)!.key;
    mkdirSync(join(workspace, '.vscode'));
    const environment = { name: 'Sandbox', authUrl: info.authUrl, baseUrl: info.baseUrl, clientId: client.clientId, allowedHosts: ['127.0.0.1'] };
    writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'tenantApi.environments': [environment] }));
    writeFileSync(join(workspace, 'matrix.http'), Array.from({ length: REQUESTS }, (_, i) => `GET /api/configurazioni?call=m${i}&dimensionePagina=1\n?? status == 200\n`).join('###\n'));
    writeFileSync(join(workspace, 'rows.http'), 'GET /api/configurazioni?call={{id}}&dimensionePagina=1\n?? status == 200\n');
    writeFileSync(join(workspace, 'rows.csv'), `id,label\n${Array.from({ length: ROWS }, (_, i) => `r${i},row ${i}`).join('\n')}\n`);
    const env = {
      XDG_RUNTIME_DIR: runtime,
      TENANT_API_CLIENT_SECRET: client.clientSecret,
      TENANT_API_USERNAME: mario.username,
      TENANT_API_PASSWORD: mario.password,
      TENANT_API_KEY_CORE_ROSSI: key('org-rossi'),
      TENANT_API_KEY_CORE_BIANCHI: key('org-bianchi'),
      TENANT_API_TENANTS_ROSSI: 'RC-MI,RC-TO',
      TENANT_API_TENANTS_BIANCHI: 'BA-PR,BA-CO',
    };
    await sandbox.call('reset');
    const matrix = await runRunnerJson<RunnerJson>(workspace, ['matrix.http', '--tenant', '*'], env);
    const calls = (await sandbox.call<Array<{ at: number; call: string | null; status: number }>>('calls')).filter((call) => call.call?.startsWith('m'));
    const ok = calls.filter((call) => call.status === 200).length;
    const wallMs = Math.max(...calls.map((call) => call.at)) - Math.min(...calls.map((call) => call.at));
    await sandbox.call('reset');
    await new Promise((resolveWait) => setTimeout(resolveWait, 1100));
    const rows = await runRunnerJson<RunnerJson>(workspace, ['rows.http', '--data', 'rows.csv', '--max-calls', '3'], env);
    const results = [
      { name: `4 tenants x ${REQUESTS} requests`, cases: matrix.total, calls: calls.length, count429: calls.filter((call) => call.status === 429).length, ratio: Number((minimumMs(ok) / wallMs).toFixed(4)), wallMs, exitCode: matrix.exitCode },
      { name: `${ROWS}-row data file`, cases: rows.total, firstRequestMs: rows.firstRequestMs ?? null, exitCode: rows.exitCode },
    ];
    console.table(results);
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(join(RESULTS, 'matrix.json'), `${JSON.stringify({ loadAverage: loadavg(), results }, null, 2)}\n`);
    const pass = results[0].count429 === 0 && results[0].ratio! >= 0.95 && results[0].exitCode === 0 && results[0].cases === 4 * REQUESTS && rows.firstRequestMs !== undefined && rows.firstRequestMs < 300 && rows.total === ROWS;
    console.log(`Targets (4 x ${REQUESTS}: 0 x 429, ratio >= 0.95, every case passed; ${ROWS} rows: first request handed to the client < 300 ms after start, sign-in excluded): ${pass ? 'met' : 'NOT met'}`);
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
