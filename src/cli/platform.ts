/**
 * The editor's client, built for the runner: the same route table, headers, host validation,
 * retries and quota reading (src/api), the application's rate-limit ledger shared with the editor
 * windows and other runners on this machine (src/coordination; its own log where it cannot share),
 * the tenant resolver, and the engine's request-file runner over them.
 */
import { createApplicationScheduler, LicenceKeyStore, type SharedLedgerFactory } from '../api';
import { ApiClient, type ApiSettings } from '../api/apiClient';
import type { FetchFunction } from '../api/httpTransport';
import { licenceSecretName } from '../api/licenceKeyStore';
import { QuotaTracker } from '../api/quotaTracker';
import { TenantResolver } from '../api/tenantResolver';
import type { TenantRecord } from '../api/types';
import type { Logger } from '../common/logger';
import type { AccessTokenSource } from '../common/sessions';
import { windowCoordination, type ApplicationLedger } from '../coordination';
import { createLedger, type LedgerFallback } from '../coordination/redis/createLedger';
import type { LedgerEndpoint } from '../coordination/redis/ledgerUrl';
import { APPLICATION_LIMITS } from '../api/limits';
import { RequestFileRunner } from '../engine/runner';
import { defaultSystemContext } from '../engine/systemVariables';
import * as l10n from '../common/l10n';
import { LICENCE_KEY_PREFIX } from './credentials';
import { MemorySecretStore } from './memorySecrets';

export interface PlatformOptions {
  api: ApiSettings;
  /** The application the calls count against (spec 8): its ledger is the one shared. */
  application: { authUrl: string; clientId: string };
  tokens: AccessTokenSource;
  licenceKeys: ReadonlyMap<string, string>;
  /** The tenant of requests that name none (--tenant): a code, description or id. */
  tenant?: string;
  variables: Record<string, string>;
  logger: Logger;
  fetch: FetchFunction;
  /** The ledger in Redis shared with runners on other machines; without it, this machine's ledger. */
  redis?: { endpoint: LedgerEndpoint; fallback: LedgerFallback; logger: Logger };
}

export interface Platform {
  /** Resolves once the ledger is shared with the editor windows and other runners (their quota readings in), or this process goes alone. */
  ready(): Promise<unknown>;
  client: ApiClient;
  runner: RequestFileRunner;
  quota: QuotaTracker;
  /** A licence key given after the start (asked at the terminal): stored as the environment's are. */
  addLicenceKey(module: string, key: string): Promise<void>;
  dispose(): void;
}

export async function createPlatform(options: PlatformOptions): Promise<Platform> {
  const secrets = new MemorySecretStore();
  // No answer names a key's organization: its quota readings are named after the variable the key came from.
  const addLicenceKey = async (module: string, key: string) => {
    const variable = `${LICENCE_KEY_PREFIX}${module.toUpperCase()}`;
    await secrets.store(licenceSecretName(module), JSON.stringify({ key, label: variable, organization: l10n.t('the organization of {0}', variable) }));
  };
  for (const [module, key] of options.licenceKeys) await addLicenceKey(module, key);
  const licenceKeys = new LicenceKeyStore(secrets);
  const quota = new QuotaTracker();
  const settings = () => options.api;
  const windows = windowCoordination(options.logger);
  const shared = windows.sharedLedger(() => options.application);
  let ledger: ApplicationLedger | undefined;
  const local: SharedLedgerFactory = (parts) => (ledger = shared(parts));
  // Redis is reached (or refused with a LedgerError) before anything is sent.
  const redis = options.redis && (await redisLedger(options, quota, local));
  const scheduler = createApplicationScheduler(settings, options.logger, { ledger: redis ? () => redis : local, quota });
  const client = new ApiClient({ settings, tokens: options.tokens, licenceKeys, logger: options.logger, scheduler: scheduler.scheduler, quota, fetch: options.fetch });
  let listed: TenantRecord[] = [];
  const tenants = new TenantResolver({
    listed: () => listed,
    tenants: async () => (listed = await client.listTenants()),
    active: () => (options.tenant ? { id: options.tenant } : undefined),
    isSignedIn: () => true,
    wording: {
      needsTenant: (path) => l10n.t('{0} needs a tenant: name one in the file (@tenant = CODE, or # @tenant CODE above the request) or with --tenant CODE.', path),
      chosenNotYours: (id) => l10n.t('The tenant {0} of --tenant is not one of your tenants (code, description or id).', id),
    },
  });
  const runner = new RequestFileRunner({
    sender: { api: client, tenants, baseUrl: () => options.api.baseUrl, fetch: options.fetch, timeoutMs: () => options.api.requestTimeoutSeconds * 1000 },
    environment: () => options.variables,
    system: (lookup) => defaultSystemContext(lookup),
  });
  return {
    ready: async () => ledger?.ready(),
    client,
    runner,
    quota,
    addLicenceKey,
    dispose() {
      client.dispose();
      scheduler.dispose();
      redis?.dispose();
      licenceKeys.dispose();
      quota.dispose();
    },
  };
}

async function redisLedger(options: PlatformOptions, quota: QuotaTracker, local: SharedLedgerFactory): Promise<ReturnType<SharedLedgerFactory>> {
  const { endpoint, fallback, logger } = options.redis!;
  const parts = { quota, limits: APPLICATION_LIMITS, safetyMarginMs: () => options.api.safetyMarginMs, logger };
  return createLedger({ endpoint, fallback, application: options.application, ...parts, local: () => local(parts) });
}
