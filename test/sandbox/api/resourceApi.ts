// The resource API: {base_url} (/v10/user-tenants, /api/configurazioni) and the cluster hosts
// (/efat/api/v1/ditte). Each refusal has its own status and a JSON body { error, message, ... };
// every response, errors included, carries Service-Limit-Info.
import type { IncomingMessage, ServerResponse } from 'node:http';

import { bearerFrom, verifyAccessToken, type AccessTokenClaims, type VerifierConfig } from '../auth/accessTokenVerifier';
import type { Fault, RecordedRequest, SandboxTenant, SandboxUser } from '../types';
import { configurazione, CONFIGURAZIONI_PER_ORGANIZATION, ditta, page, parsePaging } from './data';
import { DEFAULT_REDIRECT_STATUS, type FaultQueue } from './faults';
import { openApiDocument } from './openapi';
import type { ApplicationLimits, WeeklyLimits } from './limits';

export type HostLabel = 'base' | `cluster${number}`;

export interface ApiTenant extends SandboxTenant { cluster: number; ditte: number }

export interface ResourceApiState {
  verifier: VerifierConfig;
  users: SandboxUser[];
  tenants: ApiTenant[];
  organizations: Array<{ id: string; name: string }>;
  licenceKeys: Array<{ key: string; module: string; organizationId: string }>;
  applicationLimits: ApplicationLimits;
  weeklyLimits: WeeklyLimits;
  faults: FaultQueue;
  requests: RecordedRequest[];
  latencyMs: number;
  jitterMs: number;
  baseUrl: () => string;
  /** The revision of each tenant's summary (riepilogo), by tenant id; updateSummary raises it. */
  summaryRevisions: Map<string, number>;
}

interface Route {
  path: string;
  host: 'base' | 'cluster';
  /** Licence module that serves the path; undefined = needs no key and is not counted weekly. */
  module?: string;
  tenantScoped: boolean;
}

/** The per-tenant summary: the sandbox's static resource (the settings it prints mark it so). */
export const SUMMARY_PATH = '/efat/api/v1/riepilogo';

export const ROUTES: Route[] = [
  { path: '/v10/user-tenants', host: 'base', tenantScoped: false },
  { path: '/api/configurazioni', host: 'base', module: 'core', tenantScoped: false },
  { path: '/efat/api/v1/ditte', host: 'cluster', module: 'efat', tenantScoped: true },
  // An aggregated resource (a dashboard's figures): static in the spec's sense, changed only by updateSummary.
  { path: SUMMARY_PATH, host: 'cluster', module: 'efat', tenantScoped: true },
];

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const KEY_SHAPE = /^[A-Za-z0-9]{1,128}$/;
const MAX_BODY_BYTES = 1024 * 1024;

interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Sent as it is (a YAML description), instead of the body as JSON. */
  raw?: { text: string; contentType: string };
}

const refuse = (status: number, error: string, message: string, extra: Record<string, unknown> = {}, headers?: Record<string, string>): Reply =>
  ({ status, body: { error, message, ...extra }, headers });

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createResourceHandler(state: ResourceApiState, host: HostLabel) {
  const clusterIndex = host === 'base' ? -1 : Number(host.slice('cluster'.length));

  return async function handleResource(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = Date.now();
    let path = '/';
    let url = req.url ?? '/';
    let query = new URLSearchParams();
    try {
      const parsed = new URL(req.url ?? '/', 'http://sandbox.invalid');
      path = parsed.pathname;
      query = parsed.searchParams;
      url = `http://${req.headers.host ?? 'unknown'}${parsed.pathname}${parsed.search}`;
    } catch {
      // keep defaults: answered as not_found below
    }
    // Recorded on arrival (status 0 while in flight, or when the connection was reset), so a
    // test sees a call the client gave up on; the status is filled in when the answer is sent.
    const entry: RecordedRequest = { method: req.method ?? 'GET', url, host, path, headers: flattenHeaders(req), status: 0, at };
    state.requests.push(entry);
    const record = (status: number) => {
      entry.status = status;
    };
    entries.set(req, entry);

    const faults = state.faults.take(path);
    if (faults.some((f) => f.kind === 'reset')) {
      record(0);
      req.socket.destroy();
      return;
    }
    const slow = faults.find((f): f is Extract<Fault, { kind: 'slow' }> => f.kind === 'slow');
    if (slow) await delay(slow.delayMs);
    const extraLatency = state.latencyMs + (state.jitterMs > 0 ? Math.random() * state.jitterMs : 0);
    if (extraLatency > 0) await delay(extraLatency);

    let organizationId = state.organizations[0]?.id ?? '';
    let reply: Reply;
    const statusFault = faults.find((f): f is Extract<Fault, { kind: 'status' }> => f.kind === 'status');
    const redirectFault = faults.find((f): f is Extract<Fault, { kind: 'redirect' }> => f.kind === 'redirect');
    if (statusFault) {
      reply = refuse(statusFault.status, 'injected_fault', `The sandbox answered ${statusFault.status} because a fault was injected.`);
    } else if (redirectFault) {
      reply = await redirectHop(req, redirectFault, (org) => { organizationId = org; });
    } else {
      const outcome = await decide(req, path, query, (org) => { organizationId = org; });
      reply = outcome;
    }

    const usage = state.weeklyLimits.usage(organizationId);
    let limitHeader: string | undefined = `api-usage=${usage.used}/${usage.limit}`;
    const badHeader = faults.find((f): f is Extract<Fault, { kind: 'badLimitHeader' }> => f.kind === 'badLimitHeader');
    if (badHeader) limitHeader = badHeader.value ?? 'api-usage=lots/unknown';
    if (faults.some((f) => f.kind === 'noLimitHeader')) limitHeader = undefined;

    let payload: string;
    let contentType = 'application/json; charset=utf-8';
    if (faults.some((f) => f.kind === 'nonJson')) {
      payload = '<html><body><h1>Gateway notice</h1><p>This is not JSON (injected fault).</p></body></html>';
      contentType = 'text/html; charset=utf-8';
    } else if (reply.raw) {
      payload = reply.raw.text;
      contentType = reply.raw.contentType;
    } else {
      payload = reply.body === undefined ? '' : JSON.stringify(reply.body);
    }

    if (res.destroyed) {
      record(reply.status);
      return;
    }
    res.statusCode = reply.status;
    res.setHeader('Content-Type', contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', 'Service-Limit-Info, Retry-After, WWW-Authenticate');
    if (limitHeader !== undefined) res.setHeader('Service-Limit-Info', limitHeader);
    for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
    res.setHeader('Content-Length', Buffer.byteLength(payload));
    record(reply.status);
    res.end(req.method === 'HEAD' ? undefined : payload);
  };

  /**
   * A redirect fault is answered before the checks of the request itself, but a hop that carries a
   * valid token takes a slot of its application's per-second and per-minute limits, as any call the
   * gateway answers does (not of the weekly limit: no module served it).
   */
  async function redirectHop(req: IncomingMessage, fault: Extract<Fault, { kind: 'redirect' }>, setOrganization: (id: string) => void): Promise<Reply> {
    recordBody(req, await readBody(req)); // drained, so the connection stays usable after a 307/308 with a body
    const keyHeader = single(req.headers['authorization-key'])?.trim();
    const key = keyHeader ? state.licenceKeys.find((k) => k.key === keyHeader) : undefined;
    if (key) setOrganization(key.organizationId);
    const bearer = bearerFrom(single(req.headers.authorization));
    const checked = 'reason' in bearer ? undefined : verifyAccessToken(bearer.token, state.verifier);
    if (checked?.ok) {
      const app = state.applicationLimits.take(checked.claims.client_id);
      if (!app.ok) return tooMany(app.unit, app.max, app.retryAfterMs, checked.claims.client_id);
    }
    const status = fault.status ?? DEFAULT_REDIRECT_STATUS;
    return {
      status,
      body: { message: `The sandbox answered ${status} to ${truncate(fault.location)} because a redirect fault was injected.`, location: fault.location },
      headers: { Location: fault.location },
    };
  }

  async function decide(req: IncomingMessage, path: string, query: URLSearchParams, setOrganization: (id: string) => void): Promise<Reply> {
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') {
      return {
        status: 204, body: undefined, headers: {
          'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
          'Access-Control-Allow-Headers': 'Authorization, Authorization-Key, User-Tenant, Content-Type, Accept',
          'Access-Control-Max-Age': '600',
        },
      };
    }
    const description = host === 'base' && (method === 'GET' || method === 'HEAD') && path.startsWith('/openapi/') ? openApiDocument(path.slice('/openapi/'.length)) : undefined;
    if (description) return { status: 200, body: undefined, raw: description };
    const route = ROUTES.find((r) => r.path === path || `${r.path}/` === path);
    if (!route) {
      return refuse(404, 'not_found', `There is no resource at ${truncate(path)} on this host.`);
    }
    if (route.host === 'base' && host !== 'base') {
      return refuse(421, 'wrong_host', `${route.path} is served by the base URL (${state.baseUrl()}), not by a cluster host.`, { baseUrl: state.baseUrl() });
    }
    const accept = req.headers.accept;
    if (accept && !/(application\/json|application\/\*|\*\/\*|\+json)/i.test(accept)) {
      return refuse(406, 'not_acceptable', `This API answers application/json, but the Accept header asks for ${JSON.stringify(truncate(accept))}.`);
    }
    const contentType = req.headers['content-type'];
    if (contentType && !/^application\/json\s*(;|$)/i.test(contentType)) {
      return refuse(415, 'unsupported_media_type', `Content-Type must be application/json, got ${JSON.stringify(truncate(contentType))}.`);
    }
    const body = await readBody(req);
    recordBody(req, body);
    if (body === 'too_large') return refuse(413, 'payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
    if (body.length > 0) {
      try {
        JSON.parse(body.toString('utf8'));
      } catch (err) {
        return refuse(400, 'invalid_json', `The request body is not valid JSON: ${(err as Error).message}`);
      }
    }

    // The organization the limit header reports: the key's, when the call carries a known key.
    const keyHeader = single(req.headers['authorization-key'])?.trim();
    const key = keyHeader ? state.licenceKeys.find((k) => k.key === keyHeader) : undefined;
    if (key) setOrganization(key.organizationId);

    // Bearer token
    const bearer = bearerFrom(single(req.headers.authorization));
    if ('reason' in bearer) return invalidToken(bearer.reason);
    const checked = verifyAccessToken(bearer.token, state.verifier);
    if (!checked.ok) return invalidToken(checked.reason);
    const claims = checked.claims;
    const user = state.users.find((u) => u.sub === claims.sub);
    const userTenants = user ? state.tenants.filter((t) => user.tenantIds.includes(t.id)) : [];
    if (!key && userTenants[0]) setOrganization(userTenants[0].organizationId);

    // Licence key
    if (route.module) {
      if (!keyHeader) {
        return refuse(401, 'missing_licence_key', `${route.path} needs the Authorization-Key header with a licence key of the "${route.module}" module.`, { module: route.module });
      }
      if (!KEY_SHAPE.test(keyHeader)) {
        return refuse(403, 'unknown_licence_key', 'The Authorization-Key header is not a licence key (expected letters and digits only).', { module: route.module });
      }
      if (!key) {
        return refuse(403, 'unknown_licence_key', 'The licence key in Authorization-Key is not known.', { module: route.module });
      }
      if (key.module !== route.module) {
        return refuse(403, 'licence_module_mismatch',
          `The licence key is for the "${key.module}" module, but ${route.path} is served by the "${route.module}" module.`,
          { module: route.module, keyModule: key.module });
      }
    }

    // Limits: per application, then weekly for the key's organization (keyless calls: per application only)
    const app = state.applicationLimits.take(claims.client_id);
    if (!app.ok) return tooMany(app.unit, app.max, app.retryAfterMs, claims.client_id);
    if (route.module && key) {
      const week = state.weeklyLimits.take(key.organizationId);
      if (!week.ok) {
        state.applicationLimits.refund(claims.client_id);
        return tooMany('week', week.max, week.retryAfterMs, key.organizationId);
      }
    }

    // Counted like any call that reached the service (a gateway counts before the service answers).
    if (method !== 'GET' && method !== 'HEAD') {
      return refuse(405, 'method_not_allowed', `${route.path} only supports GET.`, {}, { Allow: 'GET, HEAD, OPTIONS' });
    }

    // Tenant
    let tenant: ApiTenant | undefined;
    if (route.tenantScoped) {
      const tenantHeader = single(req.headers['user-tenant'])?.trim();
      if (!tenantHeader) {
        return refuse(400, 'missing_tenant', `${route.path} needs the User-Tenant header with the id of one of your tenants (from /v10/user-tenants).`);
      }
      if (!GUID.test(tenantHeader)) {
        return refuse(403, 'unknown_tenant', `User-Tenant must be a tenant id (a GUID), got ${JSON.stringify(truncate(tenantHeader))}.`);
      }
      tenant = userTenants.find((t) => t.id.toLowerCase() === tenantHeader.toLowerCase());
      if (!tenant) {
        return refuse(403, 'unknown_tenant', `The tenant ${tenantHeader} is not one of the tenants this user may access.`, { tenant: tenantHeader });
      }
      if (tenant.cluster !== clusterIndex) {
        return refuse(421, 'wrong_cluster', `The tenant ${tenant.id} is served by ${tenant.clusterAddress}, not by this host.`,
          { tenant: tenant.id, clusterAddress: tenant.clusterAddress });
      }
    }

    return respond(route, query, claims, userTenants, tenant, key?.organizationId);
  }

  function respond(route: Route, query: URLSearchParams, claims: AccessTokenClaims, userTenants: ApiTenant[], tenant: ApiTenant | undefined, organizationId: string | undefined): Reply {
    if (route.path === '/v10/user-tenants') {
      void claims;
      return {
        status: 200,
        body: userTenants.map((t) => ({
          id: t.id, codiceAmbienteDati: t.codiceAmbienteDati, descrizioneAmbienteDati: t.descrizioneAmbienteDati, clusterAddress: t.clusterAddress,
        })),
      };
    }
    if (route.path === SUMMARY_PATH) return { status: 200, body: summary(tenant!, state.summaryRevisions.get(tenant!.id) ?? 1) };
    const paging = parsePaging(query);
    if (!paging.ok) return refuse(400, 'invalid_parameter', paging.message);
    if (route.path === '/api/configurazioni') {
      const org = organizationId ?? '';
      return { status: 200, body: { organizzazione: org, ...page(CONFIGURAZIONI_PER_ORGANIZATION, paging, (i) => configurazione(org, i)) } };
    }
    const t = tenant!;
    return { status: 200, body: { ambienteDati: t.codiceAmbienteDati, ...page(t.ditte, paging, (i) => ditta(t.codiceAmbienteDati, i)) } };
  }
}

/** A tenant's summary at a revision: the figures move with it, so a watch sees a change. */
function summary(tenant: ApiTenant, revision: number): Record<string, unknown> {
  return {
    ambienteDati: tenant.codiceAmbienteDati,
    revisione: revision,
    totaleDitte: tenant.ditte + revision - 1,
    ditteAttive: Math.floor(tenant.ditte * 0.8) + revision - 1,
    aggiornatoAlle: new Date(Date.UTC(2026, 2, 15, 8, 30) + (revision - 1) * 60_000).toISOString(),
  };
}

function invalidToken(reason: string): Reply {
  return refuse(401, 'invalid_token', reason, {}, {
    'WWW-Authenticate': `Bearer error="invalid_token", error_description="${reason.replace(/["\\]/g, "'")}"`,
  });
}

function tooMany(unit: 'second' | 'minute' | 'week', max: number, retryAfterMs: number, who: string): Reply {
  const what = unit === 'week'
    ? `The weekly request limit of the organization ${who} (${max} calls) is used up.`
    : `The application ${who} exceeded its limit of ${max} calls per ${unit}.`;
  const wait = Math.max(0, Math.ceil(retryAfterMs));
  return refuse(429, 'rate_limit_exceeded', `${what} Retry in ${wait} ms.`, { limit: unit, max, retryAfterMs: wait }, {
    'Retry-After': String(Math.max(1, Math.ceil(wait / 1000))),
  });
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function truncate(value: string, max = 80): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The record of each request in flight, so that whoever reads its body can add it (see RecordedRequest.body). */
const entries = new WeakMap<IncomingMessage, RecordedRequest>();

function recordBody(req: IncomingMessage, body: Buffer | 'too_large'): void {
  const entry = entries.get(req);
  if (entry && body !== 'too_large') entry.body = body.toString('utf8');
}

async function readBody(req: IncomingMessage): Promise<Buffer | 'too_large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return 'too_large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
