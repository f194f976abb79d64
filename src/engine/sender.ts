/**
 * The engine's send step. `callPlatform` is the one call of a platform path that every front end makes
 * (Send Request directly, request files through `sendPrepared`): the tenant by the one resolver, then
 * the API client with its throttle and credentials. `sendPrepared` also maps an absolute URL on the
 * base URL or the tenant's cluster to a path, and sends any other address with a plain fetch and no
 * credentials at all. No `vscode` here.
 */
import { ConnectionProblemError } from '../api/connectionProblems';
import { ApiError } from '../api/errors';
import { droppedHeaderWarning } from '../api/requestHeaders';
import { needsTenant } from '../api/routes';
import type { TenantResolver } from '../api/tenantResolver';
import type { ApiRequest, ApiResponse, RouteRule, TenantApi, TenantRecord } from '../api/types';
import * as l10n from '../common/l10n';
import { platformPath, type PreparedRequest } from './prepare';
import type { RequestResult } from './variables';

export interface SenderDeps {
  api: Pick<TenantApi, 'send' | 'routeFor'>;
  /** The one tenant resolver (src/api/tenantResolver.ts). */
  tenants: Pick<TenantResolver, 'resolve'>;
  baseUrl(): string;
  fetch: typeof fetch;
  timeoutMs(): number;
}

export interface SentRequest {
  response: ApiResponse;
  tenant?: TenantRecord;
  /** Shown to the user and in the tab's header block. */
  warnings: string[];
  credentials: boolean;
}

/** A call to a platform path: the tenant named (id, code or description) or none, and what the client sends. */
export interface PlatformCall extends Omit<ApiRequest, 'tenant'> {
  tenant?: string;
}

/** The end of a platform call: the tenant it was for and the response, or why there is none (never thrown). */
export interface PlatformResult {
  tenant?: TenantRecord;
  response?: ApiResponse;
  /** An ApiError of the client's closed kinds (a tenant that cannot be resolved is `tenant`), or any other error as thrown. */
  error?: unknown;
}

/**
 * The one way a front end calls a platform path: the tenant by the one resolver (the active one when
 * the route needs a tenant and none is named), then the client with its throttle, credentials and retries.
 */
export async function callPlatform(call: PlatformCall, deps: Pick<SenderDeps, 'api' | 'tenants'>): Promise<PlatformResult> {
  const result: PlatformResult = {};
  try {
    const need = needsTenant(call.route ?? deps.api.routeFor(call.path)) ? 'required' : 'named';
    result.tenant = await deps.tenants.resolve(call.tenant, need, call.path);
    result.response = await deps.api.send({ ...call, tenant: result.tenant });
  } catch (error) {
    result.error = error;
  }
  return result;
}

export function credentialWarnings(prepared: PreparedRequest): string[] {
  return prepared.droppedCredentialHeaders.map(droppedHeaderWarning);
}

export async function sendPrepared(
  prepared: PreparedRequest,
  deps: SenderDeps,
  { signal, sendOverQuota, bypassCache, onQueuePosition }: { signal?: AbortSignal; sendOverQuota?: boolean; bypassCache?: boolean; onQueuePosition?: (position: number) => void } = {},
): Promise<SentRequest> {
  const warnings = credentialWarnings(prepared);
  const call = { method: prepared.method, headers: prepared.headers, body: prepared.body, signal, sendOverQuota, bypassCache, onQueuePosition };
  if (prepared.target.kind === 'path') {
    const { tenant, response, error } = await callPlatform({ ...call, path: prepared.target.path, tenant: prepared.tenant }, deps);
    if (!response) throw error;
    return { response, tenant, warnings: [...warnings, ...response.warnings], credentials: true };
  }
  let tenant = await deps.tenants.resolve(prepared.tenant, 'optional', prepared.target.url.pathname);
  const mapped = platformPath(prepared.target.url, { baseUrl: deps.baseUrl(), clusterAddress: tenant?.clusterAddress });
  if (!mapped) {
    warnings.push(l10n.t('Sent without your credentials: {0} is neither the base URL nor the tenant\'s cluster.', prepared.target.url.host));
    return { response: await plainFetch(prepared, prepared.target.url, deps, signal), warnings, credentials: false };
  }
  const route = deps.api.routeFor(mapped.path);
  const wrongHost = wrongHostOf(route, mapped);
  if (wrongHost) throw new ApiError('invalidRequest', wrongHost);
  if (needsTenant(route) && !tenant) tenant = await deps.tenants.resolve(prepared.tenant, 'required', mapped.path);
  if (!needsTenant(route) && !prepared.tenant) tenant = undefined;
  const response = await deps.api.send({ ...call, path: mapped.path, tenant });
  return { response, tenant, warnings: [...warnings, ...response.warnings], credentials: true };
}

/** An address on the base URL for a path its route sends to the tenant's cluster (or the reverse): the sentence saying so. */
export function wrongHostOf(route: RouteRule | undefined, mapped: { where: 'base' | 'cluster'; path: string }): string | undefined {
  if (!route || route.host === mapped.where) return undefined;
  const path = mapped.path.split('?')[0];
  return route.host === 'cluster'
    ? l10n.t('{0} is served by the tenant\'s cluster, not by the base URL: write the path alone.', path)
    : l10n.t('{0} is served by the base URL, not by a cluster: write the path alone.', path);
}

async function plainFetch(prepared: PreparedRequest, url: URL, deps: SenderDeps, signal?: AbortSignal): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...prepared.headers };
  const hasType = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
  if (prepared.body !== undefined && !hasType && /^\s*[[{]/.test(prepared.body)) headers['Content-Type'] = 'application/json';
  const timeout = AbortSignal.timeout(deps.timeoutMs());
  const started = performance.now();
  let answer: Response;
  try {
    answer = await deps.fetch(url, {
      method: prepared.method,
      headers,
      body: prepared.body,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (error) {
    const details = { method: prepared.method, url: url.href };
    if (error instanceof ConnectionProblemError) throw new ApiError(error.errorKind, error.message, details);
    throw new ApiError('network', l10n.t('{0} did not answer: {1}', url.host, error instanceof Error ? error.message : String(error)), details);
  }
  const bodyText = await answer.text();
  const responseHeaders: Record<string, string> = {};
  answer.headers.forEach((value, name) => (responseHeaders[name.toLowerCase()] = value));
  let json: unknown;
  try {
    json = bodyText ? JSON.parse(bodyText) : undefined;
  } catch {
    json = undefined;
  }
  return {
    method: prepared.method,
    url: url.href,
    status: answer.status,
    statusText: answer.statusText,
    headers: responseHeaders,
    bodyText,
    json,
    timeMs: performance.now() - started,
    sizeBytes: Buffer.byteLength(bodyText),
    requestHeaders: headers,
    attempts: 1,
    warnings: [],
  };
}

/** What a later request may read through `{{name.response...}}` / `{{name.request...}}`. */
export function resultOf(prepared: PreparedRequest, response: ApiResponse): RequestResult {
  const lower = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return {
    request: { headers: lower(response.requestHeaders), body: prepared.body },
    response: { headers: lower(response.headers), bodyText: response.bodyText, json: response.json },
  };
}
