// npm run bench:redis [-- --calls 200 --scale 0.2 --margin 1 --overhead-calls 1000]
//
// Many runners, one connected app, one Redis: three processes (test/bench/redisProcess.ts),
// each the real ApiClient taking its slots from the Redis ledger, against the time-scaled sandbox,
// `calls` calls each at the same moment. Rows: the three together (twice), and the three with Redis
// killed (SIGKILL) in mid-burst (they go on at their local share). Then the Redis ledger's cost per
// call over the scheduler's own log on loopback. Needs redis-server (Debian package redis-server).
// Writes test/bench/results/redis.json (rows { name, processes, calls, count429, ratio, lost,
// duplicated, stallMs, using }) and test/bench/results/redis-overhead.json. Exits 1 when a target is missed.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../../src/api/apiClient';
import { LicenceKeyStore } from '../../src/api/licenceKeyStore';
import { localScheduler, RequestScheduler } from '../../src/api/requestScheduler';
import { systemClock } from '../../src/common/clock';
import { silentLogger } from '../../src/common/logger';
import { createLedger } from '../../src/coordination/redis/createLedger';
import { ledgerFromUrl } from '../../src/coordination/redis/ledgerUrl';
import { InMemorySecretStore } from '../helpers/inMemorySecretStore';
import { RedisServer } from '../helpers/redisServer';
import { interleavedTimes, median } from './interleavedTimes';
import { option } from './options';
import type { RedisRunnerOptions } from './redisProcess';
import { SandboxProcess } from './sandboxClient';

const CALLS = Math.floor(option('calls', 200));
const SCALE = option('scale', 0.2);
const MARGIN_MS = option('margin', 1);
const OVERHEAD_CALLS = Math.floor(option('overhead-calls', 1000));
const PROCESSES = 3;
const WINDOW_MS = 1000 * SCALE;
const JITTER_MS = 0.02 * WINDOW_MS;
const PATH = '/api/configurazioni';
const RESULTS = join(__dirname, 'results');
/** Redis is killed this long after the burst starts (real ms). */
const KILL_AFTER_MS = 1500;

interface Row {
  name: string;
  processes: number;
  calls: number;
  count429: number;
  ratio: number;
  lost: number;
  duplicated: number;
  stallMs: number | null;
  using: string;
}

interface Done {
  results: Array<{ call: string; status: number; error?: string }>;
  wallMs: number;
  using: string;
  warnings: string[];
}

class RunnerProcess {
  readonly done: Promise<Done>;

  private constructor(readonly child: ChildProcess) {
    this.done = new Promise((resolve) => child.on('message', (m: { done?: Done }) => m.done && resolve(m.done)));
  }

  static start(options: RedisRunnerOptions): Promise<RunnerProcess> {
    const child = fork(join(__dirname, 'redisProcess.ts'), [JSON.stringify(options)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const runner = new RunnerProcess(child);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${options.name} did not start within 30 s`)), 30_000);
      child.once('exit', (code) => reject(new Error(`${options.name} exited (${code})`)));
      child.on('message', (m: { ready?: boolean }) => {
        if (!m.ready) return;
        clearTimeout(timer);
        resolve(runner);
      });
    });
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    if (this.child.exitCode === null) this.child.send({ cmd: 'exit' });
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
    if (this.child.exitCode === null) this.child.kill();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const minimumMs = (calls: number) => (Math.ceil(calls / 5) - 1) * WINDOW_MS;

async function run(name: string, sandbox: SandboxProcess, base: Omit<RedisRunnerOptions, 'name' | 'redisUrl'>, kill: boolean): Promise<Row> {
  const redis = await RedisServer.start();
  const runners: RunnerProcess[] = [];
  try {
    for (let i = 0; i < PROCESSES; i++) runners.push(await RunnerProcess.start({ ...base, name: `${name.replace(/\W+/g, '')}p${i}`, redisUrl: redis.url }));
    await sandbox.call('reset');
    const started = Date.now();
    for (const runner of runners) runner.child.send({ cmd: 'go' });
    let killedAt: number | undefined;
    if (kill) {
      await sleep(KILL_AFTER_MS);
      killedAt = Date.now();
      await redis.kill();
    }
    const done = await Promise.all(runners.map((r) => r.done));
    const wallMs = Date.now() - started;
    await sleep(WINDOW_MS * 2);
    const calls = await sandbox.call<Array<{ at: number; call: string | null; status: number }>>('calls');
    const seen = new Map<string, number>();
    for (const call of calls) if (call.call) seen.set(call.call, (seen.get(call.call) ?? 0) + 1);
    const ok = calls.filter((c) => c.status === 200).length;
    // The longest the processes sent nothing from the kill on (their normal gap is a fraction of a window).
    const after = calls.filter((c) => c.at >= killedAt!).map((c) => c.at);
    const stallMs = killedAt === undefined ? null : Math.max(...[killedAt, ...after].slice(1).map((at, i) => at - [killedAt, ...after][i]));
    return {
      name,
      processes: PROCESSES,
      calls: calls.length,
      count429: calls.filter((c) => c.status === 429).length,
      ratio: Number((minimumMs(ok) / wallMs).toFixed(4)),
      lost: done.flatMap((d) => d.results).filter((r) => r.status !== 200).length,
      duplicated: [...seen.values()].filter((n) => n > 1).length,
      stallMs,
      using: [...new Set(done.map((d) => d.using))].join('/'),
    };
  } finally {
    await Promise.all(runners.map((r) => r.stop()));
    await redis.stop();
  }
}

/** Sequential calls to a loopback server without limits: the Redis ledger against the scheduler's own log. */
async function measureOverhead() {
  const server = createServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const unlimited = [{ unit: 'second' as const, windowMs: 1000, max: 1_000_000 }];
  const redis = await RedisServer.start();
  const ledger = await createLedger({
    endpoint: ledgerFromUrl(redis.url, 'flag', {}),
    fallback: 'fail',
    application: { authUrl: 'http://127.0.0.1/bench', clientId: 'overhead' },
    limits: unlimited,
    safetyMarginMs: () => 0,
    logger: silentLogger,
    local: () => {
      throw new Error('Redis is expected');
    },
  });
  const keys = new LicenceKeyStore(new InMemorySecretStore());
  await keys.set('core', { key: 'BENCHKEY1', label: 'bench', organization: 'Bench' });
  const settings = () => ({ baseUrl, allowedHosts: [], routes: [], endpoints: [], requestTimeoutSeconds: 30, safetyMarginMs: 0, maxQueueLength: 10, maxRetries: 0 });
  const scheduler = (withLedger: boolean) =>
    withLedger
      ? new RequestScheduler({ ledger, maxQueueLength: () => 10, clock: systemClock })
      : localScheduler({ clock: systemClock, limits: unlimited, safetyMarginMs: () => 0, maxQueueLength: () => 10 });
  const shared = new ApiClient({ settings, tokens: { getAccessToken: async () => 't' }, licenceKeys: keys, scheduler: scheduler(true) });
  const alone = new ApiClient({ settings, tokens: { getAccessToken: async () => 't' }, licenceKeys: keys, scheduler: scheduler(false) });
  const send = (client: ApiClient) => () => client.send({ method: 'GET', path: PATH });
  const { a: aloneTimes, b: redisTimes } = await interleavedTimes(send(alone), send(shared), 200, OVERHEAD_CALLS);
  shared.dispose();
  alone.dispose();
  ledger.dispose();
  await redis.stop();
  await new Promise((resolve) => server.close(resolve));
  return { calls: OVERHEAD_CALLS, aloneMsPerCall: median(aloneTimes), redisMsPerCall: median(redisTimes), addedMsPerCall: median(redisTimes) - median(aloneTimes) };
}

async function main(): Promise<void> {
  console.log(`Machine: ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`Redis ledger benchmark: ${PROCESSES} processes x ${CALLS} calls, time scale ${SCALE} (a second lasts ${WINDOW_MS} ms), jitter ${JITTER_MS} ms, margin ${MARGIN_MS} ms`);
  const sandbox = await SandboxProcess.start({ timeScale: SCALE, jitterMs: JITTER_MS, weeklyLimit: 1_000_000_000, accessTokenTtlSeconds: 3600 });
  const rows: Row[] = [];
  try {
    const token = await sandbox.call<string>('token');
    const coreKey = sandbox.info.licenceKeys.find((k) => k.module === 'core' && k.organizationId === 'org-rossi')!.key;
    const base = { baseUrl: sandbox.info.baseUrl, token, coreKey, scale: SCALE, marginMs: MARGIN_MS, calls: CALLS, path: PATH };
    rows.push(await run('3 processes, one Redis', sandbox, base, false));
    rows.push(await run('3 processes, one Redis (again)', sandbox, base, false));
    rows.push(await run(`3 processes, Redis killed (SIGKILL) ${KILL_AFTER_MS} ms into the burst`, sandbox, base, true));
  } finally {
    await sandbox.close();
  }
  console.table(rows);
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, 'redis.json'), `${JSON.stringify(rows, null, 2)}\n`);
  const overhead = await measureOverhead();
  console.log(
    `Cost of the Redis ledger per call on loopback: ${overhead.addedMsPerCall.toFixed(3)} ms median ` +
      `(own log ${overhead.aloneMsPerCall.toFixed(3)} ms, Redis ${overhead.redisMsPerCall.toFixed(3)} ms; ${OVERHEAD_CALLS} sequential calls each, interleaved)`,
  );
  writeFileSync(join(RESULTS, 'redis-overhead.json'), `${JSON.stringify(overhead, null, 2)}\n`);
  const pass =
    rows.every((r) => r.count429 === 0 && r.lost === 0 && r.duplicated === 0) &&
    rows.filter((r) => r.stallMs === null).every((r) => r.ratio >= 0.95 && r.using === 'redis') &&
    rows.filter((r) => r.stallMs !== null).every((r) => r.stallMs! < 2000) &&
    overhead.addedMsPerCall < 2;
  console.log(`Targets (0 x 429, 0 lost, 0 duplicated, ratio >= 0.95, stall < 2000 ms, < 2 ms per call): ${pass ? 'met' : 'NOT met'}`);
  console.log(`Load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  process.exitCode = pass ? 0 : 1;
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
