import * as l10n from '../common/l10n';
import type { Logger } from '../common/logger';
import { ApiError, apiErrors } from './errors';
import { validateBaseUrl, validateCredentialHost, type HostPolicy } from './hostValidation';
import type { LicenceKeyStore, StoredLicenceKey } from './licenceKeyStore';
import type { QuotaTracker } from './quotaTracker';
import { checkExtraHeaders, clientHeaders } from './requestHeaders';
import { needsTenant } from './routes';
import type { ApiRequest, RouteRule, TenantRecord } from './types';

/** A call checked and resolved before it waits for a slot: where it goes and what it carries. */
export interface PreparedRequest {
  method: string;
  url: URL;
  route: RouteRule;
  body?: string;
  extra: Record<string, string>;
  warnings: string[];
  licence?: StoredLicenceKey;
  tenant?: TenantRecord;
}

export interface PreparationContext {
  routeFor(path: string): RouteRule | undefined;
  /** The licence modules of the route table (a tenant's organization is learned from the keys of all of them). */
  modules(): string[];
  hostPolicy: HostPolicy;
  licenceKeys: LicenceKeyStore;
  quota: QuotaTracker;
  logger: Logger;
}

/** Everything that can be decided before the call waits for a slot; a refusal is an ApiError. */
export async function prepareRequest(request: ApiRequest, context: PreparationContext): Promise<PreparedRequest> {
  const { method, path, route } = checkMethodAndPath(request, context);
  const tenant = tenantFor(route, request, method, path);
  const origin = originFor(route, tenant, context.hostPolicy, method);
  const url = joinUrl(origin, path);
  if (url.origin !== origin.origin) throw apiErrors.invalidRequest(l10n.t('The path must stay on the API host: {0}', path.slice(0, 200)));
  appendQuery(url, request.query);
  const body = encodeBody(request.body, method, url);

  let extra: ReturnType<typeof checkExtraHeaders>;
  try {
    extra = checkExtraHeaders(request.headers);
  } catch (error) {
    throw apiErrors.invalidRequest((error as Error).message, { method, url: url.href });
  }
  for (const warning of extra.warnings) context.logger.warn(warning);

  const licence = route.module ? await licenceFor(route.module, request, method, url, context) : undefined;
  return { method, url, route, body, extra: extra.headers, warnings: extra.warnings, licence, tenant };
}

/** The headers of one attempt: the user's extras, then ours (which win). */
export function headersFor(prepared: PreparedRequest, token: string): Record<string, string> {
  return { ...prepared.extra, ...clientHeaders(prepared.route, { token, licenceKey: prepared.licence?.key, tenantId: prepared.tenant?.id }) };
}

function checkMethodAndPath(request: ApiRequest, context: PreparationContext): { method: string; path: string; route: RouteRule } {
  const method = String(request.method ?? '').toUpperCase();
  if (!/^[A-Z]{1,16}$/.test(method)) throw apiErrors.invalidRequest(l10n.t('"{0}" is not an HTTP method.', String(request.method).slice(0, 20)));
  const path = String(request.path ?? '');
  if (!path.startsWith('/') || path.startsWith('//') || /[\s#\\]/.test(path) || /[\u0000-\u001f]/.test(path)) {
    throw apiErrors.invalidRequest(l10n.t('The path must start with a single "/" and contain no spaces: {0}', path.slice(0, 200)), { method });
  }
  const route = request.route ?? context.routeFor(path);
  if (!route) {
    throw apiErrors.invalidRequest(
      l10n.t('No route is known for {0}. Add a rule to the setting tenantApi.routes.', path.slice(0, 200)),
      { method },
    );
  }
  return { method, path, route };
}

function tenantFor(route: RouteRule, request: ApiRequest, method: string, path: string): TenantRecord | undefined {
  if (!needsTenant(route)) return undefined;
  const tenant = request.tenant;
  if (!tenant) throw apiErrors.tenantRequired(path, { method });
  if (!tenant.usable) throw apiErrors.tenantUnusable(tenant.descrizioneAmbienteDati || tenant.id, tenant.unusableReason ?? '', { method });
  return tenant;
}

function originFor(route: RouteRule, tenant: TenantRecord | undefined, policy: HostPolicy, method: string): URL {
  if (route.host === 'cluster') {
    const verdict = validateCredentialHost(tenant!.clusterAddress, policy);
    if (!verdict.ok) throw apiErrors.hostNotAllowed(verdict.reason, { method, host: tenant!.clusterAddress });
    return verdict.url;
  }
  const verdict = validateBaseUrl(policy.baseUrl);
  if (!verdict.ok) throw apiErrors.hostNotAllowed(verdict.reason, { method, host: policy.baseUrl });
  return verdict.url;
}

function encodeBody(body: unknown, method: string, url: URL): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (method === 'GET' || method === 'HEAD') {
    throw apiErrors.invalidRequest(l10n.t('A {0} request cannot have a body.', method), { method, url: url.href });
  }
  try {
    return typeof body === 'string' ? body : JSON.stringify(body);
  } catch (error) {
    throw apiErrors.invalidRequest(l10n.t('The body cannot be written as JSON: {0}', String(error)), { method, url: url.href });
  }
}

/** The module's key, or why the call is refused: no key, or the organization's quota stops it. */
async function licenceFor(module: string, request: ApiRequest, method: string, url: URL, context: PreparationContext): Promise<StoredLicenceKey> {
  let licence: StoredLicenceKey | undefined;
  let keys: StoredLicenceKey[];
  try {
    keys = await context.licenceKeys.all(module);
    // A base-URL call names a tenant only to choose whose key it carries.
    licence = await context.licenceKeys.forTenant(module, request.tenant, context.modules());
  } catch (error) {
    throw new ApiError(
      'licenceMissing',
      l10n.t('The licence key of the module "{0}" could not be read from the secret storage. Try again.', module),
      { module, method, url: url.href, cause: error },
    );
  }
  if (!licence) throw apiErrors.licenceMissing(module, { method, url: url.href }, context.licenceKeys.wording.missing(module, request.tenant, keys.length > 0));
  const refusal = context.quota.refusal(licence.organization);
  if (refusal && !request.sendOverQuota) {
    const details = { method, url: url.href, usage: refusal.reading };
    throw refusal.reason === 'stopped'
      ? apiErrors.organizationStopped(licence.organization, details)
      : apiErrors.quotaReached(licence.organization, refusal.reading!.used, refusal.reading!.limit, details);
  }
  return licence;
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
