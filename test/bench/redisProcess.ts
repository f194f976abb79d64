// One runner process for the Redis ledger bench (test/bench/redis.ts): the real ApiClient whose
// scheduler takes its slots from the Redis ledger (src/coordination/redis), in its own process.
// Parent -> child: { cmd: 'go' } | { cmd: 'exit' }.
// Child -> parent: { ready: true } | { done: { results: [{ call, status }], wallMs, using } }.
import { ApiClient } from '../../src/api/apiClient';
import { LicenceKeyStore } from '../../src/api/licenceKeyStore';
import { scaleLimits } from '../../src/api/limits';
import { QuotaTracker } from '../../src/api/quotaTracker';
import { RequestScheduler } from '../../src/api/requestScheduler';
import { systemClock } from '../../src/common/clock';
import { silentLogger } from '../../src/common/logger';
import { createLedger } from '../../src/coordination/redis/createLedger';
import { ledgerFromUrl } from '../../src/coordination/redis/ledgerUrl';
import type { RedisRateLedger } from '../../src/coordination/redis/redisRateLedger';
import { InMemorySecretStore } from '../helpers/inMemorySecretStore';

export interface RedisRunnerOptions {
  name: string;
  redisUrl: string;
  baseUrl: string;
  token: string;
  coreKey: string;
  scale: number;
  marginMs: number;
  calls: number;
  path: string;
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2]) as RedisRunnerOptions;
  const send = (message: unknown) => process.send?.(message);
  const limits = scaleLimits([{ unit: 'second', windowMs: 1000, max: 5 }, { unit: 'minute', windowMs: 60_000, max: 300 }], options.scale);
  const quota = new QuotaTracker();
  const warnings: string[] = [];
  const ledger = (await createLedger({
    endpoint: ledgerFromUrl(options.redisUrl, 'flag', {}),
    fallback: 'fail',
    application: { authUrl: 'http://127.0.0.1/bench', clientId: 'bench-redis' },
    limits,
    safetyMarginMs: () => options.marginMs,
    logger: { ...silentLogger, warn: (message: string) => warnings.push(message) },
    local: () => {
      throw new Error('no local ledger in the bench');
    },
    quota,
  })) as RedisRateLedger;
  const keys = new LicenceKeyStore(new InMemorySecretStore());
  await keys.set('core', { key: options.coreKey, label: 'bench', organization: 'Rossi' });
  const settings = () => ({
    baseUrl: options.baseUrl,
    allowedHosts: [],
    routes: [],
    endpoints: [],
    requestTimeoutSeconds: 30,
    safetyMarginMs: options.marginMs,
    maxQueueLength: options.calls + 10,
    maxRetries: 3,
  });
  const client = new ApiClient({
    settings,
    tokens: { getAccessToken: async () => options.token },
    licenceKeys: keys,
    timeScale: options.scale,
    quota,
    scheduler: new RequestScheduler({ ledger, maxQueueLength: () => options.calls + 10, clock: systemClock }),
  });
  // Warm fetch's and the client's code paths with a client of its own (as windowProcess.ts does).
  const warm = new ApiClient({ settings, tokens: { getAccessToken: async () => options.token }, licenceKeys: keys, timeScale: options.scale });
  await Promise.all(Array.from({ length: 5 }, () => warm.send({ method: 'GET', path: options.path }).catch(() => undefined)));
  warm.dispose();
  send({ ready: true });

  process.on('message', async (message: { cmd: string }) => {
    if (message.cmd === 'exit') {
      client.dispose();
      ledger.dispose();
      process.exit(0);
    }
    if (message.cmd !== 'go') return;
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: options.calls }, (_, i) => {
        const call = `${options.name}-${i}`;
        return client.send({ method: 'GET', path: options.path, query: { call } }).then(
          (response) => ({ call, status: response.status }),
          (error: { status?: number; kind?: string }) => ({ call, status: error.status ?? 0, error: error.kind ?? String(error) }),
        );
      }),
    );
    send({ done: { results, wallMs: performance.now() - started, using: ledger.using, warnings } });
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
