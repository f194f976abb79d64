import { silentLogger, type Logger } from '../common/logger';
import type { SecretStore } from '../common/secretStore';
import { ApiClient, DEFAULT_API_SETTINGS, type ApiClientOptions, type ApiSettings } from './apiClient';
import { systemClock } from '../common/clock';
import { LicenceKeyStore } from './licenceKeyStore';
import { APPLICATION_LIMITS, type RateLimit } from './limits';
import { QuotaTracker } from './quotaTracker';
import { LocalLedger } from './localLedger';
import type { RateLedger } from './rateLedger';
import { RequestScheduler } from './requestScheduler';
import { requestTimeoutSeconds } from './requestTimeout';
import type { AccessTokenSource } from './types';

export { ApiClient, DEFAULT_API_SETTINGS, TENANT_LIST_PATH, type ApiSettings } from './apiClient';
export { ApiError, apiErrors, isApiError } from './errors';
export { LicenceKeyStore } from './licenceKeyStore';
export { QuotaTracker } from './quotaTracker';
export type * from './types';

/** Reads one setting of the `tenantApi` section (vscode.WorkspaceConfiguration.get has this shape). */
export type SettingReader = <T>(key: string, fallback: T) => T;

function number(value: unknown, fallback: number, min: number, max: number): number {
  const n = typeof value === 'number' && Number.isFinite(value) ? value : fallback;
  return Math.min(max, Math.max(min, n));
}

/** The client's settings from the `tenantApi` section, with out-of-range values brought back in range. */
export function readApiSettings(get: SettingReader): ApiSettings {
  const d = DEFAULT_API_SETTINGS;
  const allowedHosts = get<unknown>('allowedHosts', d.allowedHosts);
  return {
    baseUrl: String(get<unknown>('baseUrl', d.baseUrl) ?? '').trim(),
    allowedHosts: Array.isArray(allowedHosts) ? allowedHosts.filter((h): h is string => typeof h === 'string') : [],
    routes: get<unknown>('routes', d.routes),
    endpoints: get<unknown>('endpoints', d.endpoints),
    requestTimeoutSeconds: requestTimeoutSeconds(get<unknown>('requestTimeoutSeconds', d.requestTimeoutSeconds)),
    safetyMarginMs: number(get<unknown>('rateLimit.safetyMarginMs', d.safetyMarginMs), d.safetyMarginMs, 0, 1000),
    maxQueueLength: Math.floor(number(get<unknown>('rateLimit.maxQueueLength', d.maxQueueLength), d.maxQueueLength, 1, 100_000)),
    maxRetries: Math.floor(number(get<unknown>('maxRetries', d.maxRetries), d.maxRetries, 0, 10)),
  };
}

export interface TenantApiDeps {
  /** context.secrets */
  secrets: SecretStore;
  /** src/auth's AuthenticationApi */
  tokens: AccessTokenSource;
  /** Called at every call; cheap (e.g. a snapshot refreshed on onDidChangeConfiguration). */
  settings: () => ApiSettings;
  logger?: Logger;
  /** Shared across environments: the application's scheduler and the environment's quota readings. */
  scheduler?: ApiClientOptions['scheduler'];
  quota?: ApiClientOptions['quota'];
  beforeSend?: ApiClientOptions['beforeSend'];
  cacheScope?: ApiClientOptions['cacheScope'];
  /** The front end's fetch (the editor's names proxy and certificate problems); default the global one. */
  fetch?: ApiClientOptions['fetch'];
  catalogueRoutes?: ApiClientOptions['catalogueRoutes'];
}

/** Builds the client and its licence key store: the one place the lead needs for src/api. */
export function createTenantApi(deps: TenantApiDeps): { client: ApiClient; licenceKeys: LicenceKeyStore; dispose(): void } {
  const licenceKeys = new LicenceKeyStore(deps.secrets);
  const client = new ApiClient({
    settings: deps.settings,
    tokens: deps.tokens,
    licenceKeys,
    logger: deps.logger,
    scheduler: deps.scheduler,
    quota: deps.quota,
    beforeSend: deps.beforeSend,
    cacheScope: deps.cacheScope,
    fetch: deps.fetch,
    catalogueRoutes: deps.catalogueRoutes,
  });
  return {
    client,
    licenceKeys,
    dispose() {
      client.dispose();
      licenceKeys.dispose();
    },
  };
}

/** An application's scheduler and the window-shared ledger behind it, disposed together. */
export interface ApplicationScheduler {
  /** Its calls and their waits are told (onDidCall) for the usage panel. */
  readonly scheduler: RequestScheduler;
  dispose(): void;
}

/** The parts a rate-limit ledger shared with the other windows (src/coordination) is fed. */
export interface SharedLedgerParts {
  quota: QuotaTracker;
  limits: readonly RateLimit[];
  safetyMarginMs: () => number;
  logger: Logger;
}

/** Makes the ledger of one application, shared with the other windows of the editor. */
export type SharedLedgerFactory = (parts: SharedLedgerParts) => RateLedger;

/**
 * The scheduler of one application (spec 8: the limits are per application), for clients that share
 * it: every environment with the same authUrl and clientId, and, with a shared ledger, every window.
 * Margin and queue length are global settings. `quota` receives the other windows' readings.
 */
export function createApplicationScheduler(
  settings: () => ApiSettings,
  logger: Logger = silentLogger,
  shared?: { ledger: SharedLedgerFactory; quota: QuotaTracker },
): ApplicationScheduler {
  const safetyMarginMs = () => settings().safetyMarginMs;
  const ledger = shared
    ? shared.ledger({ quota: shared.quota, limits: APPLICATION_LIMITS, safetyMarginMs, logger })
    : new LocalLedger({ clock: systemClock, limits: APPLICATION_LIMITS, safetyMarginMs, logger });
  const scheduler = new RequestScheduler({ ledger, maxQueueLength: () => settings().maxQueueLength, clock: systemClock });
  return { scheduler, dispose: () => scheduler.dispose() };
}
