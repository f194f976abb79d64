/**
 * The editor's client, built for the runner: the same route table, headers, host validation,
 * retries and quota reading (src/api), the application's rate-limit ledger shared with the editor
 * windows and other runners on this machine (src/coordination; its own log where it cannot share),
 * the tenant resolver, and the engine's request-file runner over them.
 */
import { createApplicationScheduler, LicenceKeyStore, type SharedLedgerFactory } from '../api';
import { ApiClient, type ApiSettings } from '../api/apiClient';
import type { FetchFunction } from '../api/httpTransport';
import { QuotaTracker } from '../api/quotaTracker';
import { TenantResolver } from '../api/tenantResolver';
import type { TenantRecord } from '../api/types';
import type { Logger } from '../common/logger';
import type { AccessTokenSource } from '../common/sessions';
import { windowCoordination, type ApplicationLedger } from '../coordination';
import { createLedger, type LedgerFallback } from '../coordination/redis/createLedger';
import type { LedgerEndpoint } from '../coordination/redis/ledgerUrl';
import { APPLICATION_LIMITS } from '../api/limits';
import { requestTimeoutMs } from '../api/requestTimeout';
import { RequestFileRunner } from '../engine/runner';
import type { FileEnvironment } from '../settings/environmentFileSources';
import { defaultSystemContext } from '../engine/systemVariables';
import * as l10n from '../common/l10n';
import { declaredOrganization, defaultOrganization, licenceVariables, runnerLicenceWording } from './licenceVariables';
import { MemorySecretStore } from './memorySecrets';
import * as fs from 'node:fs';
import { CatalogueSet } from '../catalog/catalogues';
import { catalogueContracts } from '../catalog/contract';
import { catalogueLibrary } from '../catalog/lazyLibrary';
import { inThreadReader } from '../catalog/readers';
import { readSource } from '../catalog/sources';
import type { CatalogueEntry } from '../catalog/types';

export interface PlatformOptions {
  api: ApiSettings;
  /** The application the calls count against (spec 8): its ledger is the one shared. */
  application: { authUrl: string; clientId: string };
  tokens: AccessTokenSource;
  licenceKeys: ReadonlyMap<string, string>;
  /** TENANT_API_TENANTS_<ORG>: the tenants of each organization whose keys are set. */
  organizationTenants?: ReadonlyMap<string, string[]>;
  /** The tenant of requests that name none (--tenant): a code, description or id. */
  tenant?: string;
  variables: Record<string, string>;
  /** The environment files' variables for a request file (its key is its path). */
  fileEnvironment?: (key: string) => FileEnvironment;
  logger: Logger;
  fetch: FetchFunction;
  /** The ledger in Redis shared with runners on other machines; without it, this machine's ledger. */
  redis?: { endpoint: LedgerEndpoint; fallback: LedgerFallback; logger: Logger };
  /** The workspace's catalogues: their routes join the table, `?? schema` checks against them. */
  catalogues?: { entries: readonly CatalogueEntry[]; folder: string };
}

export interface Platform {
  /** Resolves once the ledger is shared with the editor windows and other runners (their quota readings in), or this process goes alone. */
  ready(): Promise<unknown>;
  client: ApiClient;
  runner: RequestFileRunner;
  quota: QuotaTracker;
  tenants: TenantResolver;
  licenceKeys: LicenceKeyStore;
  catalogues: CatalogueSet;
  dispose(): void;
}

export async function createPlatform(options: PlatformOptions): Promise<Platform> {
  const secrets = new MemorySecretStore();
  const organizationTenants = options.organizationTenants ?? new Map<string, string[]>();
  const licenceKeys = new LicenceKeyStore(secrets, runnerLicenceWording(organizationTenants), (tenant) => declaredOrganization(organizationTenants, tenant));
  const quota = new QuotaTracker();
  const settings = () => options.api;
  const windows = windowCoordination(options.logger);
  const shared = windows.sharedLedger(() => options.application);
  let ledger: ApplicationLedger | undefined;
  const local: SharedLedgerFactory = (parts) => (ledger = shared(parts));
  // Redis is reached (or refused with a LedgerError) before anything is sent.
  const redis = options.redis && (await redisLedger(options, quota, local));
  const scheduler = createApplicationScheduler(settings, options.logger, { ledger: redis ? () => redis : local, quota });
  const catalogues = cliCatalogues(options);
  const client = new ApiClient({ settings, tokens: options.tokens, licenceKeys, logger: options.logger, scheduler: scheduler.scheduler, quota, fetch: options.fetch, catalogueRoutes: () => catalogues.routes() });
  const { keys, problems } = licenceVariables({ licenceKeys: options.licenceKeys, organizationTenants }, client.modules());
  for (const problem of problems) options.logger.error(problem);
  // No answer names a key's organization: an organization's keys are named after it, a default key's after its variable.
  for (const { module, organization, variable, key } of keys) {
    const tenants = organization === undefined ? undefined : organizationTenants.get(organization);
    await licenceKeys.put(module, { key, label: variable, organization: organization ?? defaultOrganization(variable), ...(tenants ? { tenants } : {}) });
  }
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
    sender: { api: client, tenants, baseUrl: () => options.api.baseUrl, fetch: options.fetch, timeoutMs: () => requestTimeoutMs(options.api) },
    environment: () => options.variables,
    fileEnvironment: options.fileEnvironment,
    system: (lookup, dotenv) => defaultSystemContext(lookup, dotenv),
    contracts: catalogueContracts(catalogues),
  });
  return {
    ready: async () => ledger?.ready(),
    client,
    runner,
    quota,
    tenants,
    licenceKeys,
    catalogues,
    dispose() {
      catalogues.dispose();
      client.dispose();
      scheduler.dispose();
      redis?.dispose();
      licenceKeys.dispose();
      quota.dispose();
    },
  };
}

/** The catalogues of the settings, read from the workspace folder or their address (without credentials). */
function cliCatalogues(options: PlatformOptions): CatalogueSet {
  const catalogues = new CatalogueSet({
    read: (entry) =>
      readSource(entry, {
        folder: options.catalogues?.folder,
        readFile: (file) => fs.promises.readFile(file),
        fileSize: async (file) => (await fs.promises.stat(file)).size,
        fetch: (input, init) => options.fetch(input as never, init),
      }),
    // In this thread: the runner reads its catalogues before anything else runs.
    reader: inThreadReader(catalogueLibrary),
    logger: options.logger,
  });
  catalogues.setEntries(options.catalogues?.entries ?? []);
  return catalogues;
}

async function redisLedger(options: PlatformOptions, quota: QuotaTracker, local: SharedLedgerFactory): Promise<ReturnType<SharedLedgerFactory>> {
  const { endpoint, fallback, logger } = options.redis!;
  const parts = { quota, limits: APPLICATION_LIMITS, safetyMarginMs: () => options.api.safetyMarginMs, logger };
  return createLedger({ endpoint, fallback, application: options.application, ...parts, local: () => local(parts) });
}
