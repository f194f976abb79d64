// startSandbox: a local replica of the platform (authorization server, base API host, cluster hosts).
// See test/sandbox/README.md for endpoints, bodies, seeded data and knobs.
import { randomUUID } from 'node:crypto';

import { ApplicationLimits, SPEC_PER_MINUTE, SPEC_PER_SECOND, WeeklyLimits } from './api/limits';
import { FaultQueue } from './api/faults';
import { createResourceHandler, type ApiTenant, type HostLabel } from './api/resourceApi';
import { createInteractionHandler } from './auth/interactions';
import { SandboxStore } from './auth/memoryStore';
import { createProvider, ROUTES } from './auth/provider';
import { generateSigningKey, signJwt } from './auth/signingKey';
import {
  API_AUDIENCE, API_SCOPE, CONFIDENTIAL_CLIENT, DEFAULT_PUBLIC_CLIENT_ID, LICENCE_KEYS, MODULES, ORGANIZATIONS,
  PASSWORD_CLIENT, PUBLIC_REDIRECT_URIS, TENANTS, USERS,
} from './seed';
import { listenLoopback, type LoopbackServer } from './server';
import { sandboxSecurity } from './tls/sandboxTls';
import type { Fault, RecordedRefresh, RecordedRequest, Sandbox, SandboxOptions, SandboxUser } from './types';

export type { Fault, RecordedRequest, Sandbox, SandboxOptions } from './types';

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const opts: Sandbox['options'] = {
    authPort: options.authPort ?? 0,
    apiPort: options.apiPort ?? 0,
    clusterPorts: [...(options.clusterPorts ?? []), 0, 0].slice(0, Math.max(2, options.clusterPorts?.length ?? 0)),
    timeScale: options.timeScale ?? 1,
    weeklyLimit: options.weeklyLimit ?? 0,
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 300,
    latencyMs: options.latencyMs ?? 0,
    jitterMs: options.jitterMs ?? 0,
    clientId: options.clientId ?? DEFAULT_PUBLIC_CLIENT_ID,
    extraRedirectUris: [...(options.extraRedirectUris ?? [])],
    devRedirectPrefixes: [...(options.devRedirectPrefixes ?? [])],
    deviceCodeIntervalSeconds: options.deviceCodeIntervalSeconds ?? 5,
    rateLimits: { perSecond: options.rateLimits?.perSecond ?? SPEC_PER_SECOND, perMinute: options.rateLimits?.perMinute ?? SPEC_PER_MINUTE },
  };
  if (!(opts.timeScale > 0)) throw new Error(`timeScale must be a positive number, got ${opts.timeScale}`);
  if (!(opts.accessTokenTtlSeconds >= 1)) throw new Error(`accessTokenTtlSeconds must be at least 1, got ${opts.accessTokenTtlSeconds}`);

  const organizations = ORGANIZATIONS.map((o) => ({ id: o.id, name: o.name, weeklyLimit: options.weeklyLimit ?? o.weeklyLimit }));
  const limitOf = (id: string) => organizations.find((o) => o.id === id)?.weeklyLimit ?? 0;
  const weeklyLimits = new WeeklyLimits(limitOf, opts.timeScale);
  const applicationLimits = new ApplicationLimits(opts.timeScale, opts.rateLimits.perSecond, opts.rateLimits.perMinute);
  const fallbackHeader = () => {
    const u = weeklyLimits.usage(organizations[0].id);
    return `api-usage=${u.used}/${u.limit}`;
  };

  const servers: LoopbackServer[] = [];
  const security = await sandboxSecurity(options);
  try {
    const auth = await listenLoopback(opts.authPort, () => undefined, security.address);
    servers.push(auth);
    const api = await listenLoopback(opts.apiPort, fallbackHeader, security.address);
    servers.push(api);
    const clusters: LoopbackServer[] = [];
    for (const port of opts.clusterPorts) {
      const cluster = await listenLoopback(port, fallbackHeader, security.address);
      servers.push(cluster);
      clusters.push(cluster);
    }

    const tenants: ApiTenant[] = TENANTS.map((t) => ({
      id: t.id, codiceAmbienteDati: t.codiceAmbienteDati, descrizioneAmbienteDati: t.descrizioneAmbienteDati,
      clusterAddress: clusters[t.cluster % clusters.length].url, organizationId: t.organizationId,
      cluster: t.cluster % clusters.length, ditte: t.ditte,
    }));
    const more = (username: string) => (options.moreTenants?.[username] ?? []).flatMap((code) => TENANTS.filter((t) => t.codiceAmbienteDati === code).map((t) => t.id));
    const users: SandboxUser[] = USERS.map((u) => ({ ...u, role: [...u.role], tenantIds: [...new Set([...u.tenantIds, ...more(u.username)])] }));
    const licenceKeys = LICENCE_KEYS.map((k) => ({ key: k.key, module: k.module, organizationId: k.organizationId }));

    const key = generateSigningKey();
    const store = new SandboxStore();
    const issuer = auth.url;
    const setup = {
      issuer,
      audience: API_AUDIENCE,
      key,
      store,
      users,
      tenantIds: new Set(tenants.map((t) => t.id)),
      publicClientId: opts.clientId,
      confidential: { ...CONFIDENTIAL_CLIENT },
      password: { ...PASSWORD_CLIENT },
      redirectRules: { exact: [...PUBLIC_REDIRECT_URIS, ...opts.extraRedirectUris], prefixes: opts.devRedirectPrefixes },
      accessTokenTtlSeconds: opts.accessTokenTtlSeconds,
      deviceCodeIntervalSeconds: opts.deviceCodeIntervalSeconds,
      logErrors: options.logErrors ?? false,
    };
    const provider = await createProvider(setup);
    const providerHandler = provider.callback();
    const interactions = createInteractionHandler(provider, setup, tenants);
    const refreshes = recordRefreshes(provider);
    auth.setHandler((req, res) => {
      if ((req.url ?? '').startsWith('/interaction/')) return interactions(req, res);
      return providerHandler(req, res);
    });

    const requests: RecordedRequest[] = [];
    const faults = new FaultQueue();
    const apiState = {
      verifier: { key, issuer, audience: API_AUDIENCE, store },
      users,
      tenants,
      organizations,
      licenceKeys,
      applicationLimits,
      weeklyLimits,
      faults,
      requests,
      latencyMs: opts.latencyMs,
      jitterMs: opts.jitterMs,
      baseUrl: () => api.url,
      summaryRevisions: new Map<string, number>(),
    };
    api.setHandler(createResourceHandler(apiState, 'base'));
    clusters.forEach((c, i) => c.setHandler(createResourceHandler(apiState, `cluster${i}` as HostLabel)));

    const at = (route: string) => `${issuer}${route}`;
    let closed = false;
    const sandbox: Sandbox = {
      authUrl: issuer,
      baseUrl: api.url,
      clusterUrls: clusters.map((c) => c.url),
      apiScope: API_SCOPE,
      audience: API_AUDIENCE,
      clients: {
        public: { clientId: opts.clientId },
        confidential: { ...CONFIDENTIAL_CLIENT },
        password: { ...PASSWORD_CLIENT },
      },
      users,
      tenants: tenants.map(({ cluster: _c, ditte: _d, ...t }) => t),
      organizations,
      licenceKeys,
      modules: MODULES.map((m) => ({ id: m.id, pathPrefixes: [...m.pathPrefixes] })),
      requests,
      refreshes,
      ...(security.files ? { tls: security.files } : {}),
      endpoints: {
        authorization: at(ROUTES.authorization),
        token: at(ROUTES.token),
        userinfo: at(ROUTES.userinfo),
        jwks: at(ROUTES.jwks),
        deviceAuthorization: at(ROUTES.device_authorization),
        deviceVerification: at(ROUTES.code_verification),
        revocation: at(ROUTES.revocation),
        endSession: at(ROUTES.end_session),
        introspection: at(ROUTES.introspection),
        discovery: at('/.well-known/openid-configuration'),
      },
      options: opts,
      injectFault(fault: Fault) {
        faults.add(fault);
      },
      clearFaults() {
        faults.clear();
      },
      usage(organizationId: string) {
        return weeklyLimits.usage(organizationId);
      },
      updateSummary(tenantId: string) {
        const revision = (apiState.summaryRevisions.get(tenantId) ?? 1) + 1;
        apiState.summaryRevisions.set(tenantId, revision);
        return revision;
      },
      callsTo(path: string, since = 0) {
        return requests.slice(since).filter((request) => request.path.split('?')[0] === path).length;
      },
      resetLimits() {
        applicationLimits.reset();
        weeklyLimits.reset();
      },
      revokeAllTokens() {
        store.revokeAll();
      },
      signAccessToken(claims: Record<string, unknown> = {}, username?: string) {
        const user = username ? users.find((u) => u.username === username) : users[0];
        if (!user) throw new Error(`unknown sandbox user ${username}`);
        const now = Math.floor(Date.now() / 1000);
        return signJwt({
          jti: randomUUID(), sub: user.sub, iat: now, exp: now + opts.accessTokenTtlSeconds, scope: API_SCOPE,
          client_id: opts.clientId, iss: issuer, aud: API_AUDIENCE, ...claims,
        }, key);
      },
      async close() {
        if (closed) return;
        closed = true;
        await Promise.all(servers.map((s) => s.close()));
        security.remove();
      },
    };
    return sandbox;
  } catch (err) {
    await Promise.all(servers.map((s) => s.close()));
    security.remove();
    throw err;
  }
}

/** The refresh_token grants oidc-provider answers, from its grant.success and grant.error events. */
function recordRefreshes(provider: { on(event: string, listener: (...args: any[]) => void): unknown }): RecordedRefresh[] {
  const refreshes: RecordedRefresh[] = [];
  type Context = { oidc?: { params?: { grant_type?: unknown } } };
  const isRefresh = (ctx: Context) => ctx.oidc?.params?.grant_type === 'refresh_token';
  provider.on('grant.success', (ctx: Context) => {
    if (isRefresh(ctx)) refreshes.push({ ok: true, at: Date.now() });
  });
  provider.on('grant.error', (ctx: Context, error: { error?: string; message?: string }) => {
    if (isRefresh(ctx)) refreshes.push({ ok: false, error: error.error ?? error.message, at: Date.now() });
  });
  return refreshes;
}
