import type { Clock } from '../common/clock';
import { systemClock } from '../common/clock';
import { Emitter, type Event } from '../common/event';
import * as l10n from '../common/l10n';
import type { Logger } from '../common/logger';
import { silentLogger } from '../common/logger';
import { backoff } from './backoff';
import { CallProgress } from './callProgress';
import { CallToken, SharedAccessToken } from './callToken';
import { ApiError, apiErrors } from './errors';
import type { HostPolicy } from './hostValidation';
import { HttpTransport, TransportError, type FetchFunction } from './httpTransport';
import type { LicenceKeyStore } from './licenceKeyStore';
import { APPLICATION_LIMITS, scaleLimits, type RateLimit } from './limits';
import { giveUpError } from './outcomeErrors';
import { QuotaTracker } from './quotaTracker';
import { nextHop } from './redirects';
import { localScheduler, type RequestScheduler } from './requestScheduler';
import { prepareRequest, type PreparedRequest } from './requestPreparation';
import { buildResponse } from './responseBuilder';
import { requestTimeoutMs, REQUEST_TIMEOUT_SECONDS } from './requestTimeout';
import { retryPolicy, type ExchangeOutcome, type RetryDecision } from './retryPolicy';
import { cacheKey, cacheLifetimeMs, ResponseCache } from './responseCache';
import { RouteTable, mergeEndpoints, parseEndpointSetting, parseRouteSetting } from './routes';
import { scheduledExchange, type ScheduledExchange } from './scheduledExchange';
import { serverError } from './serverError';
import { parseTenantList } from './tenantList';
import type { AccessTokenSource, ApiErrorDetails, ApiRequest, ApiResponse, CountedCall, EndpointDefinition, QuotaReading, RouteRule, TenantApi, TenantRecord } from './types';

export { pauseAfter429, rateLimitUnit } from './retryPolicy';

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
  requestTimeoutSeconds: REQUEST_TIMEOUT_SECONDS.fallback,
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
  /** Share a scheduler and tracker (default: new ones, disposed with the client; shared ones are not). */
  scheduler?: RequestScheduler;
  quota?: QuotaTracker;
  /**
   * Runs after a call is prepared and before it waits for a slot (a protected environment's
   * confirmation): it refuses the call by throwing an ApiError, and then nothing is sent.
   */
  beforeSend?: (call: { method: string; url: string }) => Promise<void>;
  /** Whose cache this client's static answers go to (the environment's id); default 'default'. */
  cacheScope?: () => string;
  /** The routes the loaded catalogues imply (after the user's, before the built-in ones); the same array until they change. */
  catalogueRoutes?: () => readonly RouteRule[];
}

export const TENANT_LIST_PATH = '/v10/user-tenants';

interface Tables {
  routeSetting: unknown;
  endpointSetting: unknown;
  catalogued: readonly RouteRule[];
  routes: RouteTable;
  endpoints: EndpointDefinition[];
}

/** What one attempt came to: an answer (with its response) or a failed exchange. */
interface Attempt {
  outcome: ExchangeOutcome;
  response?: ApiResponse;
  failure?: TransportError;
}

/**
 * The one client every call to the platform goes through: headers, host checks, throttling,
 * retries, quota. The steps have a file each: prepare (requestPreparation), the exchange in a
 * rate-limit slot (scheduledExchange), the answer (responseBuilder), what next (retryPolicy),
 * redirects (redirects), the error of a call that gives up (outcomeErrors).
 */
export class ApiClient implements TenantApi {
  readonly scheduler: RequestScheduler;
  readonly quota: QuotaTracker;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly transport: HttpTransport;
  private readonly exchange: ScheduledExchange;
  private readonly accessToken: SharedAccessToken;
  private readonly timeScale: number;
  private readonly random: () => number;
  /** Static resources' answers (route rules with cacheSeconds), this client's only: emptied by clearCache. */
  private readonly cache = new ResponseCache();
  private tables: Tables | undefined;
  private readonly counted = new Emitter<CountedCall>();
  /**
   * Every answer that reported its organization's usage, an error's and a kept answer's included (the
   * tenant directory learns from it which organization each tenant's calls are counted against).
   */
  readonly onDidCount: Event<CountedCall> = this.counted.event;

  constructor(private readonly options: ApiClientOptions) {
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? silentLogger;
    this.timeScale = options.timeScale ?? 1;
    this.random = options.random ?? Math.random;
    this.transport = new HttpTransport(this.clock, options.fetch);
    this.quota = options.quota ?? new QuotaTracker();
    this.scheduler =
      options.scheduler ??
      localScheduler({
        clock: this.clock,
        limits: scaleLimits(options.limits ?? APPLICATION_LIMITS, this.timeScale),
        safetyMarginMs: () => this.settings().safetyMarginMs,
        maxQueueLength: () => this.settings().maxQueueLength,
        logger: this.logger,
      });
    this.exchange = scheduledExchange(this.scheduler, this.transport, this.clock);
    this.accessToken = new SharedAccessToken(options.tokens);
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
    return parseTenantList(response.json as unknown[], this.hostPolicy(), this.logger);
  }

  async send(request: ApiRequest): Promise<ApiResponse> {
    try {
      const prepared = await prepareRequest(request, {
        routeFor: (path) => this.routeFor(path),
        modules: () => this.modules(),
        hostPolicy: this.hostPolicy(),
        licenceKeys: this.options.licenceKeys,
        quota: this.quota,
        logger: this.logger,
      });
      const kept = this.staticAnswer(prepared, request);
      if (kept.cached) return this.count(request, kept.cached.usage, kept.cached);
      await this.options.beforeSend?.({ method: prepared.method, url: prepared.url.href });
      const response = await this.execute(prepared, request);
      if (kept.key) this.cache.put(kept.key, response, kept.lifetimeMs, this.clock.now());
      return this.count(request, response.usage, response);
    } catch (error) {
      const apiError = error instanceof ApiError ? error : apiErrors.network(String(error), { cause: error });
      this.logger.warn(apiError.describe());
      throw this.count(request, apiError.details.usage, apiError);
    }
  }

  /** Tells onDidCount's listeners of a usage the call reported; hands `outcome` on. */
  private count<T>(request: ApiRequest, usage: QuotaReading | undefined, outcome: T): T {
    if (usage) this.counted.fire({ request, usage });
    return outcome;
  }

  /** Forgets every kept static answer (sign-out, environment switch). */
  clearCache(): void {
    this.cache.clear();
  }

  /**
   * A static resource's kept answer, served without a call (labelled with when it came), or the key
   * and lifetime to keep the new one under. Only a plain GET: no extra headers, no body.
   */
  private staticAnswer(prepared: PreparedRequest, request: ApiRequest): { cached?: ApiResponse; key?: string; lifetimeMs: number } {
    const lifetimeMs = cacheLifetimeMs(prepared.route);
    if (lifetimeMs === undefined || prepared.body !== undefined || Object.keys(prepared.extra).length > 0) return { lifetimeMs: 0 };
    const key = cacheKey({
      environment: this.options.cacheScope?.() ?? 'default',
      tenantId: prepared.tenant?.id,
      organization: prepared.licence?.organization,
      method: prepared.method,
      pathAndQuery: prepared.url.pathname + prepared.url.search,
    });
    if (key === undefined) return { lifetimeMs: 0 };
    const kept = request.bypassCache ? undefined : this.cache.get(key, this.clock.now());
    if (!kept) return { key, lifetimeMs };
    this.logger.info(`${prepared.method} ${prepared.url.href} -> ${kept.response.status} from the cache of static resources (nothing sent)`);
    return { cached: { ...kept.response, cachedAt: kept.storedAt, warnings: [...kept.response.warnings] }, lifetimeMs };
  }

  dispose(): void {
    this.counted.dispose();
    if (!this.options.scheduler) this.scheduler.dispose();
    if (!this.options.quota) this.quota.dispose();
  }

  private currentTables(): Tables {
    // The settings are a snapshot replaced when the configuration changes: the same values, the same tables.
    const { routes, endpoints } = this.options.settings();
    const catalogued = this.options.catalogueRoutes?.() ?? [];
    const current = this.tables;
    if (current && current.routeSetting === routes && current.endpointSetting === endpoints && current.catalogued === catalogued) return current;
    this.tables = {
      routeSetting: routes,
      endpointSetting: endpoints,
      catalogued,
      routes: new RouteTable(parseRouteSetting(routes, this.logger), undefined, catalogued),
      endpoints: mergeEndpoints(parseEndpointSetting(endpoints, this.logger)),
    };
    return this.tables;
  }

  private hostPolicy(): HostPolicy {
    const settings = this.settings();
    return { baseUrl: settings.baseUrl, allowedHosts: settings.allowedHosts ?? [] };
  }

  /** Attempts until the retry policy returns the response or gives up. */
  private async execute(prepared: PreparedRequest, request: ApiRequest): Promise<ApiResponse> {
    const settings = this.settings();
    const timeoutMs = requestTimeoutMs(settings);
    const maxRetries = Math.max(0, Math.floor(settings.maxRetries));
    const organization = prepared.licence?.organization;
    const call = new CallProgress(prepared);
    const token = new CallToken(this.accessToken, this.clock);

    for (;;) {
      const { outcome, response, failure } = await this.attempt(call, token, request, timeoutMs);
      const state = call.attemptState(maxRetries, this.timeScale, settings.safetyMarginMs);
      const decision = retryPolicy(outcome, state, call.hop.method);
      if (decision.action === 'return') return response!;
      if (decision.action === 'follow') {
        const details = call.answerDetails(response!, serverError(response!));
        call.hop = nextHop(call.hop, response!.status, response!.headers['location'], ++call.redirects, details, this.logger);
        continue;
      }
      const server = response ? serverError(response) : {};
      const details = response ? call.answerDetails(response, server) : { ...call.details(), cause: failure };
      if ('guessed' in decision && decision.guessed) this.logGuessed429(call, decision.unit!);
      if (decision.action === 'retry') {
        await this.beforeRetry(decision, call, token, request.signal, details);
        continue;
      }
      if (decision.pauseMs !== undefined) this.scheduler.pause(decision.pauseMs);
      if (decision.stopOrganization && organization) this.quota.stop(organization);
      const { method } = call.hop;
      throw giveUpError(decision.reason, {
        details,
        method,
        timeoutMs,
        failureMessage: failure?.message,
        response,
        server,
        module: prepared.route.module,
        organization,
        unit: decision.unit,
      });
    }
  }

  /** One exchange in a rate-limit slot, its answer recorded (quota, log). */
  private async attempt(call: CallProgress, token: CallToken, request: ApiRequest, timeoutMs: number): Promise<Attempt> {
    const { method, url, body } = call.hop;
    try {
      const exchange = await this.exchange({
        url,
        method,
        body,
        timeoutMs,
        signal: request.signal,
        onPosition: request.onQueuePosition,
        front: call.attempts > 0,
        headers: async () => call.headers(await token.forSend(call.details())),
        onSent: (at, headers) => call.sent(at, headers),
      });
      const response = buildResponse(call.prepared, call.lastSent(), exchange, this.clock, this.logger);
      // A host that got no credentials (after a redirect) does not speak for the organization's quota.
      if (response.usage && call.prepared.licence?.organization && call.hop.withCredentials) this.quota.record(response.usage);
      this.logger.info(`${method} ${url.href} -> ${response.status} in ${Math.round(response.timeMs)} ms (attempt ${call.attempts})`);
      const outcome: ExchangeOutcome = {
        kind: 'answered',
        status: response.status,
        server: serverError(response),
        usage: response.usage,
        retryAfter: response.headers['retry-after'],
        hasLocation: Boolean(response.headers['location']),
      };
      return { outcome, response };
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      return { outcome: { kind: 'failed', reason: error.reason }, failure: error };
    }
  }

  private logGuessed429(call: CallProgress, unit: string): void {
    const repeated = call.unnamed429s++ > 0;
    this.logger.warn(
      `Rate limit: a 429 that names no limit and has no Retry-After; pausing for the ${unit}: ` +
        (repeated ? 'it repeated after a shorter pause' : 'a block ends once the smallest exceeded unit has elapsed, longer pauses only if it repeats'),
    );
  }

  /** What a retry waits for: a fresh token, the queue's pause after a 429, or a backoff. */
  private async beforeRetry(
    decision: Extract<RetryDecision, { action: 'retry' }>,
    call: CallProgress,
    token: CallToken,
    signal: AbortSignal | undefined,
    details: ApiErrorDetails,
  ): Promise<void> {
    if (decision.wait === 'refreshToken') {
      call.refreshed = true;
      await token.refresh(details);
      return;
    }
    call.retries++;
    if (decision.wait === 'pause') {
      this.scheduler.pause(decision.pauseMs);
      return;
    }
    await backoff(call.retries, {
      clock: this.clock,
      baseMs: this.options.backoffBaseMs ?? 250,
      random: this.random,
      signal,
      cancelled: () => apiErrors.cancelled(call.details()),
    });
  }
}
