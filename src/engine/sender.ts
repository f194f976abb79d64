/**
 * Sends a prepared request: a platform path (or an absolute URL on the base URL or the tenant's
 * cluster) through the API client, with its throttle and credentials; any other address with a plain
 * fetch and no credentials at all. No `vscode` here.
 */
import { needsTenant } from '../api/routes';
import type { ApiResponse, TenantApi, TenantRecord } from '../api/types';
import * as l10n from '../common/l10n';
import { platformPath, type PreparedRequest } from './prepare';
import type { RequestResult } from './variables';

/** The tenants a request file may name, and the active one (a narrow view of the Tenants view's model). */
export interface FileTenants {
  list(): Promise<TenantRecord[]>;
  active(): { id: string } | undefined;
}

export interface SenderDeps {
  api: Pick<TenantApi, 'send' | 'routeFor'>;
  tenants: FileTenants;
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

export class FileRequestError extends Error {}

/** A tenant by id, code (codiceAmbienteDati) or description, ignoring case. */
export function findTenant(reference: string, tenants: readonly TenantRecord[]): TenantRecord | undefined {
  const wanted = reference.trim().toLowerCase();
  return (
    tenants.find((tenant) => tenant.id.toLowerCase() === wanted) ??
    tenants.find((tenant) => tenant.codiceAmbienteDati.toLowerCase() === wanted) ??
    tenants.find((tenant) => tenant.descrizioneAmbienteDati.toLowerCase() === wanted)
  );
}

/**
 * `required`: the route needs a tenant (the active one when the file names none); `optional`: the one
 * the file names, else the active one (to recognise its cluster in an absolute URL); `named`: only
 * the one the file names (a base-host path, where a tenant only labels the tab).
 */
async function tenantFor(prepared: PreparedRequest, deps: SenderDeps, mode: 'required' | 'optional' | 'named'): Promise<TenantRecord | undefined> {
  const required = mode === 'required';
  if (prepared.tenant) {
    const tenant = findTenant(prepared.tenant, await deps.tenants.list());
    if (!tenant) throw new FileRequestError(l10n.t('The tenant {0} is not one of your tenants (code, description or id).', prepared.tenant));
    return tenant;
  }
  const active = mode === 'named' ? undefined : deps.tenants.active();
  if (!active) {
    if (!required) return undefined;
    throw new FileRequestError(l10n.t('This request needs a tenant: write "# @tenant <code>" above it, or set an active tenant in the Tenants view.'));
  }
  const tenant = (await deps.tenants.list()).find((candidate) => candidate.id === active.id);
  if (!tenant && required) throw new FileRequestError(l10n.t('The active tenant is not one of your tenants any more: choose another one.'));
  return tenant;
}

export function credentialWarnings(prepared: PreparedRequest): string[] {
  return prepared.droppedCredentialHeaders.map((name) =>
    l10n.t('The header {0} written in the file was not sent: the extension sets it from your sign-in, licence key and tenant.', name),
  );
}

export async function sendPrepared(prepared: PreparedRequest, deps: SenderDeps, signal?: AbortSignal): Promise<SentRequest> {
  const warnings = credentialWarnings(prepared);
  let path: string;
  let tenant: TenantRecord | undefined;
  if (prepared.target.kind === 'path') {
    path = prepared.target.path;
    tenant = await tenantFor(prepared, deps, needsTenant(deps.api.routeFor(path)) ? 'required' : 'named');
  } else {
    tenant = await tenantFor(prepared, deps, 'optional');
    const mapped = platformPath(prepared.target.url, { baseUrl: deps.baseUrl(), clusterAddress: tenant?.clusterAddress });
    if (!mapped) {
      warnings.push(l10n.t('Sent without your credentials: {0} is neither the base URL nor the tenant\'s cluster.', prepared.target.url.host));
      return { response: await plainFetch(prepared, prepared.target.url, deps, signal), warnings, credentials: false };
    }
    const route = deps.api.routeFor(mapped.path);
    if (route && route.host !== mapped.where) {
      throw new FileRequestError(
        route.host === 'cluster'
          ? l10n.t('{0} is served by the tenant\'s cluster, not by the base URL: write the path alone.', mapped.path.split('?')[0])
          : l10n.t('{0} is served by the base URL, not by a cluster: write the path alone.', mapped.path.split('?')[0]),
      );
    }
    path = mapped.path;
    if (needsTenant(route) && !tenant) tenant = await tenantFor(prepared, deps, 'required');
    if (!needsTenant(route) && !prepared.tenant) tenant = undefined;
  }
  const response = await deps.api.send({ method: prepared.method, path, headers: prepared.headers, body: prepared.body, tenant, signal });
  return { response, tenant, warnings: [...warnings, ...response.warnings], credentials: true };
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
    throw new FileRequestError(l10n.t('{0} did not answer: {1}', url.host, error instanceof Error ? error.message : String(error)));
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
