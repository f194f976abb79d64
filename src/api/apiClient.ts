import type { Clock } from '../common/clock';
import { isSignInRequired } from '../common/signInRequired';
import { systemClock } from '../common/clock';
import * as l10n from '../common/l10n';
import type { Logger } from '../common/logger';
import { silentLogger } from '../common/logger';
import type { CountTimeEstimate } from './countTimeEstimate';
import { ApiError, apiErrors } from './errors';
import { checkAddressShape, validateBaseUrl, validateCredentialHost, type HostPolicy } from './hostValidation';
import { HttpTransport, TransportError, type FetchFunction } from './httpTransport';
import type { LicenceKeyStore, StoredLicenceKey } from './licenceKeyStore';
import { APPLICATION_LIMITS, UNIT_MS, scaleLimits, type RateLimit } from './limits';
import { QuotaTracker } from './quotaTracker';
import { HEADER, checkExtraHeaders, maskHeaders, withoutCredentials } from './requestHeaders';
import { RequestScheduler } from './requestScheduler';
import { RouteTable, mergeEndpoints, needsTenant, parseEndpointSetting, parseRouteSetting } from './routes';
import { SERVICE_LIMIT_INFO_HEADER, parseServiceLimitInfo } from './serviceLimitInfo';
import {
  IDEMPOTENT_METHODS,
  type AccessTokenSource,
  type ApiErrorDetails,
  type ApiRequest,
  type ApiResponse,
  type EndpointDefinition,
  type QuotaReading,
  type RateLimitUnit,
  type RouteRule,
  type TenantApi,
  type TenantRecord,
} from './types';

/** The tenantApi.* settings the client reads (at every call, so changes apply at once). */
export interface ApiSettings {
  baseUrl: string;
  allowedHosts: string[];
  /** Raw tenantApi.routes value; bad rules are logged and skipped. */
  routes: unknown;
  /** Raw tenantApi.endpoints value. */
  endpoints: unknown;
  /** Time limit of each attempt (sending to last byte); retries are bounded by maxRetries. */
  requestTimeoutSeconds: number;
  safetyMarginMs: number;
  maxQueueLength: number;
  maxRetries: number;
}

export const DEFAULT_API_SETTINGS: ApiSettings = {
  baseUrl: '',
  allowedHosts: [],
  routes: [],
  endpoints: [],
  requestTimeoutSeconds: 30,
  safetyMarginMs: 5,
  maxQueueLength: 1000,
  maxRetries: 3,
};

export interface ApiClientOptions {
  settings: () => ApiSettings;
  tokens: AccessTokenSource;
  licenceKeys: LicenceKeyStore;
  clock?: Clock;
  logger?: Logger;
  fetch?: FetchFunction;
  /** Default: the spec's 5/s and 300/min. */
  limits?: readonly RateLimit[];
  /** Multiplies every limit window and 429 pause (for a time-scaled sandbox); default 1. */
  timeScale?: number;
  /** First backoff after a transient failure, doubled each retry; default 250 ms. */
  backoffBaseMs?: number;
  random?: () => number;
  /** When a call enters the rate-limit log; default 'fastest-round-trip' (see CountTimeEstimate). */
  countTimeEstimate?: CountTimeEstimate;
  /** Share a scheduler and tracker (default: new ones, disposed with the client; shared ones are not). */
  scheduler?: RequestScheduler;
  quota?: QuotaTracker;
  /**
   * Runs after a call is prepared and before it waits for a slot (a protected environment's
   * confirmation): it refuses the call by throwing an ApiError, and then nothing is sent.
   */
  beforeSend?: (call: { method: string; url: string }) => Promise<void>;
}

export const TENANT_LIST_PATH = '/v10/user-tenants';
const MAX_REDIRECTS = 5;
const TRANSIENT_STATUSES = new Set([500, 502, 503, 504]);
const LONG_WAIT_MS = 30_000;

interface Prepared {
  method: string;
  url: URL;
  route: RouteRule;
  body?: string;
  extra: Record<string, string>;
  warnings: string[];
  licence?: StoredLicenceKey;
  tenant?: TenantRecord;
}

interface ServerError {
  error?: string;
  message?: string;
  module?: string;
  limit?: string;
  retryAfterMs?: number;
}

/**
 * The one client every call to the platform goes through: headers, host checks, throttling,
 * retries, quota.
 */
export class ApiClient implements TenantApi {
  readonly scheduler: RequestScheduler;
  readonly quota: QuotaTracker;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly transport: HttpTransport;
  private readonly timeScale: number;
  private readonly random: () => number;
  private tables: { routeSetting: unknown; endpointSetting: unknown; routes: RouteTable; endpoints: EndpointDefinition[] } | undefined;

  constructor(private readonly options: ApiClientOptions) {
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? silentLogger;
    this.timeScale = options.timeScale ?? 1;
    this.random = options.random ?? Math.random;
    this.transport = new HttpTransport(this.clock, options.fetch);
    this.quota = options.quota ?? new QuotaTracker();
    this.scheduler =
      options.scheduler ??
      new RequestScheduler({
        clock: this.clock,
        limits: scaleLimits(options.limits ?? APPLICATION_LIMITS, this.timeScale),
        safetyMarginMs: () => this.settings().safetyMarginMs,
        maxQueueLength: () => this.settings().maxQueueLength,
        countTimeEstimate: () => options.countTimeEstimate ?? 'fastest-round-trip',
        logger: this.logger,
      });
  }

  get queue(): RequestScheduler {
    return this.scheduler;
  }

  settings(): ApiSettings {
    return { ...DEFAULT_API_SETTINGS, ...this.options.settings() };
  }

  routeTable(): RouteTable {
    return this.currentTables().routes;
  }

  routeFor(path: string): RouteRule | undefined {
    return this.routeTable().match(path);
  }

  endpoints(): EndpointDefinition[] {
    return this.currentTables().endpoints;
  }

  /** Licence modules of the route table in force. */
  modules(): string[] {
    return this.routeTable().modules();
  }

  /** Loads ky ahead of the first call (optional). */
  warmUp(): Promise<void> {
    return this.transport.ready();
  }

  async listTenants(options: { signal?: AbortSignal } = {}): Promise<TenantRecord[]> {
    const response = await this.send({ method: 'GET', path: TENANT_LIST_PATH, signal: options.signal });
    if (!Array.isArray(response.json)) {
      throw new ApiError('http', l10n.t('The tenant list from the server is not a JSON array.'), {
        method: 'GET',
        url: response.url,
        status: response.status,
        bodyText: response.bodyText.slice(0, 2000),
        response,
      });
    }
    const policy = this.hostPolicy();
    const tenants: TenantRecord[] = [];
    for (const raw of response.json as unknown[]) {
      const record = raw as Partial<Record<keyof TenantRecord, unknown>> | null;
      if (typeof record !== 'object' || record === null || typeof record.id !== 'string' || !record.id) {
        this.logger.warn('Tenant list: skipped an entry without an id');
        continue;
      }
      const clusterAddress = typeof record.clusterAddress === 'string' ? record.clusterAddress : '';
      const verdict = clusterAddress
        ? validateCredentialHost(clusterAddress, policy)
        : { ok: false as const, reason: l10n.t('The tenant has no cluster address.') };
      const tenant: TenantRecord = {
        id: record.id,
        codiceAmbienteDati: typeof record.codiceAmbienteDati === 'string' ? record.codiceAmbienteDati : '',
        descrizioneAmbienteDati: typeof record.descrizioneAmbienteDati === 'string' ? record.descrizioneAmbienteDati : record.id,
        clusterAddress,
        usable: verdict.ok,
        ...(verdict.ok ? {} : { unusableReason: verdict.reason }),
      };
      if (!verdict.ok) this.logger.warn(`Tenant ${tenant.id} marked unusable: ${verdict.reason}`);
      tenants.push(tenant);
    }
    return tenants;
  }

  async send(request: ApiRequest): Promise<ApiResponse> {
    try {
      const prepared = await this.prepare(request);
      await this.options.beforeSend?.({ method: prepared.method, url: prepared.url.href });
      return await this.execute(prepared, request);
    } catch (error) {
      const apiError = error instanceof ApiError ? error : apiErrors.network(String(error), { cause: error });
      this.logger.warn(apiError.describe());
      throw apiError;
    }
  }

  dispose(): void {
    if (!this.options.scheduler) this.scheduler.dispose();
    if (!this.options.quota) this.quota.dispose();
  }

  private currentTables(): { routeSetting: unknown; endpointSetting: unknown; routes: RouteTable; endpoints: EndpointDefinition[] } {
    // The settings are a snapshot replaced when the configuration changes: the same values, the same tables.
    const { routes, endpoints } = this.options.settings();
    const current = this.tables;
    if (current && current.routeSetting === routes && current.endpointSetting === endpoints) return current;
    this.tables = {
      routeSetting: routes,
      endpointSetting: endpoints,
      routes: new RouteTable(parseRouteSetting(routes, this.logger)),
      endpoints: mergeEndpoints(parseEndpointSetting(endpoints, this.logger)),
    };
    return this.tables;
  }

  private hostPolicy(): HostPolicy {
    const settings = this.settings();
    return { baseUrl: settings.baseUrl, allowedHosts: settings.allowedHosts ?? [] };
  }

  /** Everything that can be decided before the call waits for a slot. */
  private async prepare(request: ApiRequest): Promise<Prepared> {
    const method = String(request.method ?? '').toUpperCase();
    if (!/^[A-Z]{1,16}$/.test(method)) throw apiErrors.invalidRequest(l10n.t('"{0}" is not an HTTP method.', String(request.method).slice(0, 20)));
    const path = String(request.path ?? '');
    if (!path.startsWith('/') || path.startsWith('//') || /[\s#\\]/.test(path) || /[\u0000-\u001f]/.test(path)) {
      throw apiErrors.invalidRequest(l10n.t('The path must start with a single "/" and contain no spaces: {0}', path.slice(0, 200)), { method });
    }
    const route = this.routeFor(path);
    if (!route) {
      throw apiErrors.invalidRequest(
        l10n.t('No route is known for {0}. Add a rule to the setting tenantApi.routes.', path.slice(0, 200)),
        { method },
      );
    }

    const policy = this.hostPolicy();
    let origin: URL;
    let tenant: TenantRecord | undefined;
    if (needsTenant(route)) {
      tenant = request.tenant;
      if (!tenant) throw apiErrors.tenantRequired(path, { method });
      if (!tenant.usable) throw apiErrors.tenantUnusable(tenant.descrizioneAmbienteDati || tenant.id, tenant.unusableReason ?? '', { method });
    }
    if (route.host === 'cluster') {
      const verdict = validateCredentialHost(tenant!.clusterAddress, policy);
      if (!verdict.ok) throw apiErrors.hostNotAllowed(verdict.reason, { method, host: tenant!.clusterAddress });
      origin = verdict.url;
    } else {
      const verdict = validateBaseUrl(policy.baseUrl);
      if (!verdict.ok) throw apiErrors.hostNotAllowed(verdict.reason, { method, host: policy.baseUrl });
      origin = verdict.url;
    }

    const url = joinUrl(origin, path);
    if (url.origin !== origin.origin) throw apiErrors.invalidRequest(l10n.t('The path must stay on the API host: {0}', path.slice(0, 200)));
    appendQuery(url, request.query);

    let body: string | undefined;
    if (request.body !== undefined && request.body !== null) {
      if (method === 'GET' || method === 'HEAD') {
        throw apiErrors.invalidRequest(l10n.t('A {0} request cannot have a body.', method), { method, url: url.href });
      }
      try {
        body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
      } catch (error) {
        throw apiErrors.invalidRequest(l10n.t('The body cannot be written as JSON: {0}', String(error)), { method, url: url.href });
      }
    }

    let extra: ReturnType<typeof checkExtraHeaders>;
    try {
      extra = checkExtraHeaders(request.headers);
    } catch (error) {
      throw apiErrors.invalidRequest((error as Error).message, { method, url: url.href });
    }
    for (const warning of extra.warnings) this.logger.warn(warning);

    let licence: StoredLicenceKey | undefined;
    if (route.module) {
      try {
        licence = await this.options.licenceKeys.get(route.module);
      } catch (error) {
        throw new ApiError(
          'licenceMissing',
          l10n.t('The licence key of the module "{0}" could not be read from the secret storage. Try again.', route.module),
          { module: route.module, method, url: url.href, cause: error },
        );
      }
      if (!licence) throw apiErrors.licenceMissing(route.module, { method, url: url.href });
      const refusal = this.quota.refusal(licence.organization);
      if (refusal && !request.sendOverQuota) {
        const details = { method, url: url.href, usage: refusal.reading };
        throw refusal.reason === 'stopped'
          ? apiErrors.organizationStopped(licence.organization, details)
          : apiErrors.quotaReached(licence.organization, refusal.reading!.used, refusal.reading!.limit, details);
      }
    }

    return { method, url, route, body, extra: extra.headers, warnings: extra.warnings, licence, tenant };
  }

  private async token(forceRefresh: boolean, details: ApiErrorDetails): Promise<string> {
    try {
      return await this.options.tokens.getAccessToken(forceRefresh ? { forceRefresh: true } : undefined);
    } catch (error) {
      if (isSignInRequired(error)) {
        throw forceRefresh ? apiErrors.unauthorizedAfterRefresh({ ...details, cause: error }) : apiErrors.signInRequired({ ...details, cause: error });
      }
      throw new ApiError('auth', l10n.t('Your sign-in could not be refreshed: {0}', (error as Error)?.message ?? String(error)), {
        ...details,
        cause: error,
      });
    }
  }

  private headersFor(prepared: Prepared, token: string): Record<string, string> {
    const headers: Record<string, string> = {
      ...prepared.extra,
      [HEADER.accept]: 'application/json',
      [HEADER.contentType]: 'application/json',
      [HEADER.authorization]: `Bearer ${token}`,
    };
    if (prepared.licence) headers[HEADER.licenceKey] = prepared.licence.key;
    if (prepared.route.tenantScoped && prepared.tenant) headers[HEADER.tenant] = prepared.tenant.id;
    return headers;
  }

  private async execute(prepared: Prepared, request: ApiRequest): Promise<ApiResponse> {
    const settings = this.settings();
    const timeoutMs = Math.max(0.05, Number(settings.requestTimeoutSeconds) || 30) * 1000;
    const maxRetries = Math.max(0, Math.floor(settings.maxRetries));
    const idempotent = IDEMPOTENT_METHODS.has(prepared.method);
    const organization = prepared.licence?.organization;

    let method = prepared.method;
    let body = prepared.body;
    let url = prepared.url;
    let withCredentials = true;
    let attempts = 0;
    let retries = 0;
    let redirects = 0;
    let refreshed = false;
    let firstSendAt: number | undefined;
    const details = (): ApiErrorDetails => ({ method, url: url.href, attempts, module: prepared.route.module, organization });

    let token = await this.token(false, details());
    let tokenAt = this.clock.monotonic();

    for (;;) {
      const slot = await this.scheduler.acquire({
        signal: request.signal,
        onPosition: request.onQueuePosition,
        front: attempts > 0,
      });
      if (this.clock.monotonic() - tokenAt > LONG_WAIT_MS) {
        try {
          token = await this.token(false, details());
          tokenAt = this.clock.monotonic();
        } catch (error) {
          slot.release();
          throw error;
        }
      }
      if (request.signal?.aborted) {
        slot.release();
        throw apiErrors.cancelled(details());
      }
      let headers = this.headersFor(prepared, token);
      if (!withCredentials) headers = withoutCredentials(headers);

      attempts++;
      slot.markSent(url.origin);
      firstSendAt ??= this.clock.monotonic();
      let exchange;
      try {
        exchange = await this.transport.exchange(url, {
          method,
          headers,
          body,
          timeoutMs,
          signal: request.signal,
          onHeaders: () => slot.markAnswered(),
        });
      } catch (error) {
        slot.markFailed();
        const failure = error as TransportError;
        if (failure.reason === 'cancelled') throw apiErrors.cancelled(details());
        if (idempotent && retries < maxRetries && (await this.backoff(++retries, request.signal, details))) continue;
        const failureDetails = { ...details(), cause: error };
        if (failure.reason === 'timeout') {
          throw idempotent
            ? apiErrors.timeout(timeoutMs / 1000, failureDetails)
            : apiErrors.timeoutNotRetried(timeoutMs / 1000, method, failureDetails);
        }
        throw apiErrors.network(
          idempotent
            ? failure.message
            : l10n.t('{0}. A {1} request is not sent again automatically: check whether it took effect.', failure.message, method),
          failureDetails,
        );
      }

      const response = this.toResponse(prepared, { method, url, headers, attempts, firstSendAt }, exchange);
      // A host that got no credentials (after a redirect) does not speak for the organization's quota.
      if (response.usage && organization && withCredentials) this.quota.record(response.usage);
      this.logger.info(`${method} ${url.href} -> ${response.status} in ${Math.round(response.timeMs)} ms (attempt ${attempts})`);

      const status = response.status;
      if (status >= 200 && status < 300) return response;

      const location = response.headers['location'];
      if (status >= 300 && status < 400 && location) {
        const next = this.redirectTarget(url, location, ++redirects, details());
        if (next.origin !== url.origin) withCredentials = false;
        if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        url = next;
        continue;
      }
      if (status >= 300 && status < 400) return response;

      const server = serverError(response);
      const errorDetails: ApiErrorDetails = {
        ...details(),
        status,
        serverError: server.error,
        serverMessage: server.message,
        bodyText: response.bodyText.slice(0, 4000),
        usage: response.usage,
        response,
      };

      // After a redirect to a host that got no credentials, its licence, tenant and limit errors are not ours.
      const foreign = !withCredentials;
      if (foreign && status === 401) throw apiErrors.redirectNotFollowed(l10n.t('the new host asked for credentials, which are not sent to it.'), errorDetails);
      if (TRANSIENT_STATUSES.has(status)) {
        if (idempotent && retries < maxRetries && (await this.backoff(++retries, request.signal, details))) continue;
        throw apiErrors.http(status, response.statusText, server.message, errorDetails);
      }
      if (foreign) throw apiErrors.http(status, response.statusText, server.message, errorDetails);
      if (status === 401) {
        if (server.error === 'missing_licence_key') throw apiErrors.licenceMissing(prepared.route.module ?? '', errorDetails);
        if (refreshed) throw apiErrors.unauthorizedAfterRefresh(errorDetails);
        refreshed = true;
        token = await this.token(true, errorDetails);
        tokenAt = this.clock.monotonic();
        continue; // a 401 was not processed: safe for every method
      }
      if (server.error === 'licence_module_mismatch') throw apiErrors.licenceWrongModule(server.module ?? prepared.route.module ?? '', errorDetails);
      if (server.error === 'unknown_licence_key') throw apiErrors.licenceUnknown(prepared.route.module, errorDetails);
      if (server.error === 'missing_tenant' || server.error === 'unknown_tenant' || server.error === 'wrong_cluster') {
        throw apiErrors.tenantRefused(server.message ?? server.error, errorDetails);
      }
      if (status === 429) {
        const unit = rateLimitUnit(server, response.usage);
        if (unit === 'week') {
          if (organization) this.quota.stop(organization);
          throw apiErrors.weeklyQuota(organization ?? l10n.t('(unknown)'), errorDetails);
        }
        const pauseMs = pauseAfter429(unit, server, response.headers['retry-after'], this.timeScale) + Math.max(0, settings.safetyMarginMs);
        this.scheduler.pause(pauseMs);
        if (idempotent && retries < maxRetries) {
          retries++;
          continue;
        }
        throw idempotent ? apiErrors.rateLimit(unit, errorDetails) : apiErrors.notRetriedAfterRateLimit(unit, errorDetails);
      }
      throw apiErrors.http(status, response.statusText, server.message, errorDetails);
    }
  }

  /** Waits before a retry; false when the wait was cancelled (the caller then throws). */
  private backoff(retry: number, signal: AbortSignal | undefined, details: () => ApiErrorDetails): Promise<boolean> {
    const base = this.options.backoffBaseMs ?? 250;
    const delay = Math.min(base * 2 ** (retry - 1), 8000) * (0.5 + this.random() / 2);
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(apiErrors.cancelled(details()));
      const onAbort = () => {
        this.clock.clearTimeout(timer);
        reject(apiErrors.cancelled(details()));
      };
      const timer = this.clock.setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve(true);
      }, delay);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private redirectTarget(from: URL, location: string, count: number, details: ApiErrorDetails): URL {
    if (count > MAX_REDIRECTS) throw apiErrors.redirectNotFollowed(l10n.t('more than {0} redirects.', MAX_REDIRECTS), details);
    let next: URL;
    try {
      next = new URL(location, from);
    } catch {
      throw apiErrors.redirectNotFollowed(l10n.t('the new address is not valid.'), details);
    }
    const shape = checkAddressShape(next.href);
    if (!shape.ok) throw apiErrors.redirectNotFollowed(shape.reason, { ...details, host: next.host });
    if (next.origin !== from.origin) this.logger.warn(`Redirect from ${from.origin} to ${next.origin}: credentials dropped`);
    return next;
  }

  private toResponse(
    prepared: Prepared,
    sent: { method: string; url: URL; headers: Record<string, string>; attempts: number; firstSendAt: number },
    exchange: { response: Response; body: Uint8Array },
  ): ApiResponse {
    const { response, body } = exchange;
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    const bodyText = new TextDecoder().decode(body);
    const usageValue = response.headers.get(SERVICE_LIMIT_INFO_HEADER);
    const parsed = parseServiceLimitInfo(usageValue, this.logger);
    const usage: QuotaReading | undefined = parsed
      ? {
          organization: prepared.licence?.organization ?? '',
          ...(prepared.licence ? { keyLabel: prepared.licence.label, module: prepared.licence.module } : {}),
          used: parsed.used,
          limit: parsed.limit,
          seenAt: this.clock.now(),
        }
      : undefined;
    return {
      method: sent.method,
      url: sent.url.href,
      status: response.status,
      statusText: response.statusText,
      headers,
      bodyText,
      json: parseJson(bodyText, headers['content-type']),
      timeMs: this.clock.monotonic() - sent.firstSendAt,
      sizeBytes: body.byteLength,
      usage,
      requestHeaders: maskHeaders(sent.headers, prepared.licence?.label),
      attempts: sent.attempts,
      warnings: [...prepared.warnings],
    };
  }
}

function joinUrl(origin: URL, path: string): URL {
  const basePath = origin.pathname.replace(/\/+$/, '');
  const url = new URL(origin.href);
  const [pathname, query] = splitOnce(path, '?');
  url.pathname = `${basePath}${pathname}`;
  url.search = query === undefined ? '' : `?${query}`;
  url.hash = '';
  return url;
}

function splitOnce(value: string, separator: string): [string, string | undefined] {
  const index = value.indexOf(separator);
  return index < 0 ? [value, undefined] : [value.slice(0, index), value.slice(index + 1)];
}

function appendQuery(url: URL, query: ApiRequest['query']): void {
  if (!query) return;
  const entries = query instanceof URLSearchParams ? [...query.entries()] : Object.entries(query);
  for (const [name, value] of entries) {
    if (value !== undefined) url.searchParams.append(name, String(value));
  }
}

function parseJson(text: string, contentType: string | undefined): unknown {
  const trimmed = text.trimStart();
  const looksJson = /json/i.test(contentType ?? '') || trimmed.startsWith('{') || trimmed.startsWith('[');
  if (!looksJson || !trimmed) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function serverError(response: ApiResponse): ServerError {
  const json = response.json as ServerError | undefined;
  if (!json || typeof json !== 'object' || Array.isArray(json)) return {};
  const pick = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const retryAfterMs = (json as { retryAfterMs?: unknown }).retryAfterMs;
  return {
    error: pick(json.error),
    message: pick(json.message),
    module: pick(json.module),
    limit: pick(json.limit),
    retryAfterMs: typeof retryAfterMs === 'number' && Number.isFinite(retryAfterMs) && retryAfterMs >= 0 ? retryAfterMs : undefined,
  };
}

/**
 * How long the queue waits after a 429 for `unit`: the whole unit (the block lasts until the unit
 * has elapsed from the window's first request, which we may not have sent), or less when the server
 * says when the block ends (body retryAfterMs, or the Retry-After header).
 */
export function pauseAfter429(unit: RateLimitUnit, server: ServerError, retryAfterHeader: string | undefined, timeScale = 1): number {
  const unitMs = UNIT_MS[unit] * timeScale;
  const headerSeconds = retryAfterHeader !== undefined && /^\s*\d+\s*$/.test(retryAfterHeader) ? Number(retryAfterHeader) * 1000 : undefined;
  const hint = server.retryAfterMs ?? headerSeconds;
  return hint === undefined ? unitMs : Math.min(unitMs, hint);
}

/** The unit the 429 names; when it cannot be told, the weekly limit if the usage shows it, else the minute. */
export function rateLimitUnit(server: ServerError, usage: QuotaReading | undefined): RateLimitUnit {
  const named = server.limit?.toLowerCase();
  if (named === 'second' || named === 'minute' || named === 'week') return named;
  if (usage && usage.used >= usage.limit) return 'week';
  return 'minute';
}
