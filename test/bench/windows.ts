// npm run bench:windows [-- --calls 200 --scale 0.2 --margin 1 --overhead-calls 1000]
//
// Several editor windows, one client: three processes (test/bench/windowProcess.ts), each running the
// real ApiClient with the real coordination (src/coordination) against the time-scaled sandbox,
// `calls` calls each at the same moment. Rows: the three together (twice), and the three with the
// broker killed (SIGKILL) in mid-burst. Then the coordination's cost per call on loopback.
// Writes test/bench/results/windows.json (rows { name, windows, calls, count429, ratio, lost,
// duplicated, stallMs }) and test/bench/results/windows-overhead.json.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../../src/api/apiClient';
import { LicenceKeyStore } from '../../src/api/licenceKeyStore';
import { QuotaTracker } from '../../src/api/quotaTracker';
import { localScheduler, RequestScheduler } from '../../src/api/requestScheduler';
import { systemClock } from '../../src/common/clock';
import { silentLogger } from '../../src/common/logger';
import { ApplicationLedger } from '../../src/coordination/applicationLedger';
import { openRuntimeDir } from '../../src/coordination/runtimeDir';
import { InMemorySecretStore } from '../helpers/inMemorySecretStore';
import { SandboxProcess } from './sandboxClient';
import { interleavedTimes, median } from './interleavedTimes';
import type { WindowOptions } from './windowProcess';
import { option } from './options';

const CALLS = Math.floor(option('calls', 200));
const SCALE = option('scale', 0.2);
const MARGIN_MS = option('margin', 1);
const OVERHEAD_CALLS = Math.floor(option('overhead-calls', 1000));
const WINDOWS = 3;
const WINDOW_MS = 1000 * SCALE;
const JITTER_MS = 0.02 * WINDOW_MS;
const PATH = '/api/configurazioni';
const RESULTS = join(__dirname, 'results');
/** The broker is killed this long after the burst starts (real ms). */
const KILL_AFTER_MS = 1500;

interface Row {
  name: string;
  windows: number;
  calls: number;
  count429: number;
  ratio: number;
  lost: number;
  duplicated: number;
  stallMs: number | null;
}

interface Done {
  results: Array<{ call: string; status: number; error?: string }>;
  wallMs: number;
}

class WindowProcess {
  broker = false;
  readonly done: Promise<Done>;
  readonly exited: Promise<void>;

  private constructor(readonly child: ChildProcess, readonly name: string) {
    this.done = new Promise((resolve) => child.on('message', (m: { done?: Done }) => m.done && resolve(m.done)));
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    child.on('message', (m: { role?: string }) => {
      if (m.role) this.broker = m.role === 'broker';
    });
  }

  static start(options: WindowOptions): Promise<WindowProcess> {
    const child = fork(join(__dirname, 'windowProcess.ts'), [JSON.stringify(options)], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const window = new WindowProcess(child, options.name);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${options.name} did not start within 30 s`)), 30_000);
      child.once('exit', (code) => reject(new Error(`${options.name} exited (${code})`)));
      child.on('message', (m: { ready?: { broker: boolean; sharing: boolean } }) => {
        if (!m.ready) return;
        clearTimeout(timer);
        if (!m.ready.sharing) return reject(new Error(`${options.name} could not share the ledger`));
        window.broker = m.ready.broker;
        resolve(window);
      });
    });
  }

  go(): void {
    this.child.send({ cmd: 'go' });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.send({ cmd: 'exit' });
    await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const minimumMs = (calls: number) => (Math.ceil(calls / 5) - 1) * WINDOW_MS;

async function run(
  name: string,
  sandbox: SandboxProcess,
  base: Omit<WindowOptions, 'name' | 'dirBase'>,
  kill: boolean,
): Promise<Row> {
  const dirBase = mkdtempSync(join(tmpdir(), 'bench-windows-'));
  const windows: WindowProcess[] = [];
  // One after the other, so that the first is the broker.
  for (let i = 0; i < WINDOWS; i++) windows.push(await WindowProcess.start({ ...base, name: `${name.replace(/\W+/g, '')}w${i}`, dirBase }));
  try {
    await sandbox.call('reset');
    const started = Date.now();
    for (const window of windows) window.go();
    let killedAt: number | undefined;
    let victim: WindowProcess | undefined;
    if (kill) {
      await sleep(KILL_AFTER_MS);
      victim = windows.find((w) => w.broker)!;
      killedAt = Date.now();
      victim.child.kill('SIGKILL');
    }
    const survivors = windows.filter((w) => w !== victim);
    const done = await Promise.all(survivors.map((w) => w.done));
    const wallMs = Date.now() - started;
    await sleep(WINDOW_MS * 2);
    const calls = await sandbox.call<Array<{ at: number; call: string | null; status: number }>>('calls');
    const seen = new Map<string, number>();
    for (const call of calls) if (call.call) seen.set(call.call, (seen.get(call.call) ?? 0) + 1);
    const duplicated = [...seen.values()].filter((n) => n > 1).length;
    const lost = done.flatMap((d) => d.results).filter((r) => r.status !== 200).length;
    const ok = calls.filter((c) => c.status === 200).length;
    const survivorPrefixes = survivors.map((w) => `${w.name}-`);
    // The longest the survivors sent nothing from the kill on (their normal gap is one window).
    const after = calls.filter((c) => c.at >= killedAt! && survivorPrefixes.some((p) => c.call?.startsWith(p))).map((c) => c.at);
    const stallMs = killedAt === undefined ? null : Math.max(...[killedAt, ...after].slice(1).map((at, i) => at - [killedAt, ...after][i]));
    return {
      name,
      windows: WINDOWS,
      calls: kill ? calls.length : WINDOWS * CALLS,
      count429: calls.filter((c) => c.status === 429).length,
      ratio: Number((minimumMs(ok) / wallMs).toFixed(4)),
      lost,
      duplicated,
      stallMs,
    };
  } finally {
    await Promise.all(windows.map((w) => w.stop()));
    rmSync(dirBase, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(`Machine: ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`Windows benchmark: ${WINDOWS} processes x ${CALLS} calls, time scale ${SCALE} (a second lasts ${WINDOW_MS} ms), jitter ${JITTER_MS} ms, margin ${MARGIN_MS} ms`);
  const sandbox = await SandboxProcess.start({ timeScale: SCALE, jitterMs: JITTER_MS, weeklyLimit: 1_000_000_000, accessTokenTtlSeconds: 3600 });
  const rows: Row[] = [];
  try {
    const token = await sandbox.call<string>('token');
    const coreKey = sandbox.info.licenceKeys.find((k) => k.module === 'core' && k.organizationId === 'org-rossi')!.key;
    const base = { baseUrl: sandbox.info.baseUrl, token, coreKey, scale: SCALE, marginMs: MARGIN_MS, calls: CALLS, path: PATH };
    rows.push(await run('3 windows at once', sandbox, base, false));
    rows.push(await run('3 windows at once (again)', sandbox, base, false));
    rows.push(await run(`3 windows, broker killed (SIGKILL) ${KILL_AFTER_MS} ms into the burst`, sandbox, base, true));
  } finally {
    await sandbox.close();
  }
  console.table(rows);
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, 'windows.json'), `${JSON.stringify(rows, null, 2)}\n`);

  const overhead = await measureOverhead();
  console.log(
    `Cost of the shared ledger per call on loopback (this process a window, the broker another process): ` +
      `${overhead.addedMsPerCall.toFixed(3)} ms median (own log ${overhead.aloneMsPerCall.toFixed(3)} ms, shared ${overhead.sharedMsPerCall.toFixed(3)} ms; ${OVERHEAD_CALLS} sequential calls each, interleaved)`,
  );
  writeFileSync(join(RESULTS, 'windows-overhead.json'), `${JSON.stringify(overhead, null, 2)}\n`);

  const pass =
    rows.every((r) => r.count429 === 0 && r.lost === 0 && r.duplicated === 0) &&
    rows.filter((r) => r.stallMs === null).every((r) => r.ratio >= 0.95) &&
    rows.filter((r) => r.stallMs !== null).every((r) => r.stallMs! <= 2000) &&
    overhead.addedMsPerCall <= 1;
  console.log(`Targets (0 x 429, 0 lost, 0 duplicated, ratio >= 0.95, stall <= 2000 ms, <= 1 ms per call): ${pass ? 'met' : 'NOT met'}`);
  console.log(`Load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

/** Sequential calls to a loopback server without limits: a window of a shared ledger against a window alone. */
async function measureOverhead() {
  const server = createServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const unlimited = [{ unit: 'second' as const, windowMs: 1000, max: Number.MAX_SAFE_INTEGER }];
  const dirBase = mkdtempSync(join(tmpdir(), 'bench-overhead-'));
  // The broker in another process, so that this one pays the socket round trips of a window.
  const broker = await WindowProcess.start({ name: 'broker', baseUrl, token: 't', coreKey: 'BENCHKEY1', scale: 1, marginMs: 0, calls: 0, dirBase, path: PATH, limits: unlimited });
  const keys = new LicenceKeyStore(new InMemorySecretStore());
  await keys.set('core', { key: 'BENCHKEY1', label: 'bench', organization: 'Bench' });
  const settings = () => ({ baseUrl, allowedHosts: [], routes: [], endpoints: [], requestTimeoutSeconds: 30, safetyMarginMs: 0, maxQueueLength: 10, maxRetries: 0 });
  const quota = new QuotaTracker();
  const ledger = new ApplicationLedger({
    clock: systemClock,
    limits: unlimited,
    safetyMarginMs: () => 0,
    logger: silentLogger,
    quota,
    application: () => ({ authUrl: 'http://127.0.0.1/bench', clientId: 'bench' }),
    runtimeDir: () => openRuntimeDir(dirBase),
  });
  await ledger.ready();
  if (!ledger.sharing || ledger.sharing.isBroker) throw new Error('the overhead window should have joined the broker process');
  const scheduler = (withLedger: boolean) =>
    withLedger
      ? new RequestScheduler({ ledger, maxQueueLength: () => 10, clock: systemClock })
      : localScheduler({ clock: systemClock, limits: unlimited, safetyMarginMs: () => 0, maxQueueLength: () => 10 });
  const shared = new ApiClient({ settings, tokens: { getAccessToken: async () => 't' }, licenceKeys: keys, quota, scheduler: scheduler(true) });
  const alone = new ApiClient({ settings, tokens: { getAccessToken: async () => 't' }, licenceKeys: keys, scheduler: scheduler(false) });
  const send = (client: ApiClient) => () => client.send({ method: 'GET', path: PATH });
  const { a: aloneTimes, b: sharedTimes } = await interleavedTimes(send(alone), send(shared), 200, OVERHEAD_CALLS);
  shared.dispose();
  alone.dispose();
  ledger.dispose();
  await broker.stop();
  rmSync(dirBase, { recursive: true, force: true });
  await new Promise((resolve) => server.close(resolve));
  return {
    calls: OVERHEAD_CALLS,
    aloneMsPerCall: median(aloneTimes),
    sharedMsPerCall: median(sharedTimes),
    addedMsPerCall: median(sharedTimes) - median(aloneTimes),
  };
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
