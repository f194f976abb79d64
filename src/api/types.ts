/**
 * The shapes other areas (tree, status bar, request command) code against. No `vscode` here.
 */
import type { AccessTokenSource } from '../common/sessions';
import type { Event } from '../common/event';

export type { AccessTokenSource };

/** The fetch every call goes through: the editor's (the user's proxy settings) or the runner's. */
export type FetchFunction = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

/** One weekly usage reading of an organization (usageHistory.ts keeps them). */
export interface UsageSample {
  used: number;
  limit: number;
  /** Epoch ms (wall clock) of the response that carried it. */
  at: number;
}

export type HttpMethod = 'GET' | 'HEAD' | 'OPTIONS' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Methods that may be retried automatically (RFC 9110 idempotent methods). */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** One element of GET {base_url}/v10/user-tenants, plus our verdict on its cluster address. */
export interface TenantRecord {
  id: string;
  codiceAmbienteDati: string;
  descrizioneAmbienteDati: string;
  clusterAddress: string;
  /** false when clusterAddress failed host validation: such a tenant is never called. */
  usable: boolean;
  /** Why it is unusable, a sentence a person understands. */
  unusableReason?: string;
}

export interface ApiRequest {
  method: HttpMethod | string;
  /** Path starting with '/', e.g. '/efat/api/v1/ditte'. Its prefix picks host and licence module. */
  path: string;
  query?: Record<string, string | number | boolean | undefined> | URLSearchParams;
  /** A string is sent as is; anything else is sent as JSON. */
  body?: unknown;
  /** Extra headers. They cannot replace the ones the client sets (see ApiResponse.warnings). */
  headers?: Record<string, string>;
  /** Required for tenant-scoped paths (User-Tenant, cluster host). */
  tenant?: TenantRecord;
  signal?: AbortSignal;
  /** Send even though the organization's last known weekly usage reached its limit. */
  sendOverQuota?: boolean;
  /** Called with the 1-based position while the call waits for a rate-limit slot; 0 when it is sent. */
  onQueuePosition?: (position: number) => void;
  /** The host and licence module for this call only (a path no rule matches, answered "this time only"). */
  route?: RouteRule;
  /** Send even when a static resource's answer is cached (Refresh, a watch); the new answer replaces the kept one. */
  bypassCache?: boolean;
}

/** Latest Service-Limit-Info reading for one organization. */
export interface QuotaReading {
  organization: string;
  /** Label of the licence key the reading came through. */
  keyLabel?: string;
  /** Licence module of that key. */
  module?: string;
  used: number;
  limit: number;
  /** Epoch ms (wall clock). */
  seenAt: number;
}

export interface ApiResponse {
  method: string;
  url: string;
  status: number;
  statusText: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  bodyText: string;
  /** Parsed body when it is JSON; undefined otherwise (a non-JSON body is not an error by itself). */
  json?: unknown;
  /** From the first send to the last byte, retries included. */
  timeMs: number;
  sizeBytes: number;
  usage?: QuotaReading;
  /** What was sent, with Authorization and Authorization-Key masked. */
  requestHeaders: Record<string, string>;
  /** The public part of the licence key the call carried (its organization is what a base-URL call reads). */
  licence?: LicenceKeyInfo;
  /** How many times it was sent (1 = no retry). */
  attempts: number;
  /** Things the user should know (e.g. an extra header that was ignored). */
  warnings: string[];
  /** Set when this is a static resource's kept answer and nothing was sent: when it came (wall-clock ms). */
  cachedAt?: number;
}

export type RateLimitUnit = 'second' | 'minute' | 'week';

export type ApiErrorKind =
  /** Not signed in, or still 401 after a refresh: sign in again. */
  | 'auth'
  /** The path's licence module has no key set: offer tenantApi.setLicenceKey (details.module). */
  | 'licenceMissing'
  /** The server refused the key as belonging to another module (details.module = expected). */
  | 'licenceWrongModule'
  /** The server does not know the key. */
  | 'licenceUnknown'
  /** 429 for the per-second or per-minute limit, still after the retries (details.unit). */
  | 'rateLimit'
  /** 429 for the weekly limit: the organization is stopped until resumed (details.organization). */
  | 'weeklyQuota'
  /** Refused locally: the organization's last known usage reached its limit (sendOverQuota to override). */
  | 'quotaReached'
  /** Tenant missing, unknown, unusable, or served by another cluster. */
  | 'tenant'
  /** The target host (or a redirect) failed validation; nothing secret was sent there. */
  | 'hostValidation'
  | 'network'
  /** The proxy could not be reached, wants credentials, or refused the connection (the message names it, never its password). */
  | 'proxy'
  /** The server's certificate is not trusted (self-signed, unknown authority, expired, another host's). */
  | 'certificate'
  | 'timeout'
  | 'cancelled'
  | 'queueFull'
  /** Any other HTTP error status, with the server's body. */
  | 'http'
  /** The request itself is malformed (bad path, bad method, no base URL configured). */
  | 'invalidRequest';

export interface ApiErrorDetails {
  method?: string;
  url?: string;
  status?: number;
  /** Server's error code from the JSON body, e.g. 'licence_module_mismatch'. */
  serverError?: string;
  serverMessage?: string;
  bodyText?: string;
  module?: string;
  organization?: string;
  unit?: RateLimitUnit;
  attempts?: number;
  usage?: QuotaReading;
  host?: string;
  /** Where a redirect that was not followed would have taken the call. */
  location?: string;
  /** The response, for HTTP errors (the UI can still show it). */
  response?: ApiResponse;
  cause?: unknown;
}

/** A call whose answer (or error) reported the usage of the organization it was counted against. */
export interface CountedCall {
  request: ApiRequest;
  usage: QuotaReading;
}

/** Event of the QuotaTracker (the status bar listens). */
export interface QuotaChangeEvent {
  organization: string;
  /** undefined when the reading was cleared. */
  reading: QuotaReading | undefined;
  /** true while the organization's calls are stopped (weekly 429 or usage >= limit). */
  blocked: boolean;
}

export interface QuotaView {
  readonly onDidChange: Event<QuotaChangeEvent>;
  readings(): QuotaReading[];
  reading(organization: string): QuotaReading | undefined;
  isBlocked(organization: string): boolean;
  /** Every reading of the organization seen this session, in time order (for the forecast). */
  usageSamples(organization: string): readonly UsageSample[];
}

/** The scheduler's observable queue. */
export interface QueueState {
  /** Calls waiting for a slot. */
  length: number;
  /** Monotonic ms until which the whole queue is paused after a 429; undefined when not paused. */
  pausedUntil?: number;
}

export interface QueueView {
  readonly length: number;
  readonly onDidChange: Event<QueueState>;
}

export type RouteHost = 'base' | 'cluster';

/** Which host and licence module serve a path prefix. */
export interface RouteRule {
  prefix: string;
  host: RouteHost;
  /** Licence module whose Authorization-Key the call carries; none = bearer only. */
  module?: string;
  /** Carries User-Tenant (and needs a tenant). */
  tenantScoped?: boolean;
  /** A static resource (aggregated data, a dashboard): its GET answers are kept this many seconds (src/api/responseCache.ts). */
  cacheSeconds?: number;
}

export interface EndpointDefinition {
  label: string;
  method: string;
  path: string;
}

/** Public part of a stored licence key (the key itself never leaves LicenceKeyStore). */
export interface LicenceKeyInfo {
  module: string;
  label: string;
  organization: string;
  /** The tenants the user said this licence covers (ids); absent for keys set before it was asked. */
  tenantIds?: string[];
  /** The tenants it covers as named by code, description or id (the runner's TENANT_API_TENANTS_<ORG>). */
  tenants?: string[];
}

/** What the tree, status bar and request command use. */
export interface TenantApi {
  send(request: ApiRequest): Promise<ApiResponse>;
  listTenants(options?: { signal?: AbortSignal }): Promise<TenantRecord[]>;
  readonly quota: QuotaView;
  readonly queue: QueueView;
  endpoints(): EndpointDefinition[];
  routeFor(path: string): RouteRule | undefined;
}
