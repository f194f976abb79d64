// npm run bench:throttle [-- --calls 300 --scale 0.2 --margin 1 --overhead-calls 2000] (npm run bench runs it, then windows.ts)
//
// Throttling: a burst of calls against the sandbox (own process, time-scaled, latency jitter 2 % of
// the window) with our client, p-throttle, bottleneck and no throttling, side by side; our client
// also with its two other ways of logging a call (answer times, send times) for comparison. Then
// our client's own overhead per call against a bare fetch on a loopback server.
// Writes test/bench/results/throttle.json (rows { name, calls, count429, wallMs, minimumMs, ratio })
// and test/bench/results/overhead.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import Bottleneck from 'bottleneck';
import { ApiClient } from '../../src/api/apiClient';
import { CountTimeEstimator, type CountTimeRule } from '../../src/api/countTimeEstimate';
import { APPLICATION_LIMITS, scaleLimits } from '../../src/api/limits';
import { localScheduler } from '../../src/api/requestScheduler';
import { systemClock } from '../../src/common/clock';
import { LicenceKeyStore } from '../../src/api/licenceKeyStore';
import { InMemorySecretStore } from '../helpers/inMemorySecretStore';
import { SendTimes } from '../helpers/sendTimes';
import { interleavedTimes, mean, median } from './interleavedTimes';
import { SandboxProcess } from './sandboxClient';
import { option } from './options';

const CALLS = Math.floor(option('calls', 300));
const SCALE = option('scale', 0.2);
const OVERHEAD_CALLS = Math.floor(option('overhead-calls', 2000));
const WINDOW_MS = 1000 * SCALE;
const JITTER_MS = 0.02 * WINDOW_MS;
/** Our safety margin: 1 ms of a 200 ms window is the default 5 ms of a real second. */
const MARGIN_MS = option('margin', 1);
const PATH = '/api/configurazioni';
const RESULTS = join(__dirname, 'results');

interface Row {
  name: string;
  calls: number;
  count429: number;
  wallMs: number;
  minimumMs: number;
  ratio: number;
}

interface Measured extends Row {
  ok: number;
  failed: number;
}

// ---- throttling strategies ----------------------------------------------------------------------

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function minimumMs(calls: number): number {
  return (Math.ceil(calls / 5) - 1) * WINDOW_MS;
}

async function measure(
  name: string,
  sandbox: SandboxProcess,
  burst: () => Promise<Array<number | 'error'>>,
): Promise<Measured> {
  await sandbox.call('reset');
  const started = performance.now();
  const outcomes = await burst();
  const wallMs = performance.now() - started;
  // Let the server's windows of this run end before the next one starts.
  await sleep(WINDOW_MS * 2);
  const stats = await sandbox.call<{ requests: number; statuses: Record<string, number> }>('stats');
  const minimum = minimumMs(CALLS);
  return {
    name,
    calls: CALLS,
    count429: stats.statuses['429'] ?? 0,
    wallMs: Math.round(wallMs),
    minimumMs: Math.round(minimum),
    ratio: Number((minimum / wallMs).toFixed(4)),
    ok: outcomes.filter((o) => o === 200).length,
    failed: outcomes.filter((o) => o !== 200).length,
  };
}

/** Resolves with whether our client met its targets (the exit code says so: 0 met, 1 not). */
async function main(): Promise<boolean> {
  console.log(`Machine: ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`Throttling benchmark: ${CALLS} calls, time scale ${SCALE} (a second lasts ${WINDOW_MS} ms), jitter ${JITTER_MS} ms, our margin ${MARGIN_MS} ms`);
  const sandbox = await SandboxProcess.start({ timeScale: SCALE, jitterMs: JITTER_MS, weeklyLimit: 1_000_000_000, accessTokenTtlSeconds: 3600 });
  const rows: Measured[] = [];
  const latencies: number[] = [];
  try {
    const token = await sandbox.call<string>('token');
    const coreKey = sandbox.info.licenceKeys.find((k) => k.module === 'core' && k.organizationId === 'org-rossi')!.key;
    const url = `${sandbox.info.baseUrl}${PATH}`;
    const headers = { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'Authorization-Key': coreKey };
    const bare = async (): Promise<number | 'error'> => {
      try {
        const response = await fetch(url, { headers });
        await response.arrayBuffer();
        return response.status;
      } catch {
        return 'error';
      }
    };

    const keys = new LicenceKeyStore(new InMemorySecretStore());
    await keys.set('core', { key: coreKey, label: 'bench', organization: 'Rossi' });
    const burst = (of: ApiClient) => () =>
      Promise.all(
        Array.from({ length: CALLS }, () =>
          of.send({ method: 'GET', path: PATH }).then(
            (r) => r.status,
            () => 'error' as const,
          ),
        ),
      );
    const client = new ApiClient({
      settings: () => ({
        baseUrl: sandbox.info.baseUrl,
        allowedHosts: [],
        routes: [],
        endpoints: [],
        requestTimeoutSeconds: 30,
        safetyMarginMs: MARGIN_MS,
        maxQueueLength: CALLS + 10,
        maxRetries: 3,
      }),
      tokens: { getAccessToken: async () => token },
      licenceKeys: keys,
      timeScale: SCALE,
      // Send-to-headers time of each call: our scheduler logs a call at its answer time minus the
      // fastest round trip, so every window costs windowMs + margin + (this latency - the fastest).
      fetch: async (input, init) => {
        const started = performance.now();
        const response = await fetch(input, init);
        latencies.push(performance.now() - started);
        return response;
      },
    });
    await bare(); // warm the connection pool and the sandbox's code paths

    // The other rules for where a call goes in the log, through the local log's CountTimeRule seam.
    const variant = (countTime: CountTimeRule, safetyMarginMs: number) =>
      new ApiClient({
        settings: () => ({ ...client.settings(), safetyMarginMs }),
        tokens: { getAccessToken: async () => token },
        licenceKeys: keys,
        timeScale: SCALE,
        scheduler: localScheduler({
          clock: systemClock,
          limits: scaleLimits(APPLICATION_LIMITS, SCALE),
          safetyMarginMs: () => safetyMarginMs,
          maxQueueLength: () => CALLS + 10,
          countTime,
        }),
      });
    // Warm the client's code paths (as `bare()` warms fetch's) with a client of its own, so that the
    // measured clients start with nothing learned but do not pay the first run's compilation.
    const warm = variant(new CountTimeEstimator(() => 'answer'), MARGIN_MS);
    await Promise.all(Array.from({ length: 5 }, () => warm.send({ method: 'GET', path: PATH })));
    warm.dispose();
    warm.scheduler.dispose();
    const answerLogged = variant(new CountTimeEstimator(() => 'answer'), MARGIN_MS);
    // Send times with a margin as large as the sandbox's jitter.
    const sendLogged = variant(new SendTimes(), JITTER_MS);

    rows.push(await measure('ours (ApiClient)', sandbox, burst(client)));
    client.dispose();
    rows.push(await measure('ours, answer times logged', sandbox, burst(answerLogged)));
    answerLogged.dispose();
    answerLogged.scheduler.dispose();
    rows.push(await measure(`ours, send times logged (margin ${JITTER_MS} ms)`, sandbox, burst(sendLogged)));
    sendLogged.dispose();
    sendLogged.scheduler.dispose();

    const { default: pThrottle } = await import('p-throttle');
    const throttled = pThrottle({ limit: 5, interval: WINDOW_MS })(bare);
    rows.push(await measure('p-throttle (5 per second)', sandbox, () => Promise.all(Array.from({ length: CALLS }, () => throttled()))));

    const limiter = new Bottleneck({ reservoir: 5, reservoirRefreshAmount: 5, reservoirRefreshInterval: WINDOW_MS });
    rows.push(await measure('bottleneck (reservoir 5/s)', sandbox, () => Promise.all(Array.from({ length: CALLS }, () => limiter.schedule(bare)))));
    await limiter.stop({ dropWaitingJobs: true });

    rows.push(await measure('no throttling', sandbox, () => Promise.all(Array.from({ length: CALLS }, () => bare()))));
  } finally {
    await sandbox.close();
  }

  console.table(
    rows.map((r) => ({
      name: r.name,
      calls: r.calls,
      '200': r.ok,
      '429': r.count429,
      'wall ms': r.wallMs,
      'minimum ms': r.minimumMs,
      ratio: r.ratio,
      'throughput / allowed': Number((r.ok / (r.wallMs / WINDOW_MS) / 5).toFixed(3)),
    })),
  );
  if (latencies.length > 0) {
    const sorted = [...latencies].sort((a, b) => a - b);
    const mean = latencies.reduce((sum, v) => sum + v, 0) / latencies.length;
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
    const varying = mean - sorted[0];
    console.log(
      `ours: send-to-answer latency mean ${mean.toFixed(1)} ms (fastest ${at(0)}, p50 ${at(0.5)}, p99 ${at(0.99)}, max ${at(1)}); ` +
        `ratio at most about ${WINDOW_MS} / (${WINDOW_MS} + ${MARGIN_MS} + ${varying.toFixed(1)}) = ${(WINDOW_MS / (WINDOW_MS + MARGIN_MS + varying)).toFixed(3)}` +
        ` (logging answer times: ${WINDOW_MS} / (${WINDOW_MS} + ${MARGIN_MS} + ${mean.toFixed(1)}) = ${(WINDOW_MS / (WINDOW_MS + MARGIN_MS + mean)).toFixed(3)}).` +
        ' Below it: the first calls are logged at their answer times until the fastest round trip has held for 30 calls,' +
        ' each call goes a little after its slot (headers built), and the burst ends with the last of five slots, each a window apart',
    );
  }
  mkdirSync(RESULTS, { recursive: true });
  const json: Row[] = rows.map(({ name, calls, count429, wallMs, minimumMs, ratio }) => ({ name, calls, count429, wallMs, minimumMs, ratio }));
  writeFileSync(join(RESULTS, 'throttle.json'), `${JSON.stringify(json, null, 2)}\n`);

  const overhead = await measureOverhead();
  console.log(
    `Overhead of ApiClient.send over a bare fetch on loopback: ${overhead.overheadMsPerCall.toFixed(3)} ms/call, median ` +
      `(fetch ${overhead.fetchMsPerCall.toFixed(3)} ms, client ${overhead.clientMsPerCall.toFixed(3)} ms; mean difference ` +
      `${overhead.meanOverheadMsPerCall.toFixed(3)} ms; ${OVERHEAD_CALLS} sequential calls each, interleaved)`,
  );
  writeFileSync(join(RESULTS, 'overhead.json'), `${JSON.stringify(overhead, null, 2)}\n`);

  const ours = rows[0];
  const pass = ours.count429 === 0 && ours.failed === 0 && ours.ratio >= 0.97 && overhead.overheadMsPerCall < 1;
  console.log(
    `Targets for ours: 0 x 429 (${ours.count429}), ratio >= 0.97 (${ours.ratio}), overhead < 1 ms/call (${overhead.overheadMsPerCall.toFixed(3)}): ${pass ? 'met' : 'NOT met'}`,
  );
  console.log(`Load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`Results written to ${RESULTS}`);
  return pass;
}

// ---- overhead -----------------------------------------------------------------------------------

async function measureOverhead() {
  const body = JSON.stringify({ valore: 'x'.repeat(200) });
  const server: Server = createServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('Service-Limit-Info', 'api-usage=1/1000000');
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const keys = new LicenceKeyStore(new InMemorySecretStore());
  await keys.set('core', { key: 'BENCHKEY1', label: 'bench', organization: 'Bench' });
  const client = new ApiClient({
    settings: () => ({
      baseUrl,
      allowedHosts: [],
      routes: [],
      endpoints: [],
      requestTimeoutSeconds: 30,
      safetyMarginMs: 0,
      maxQueueLength: 10,
      maxRetries: 0,
    }),
    tokens: { getAccessToken: async () => 'bench-token' },
    licenceKeys: keys,
    // No throttling here: this measures the client's own work per call.
    limits: [{ unit: 'second', windowMs: 1000, max: Number.MAX_SAFE_INTEGER }],
  });
  const headers = { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: 'Bearer bench-token', 'Authorization-Key': 'BENCHKEY1' };
  const bareCall = async () => {
    const response = await fetch(`${baseUrl}${PATH}`, { headers });
    await response.text();
  };
  const clientCall = async () => {
    await client.send({ method: 'GET', path: PATH });
  };
  // Interleaved, so that drift in the machine's load affects both alike; medians of single calls.
  const { a: fetchTimes, b: clientTimes } = await interleavedTimes(bareCall, clientCall, 300, OVERHEAD_CALLS);
  client.dispose();
  await new Promise((resolve) => server.close(resolve));
  return {
    calls: OVERHEAD_CALLS,
    fetchMsPerCall: median(fetchTimes),
    clientMsPerCall: median(clientTimes),
    overheadMsPerCall: median(clientTimes) - median(fetchTimes),
    meanOverheadMsPerCall: mean(clientTimes) - mean(fetchTimes),
  };
}

main().then(
  (met) => {
    if (!met) console.error('The benchmark ran, but our client missed its targets (see "Targets for ours" above): exit code 1.');
    process.exit(met ? 0 : 1);
  },
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
