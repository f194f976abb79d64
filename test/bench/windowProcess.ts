// One editor window for the windows benchmark (test/bench/windows.ts): the real ApiClient with the
// real coordination (ApplicationLedger over a Unix socket in a private directory), in its own process.
// Parent -> child: { cmd: 'go' } | { cmd: 'exit' }.
// Child -> parent: { ready: { broker } } | { role } | { done: { results: [{ call, status }], wallMs } }.
import { ApiClient } from '../../src/api/apiClient';
import { LicenceKeyStore } from '../../src/api/licenceKeyStore';
import { scaleLimits, type RateLimit } from '../../src/api/limits';
import { QuotaTracker } from '../../src/api/quotaTracker';
import { RequestScheduler } from '../../src/api/requestScheduler';
import { systemClock } from '../../src/common/clock';
import { silentLogger } from '../../src/common/logger';
import { ApplicationLedger } from '../../src/coordination/applicationLedger';
import { openRuntimeDir } from '../../src/coordination/runtimeDir';
import { InMemorySecretStore } from '../helpers/inMemorySecretStore';

export interface WindowOptions {
  name: string;
  baseUrl: string;
  token: string;
  coreKey: string;
  scale: number;
  marginMs: number;
  calls: number;
  dirBase: string;
  path: string;
  /** Default: the spec's limits. */
  limits?: RateLimit[];
  /** The application whose ledger the window joins (default: a bench-only one); runners of the same application share it. */
  application?: { authUrl: string; clientId: string };
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2]) as WindowOptions;
  const send = (message: unknown) => process.send?.(message);
  const limits = scaleLimits(options.limits ?? [{ unit: 'second', windowMs: 1000, max: 5 }, { unit: 'minute', windowMs: 60_000, max: 300 }], options.scale);
  const quota = new QuotaTracker();
  const ledger = new ApplicationLedger({
    clock: systemClock,
    limits,
    safetyMarginMs: () => options.marginMs,
    logger: silentLogger,
    quota,
    application: () => options.application ?? { authUrl: 'http://127.0.0.1/bench', clientId: 'bench' },
    runtimeDir: () => openRuntimeDir(options.dirBase),
  });
  const keys = new LicenceKeyStore(new InMemorySecretStore());
  await keys.set('core', { key: options.coreKey, label: 'bench', organization: 'Rossi' });
  const client = new ApiClient({
    settings: () => ({
      baseUrl: options.baseUrl,
      allowedHosts: [],
      routes: [],
      endpoints: [],
      requestTimeoutSeconds: 30,
      safetyMarginMs: options.marginMs,
      maxQueueLength: options.calls + 10,
      maxRetries: 3,
    }),
    tokens: { getAccessToken: async () => options.token },
    licenceKeys: keys,
    timeScale: options.scale,
    quota,
    scheduler: new RequestScheduler({ ledger, maxQueueLength: () => options.calls + 10, clock: systemClock }),
  });
  // Warm fetch's and the client's code paths with a client of its own (as test/bench/index.ts does),
  // so that the measured client starts with nothing learned but does not pay the first compilation.
  if (options.calls > 0) {
    const warm = new ApiClient({ settings: client.settings.bind(client), tokens: { getAccessToken: async () => options.token }, licenceKeys: keys, timeScale: options.scale });
    await Promise.all(Array.from({ length: 5 }, () => warm.send({ method: 'GET', path: options.path }).catch(() => undefined)));
    warm.dispose();
  }
  await ledger.ready();
  ledger.sharing?.onRole((role) => send({ role }));
  send({ ready: { broker: ledger.sharing?.isBroker === true, sharing: ledger.sharing !== undefined } });

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
    send({ done: { results, wallMs: performance.now() - started } });
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
