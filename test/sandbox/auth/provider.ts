// The authorization server: oidc-provider 8 configured as the platform's {auth_url}.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Configuration, KoaContextWithOIDC, default as ProviderClass } from 'oidc-provider' with { 'resolution-mode': 'import' };

import { API_SCOPE, LOOPBACK_REDIRECT_URI } from '../seed';
import type { SandboxStore } from './memoryStore';
import type { SigningKey } from './signingKey';
import { redirectAllowedByRules, type RedirectRules } from './redirectRules';
import { errorPage, escapeHtml, localeFrom, page, text } from './pages';
import { registerPasswordGrant } from './passwordGrant';
import { installProviderShims } from './providerShims';

export type Provider = ProviderClass;
type OidcModule = typeof import('oidc-provider', { with: { 'resolution-mode': 'import' } });

export interface AuthUser {
  username: string; password: string; sub: string; name: string; given_name: string; family_name: string;
  role: string[]; tenantIds: string[];
}

export interface ProviderSetup {
  issuer: string;
  audience: string;
  key: SigningKey;
  store: SandboxStore;
  users: AuthUser[];
  tenantIds: Set<string>;
  publicClientId: string;
  confidential: { clientId: string; clientSecret: string };
  password: { clientId: string; clientSecret: string };
  redirectRules: RedirectRules;
  accessTokenTtlSeconds: number;
  deviceCodeIntervalSeconds: number;
  logErrors: boolean;
}

export const ROUTES = {
  authorization: '/connect/authorize',
  token: '/connect/token',
  userinfo: '/connect/userinfo',
  jwks: '/.well-known/jwks',
  device_authorization: '/connect/deviceauthorization',
  code_verification: '/connect/device',
  revocation: '/connect/revocation',
  end_session: '/connect/endsession',
  introspection: '/connect/introspect',
} as const;

export const OIDC_SCOPES = ['openid', 'profile', 'offline_access'];

let oidcModule: Promise<OidcModule> | undefined;
export function loadOidcProvider(): Promise<OidcModule> {
  oidcModule ??= import('oidc-provider');
  return oidcModule;
}

/** The tenant id named by acr_values `tenant:<id>`, if any. */
export function requestedTenant(acrValues: unknown): string | undefined {
  if (typeof acrValues !== 'string') return undefined;
  const value = acrValues.split(/\s+/).find((v) => v.startsWith('tenant:'));
  return value?.slice('tenant:'.length);
}

export function tenantFromAcr(acr: unknown): string | undefined {
  return typeof acr === 'string' && acr.startsWith('tenant:') ? acr.slice('tenant:'.length) : undefined;
}

export async function createProvider(setup: ProviderSetup): Promise<Provider> {
  const oidc = await loadOidcProvider();
  const { default: Provider, interactionPolicy, errors } = oidc;
  const usersBySub = new Map(setup.users.map((u) => [u.sub, u]));

  const resourceServerInfo = {
    scope: API_SCOPE,
    audience: setup.audience,
    accessTokenTTL: setup.accessTokenTtlSeconds,
    accessTokenFormat: 'jwt' as const,
    jwt: { sign: { alg: 'RS256' as const } },
  };

  // A session that lacks access to the tenant named by acr_values must sign in again
  // (with prompt=none this becomes login_required).
  const policy = interactionPolicy.base();
  // oidc-provider asks native clients for interaction on every authorization (prompt=none would
  // always fail); the platform's prompt=none works for the editor, so that check is removed.
  policy.get('consent')!.checks.remove('native_client_prompt');
  policy.get('login')!.checks.add(new interactionPolicy.Check(
    'tenant_not_accessible',
    'the signed-in user has no access to the tenant named by acr_values',
    'login_required',
    (ctx: KoaContextWithOIDC) => {
      const tenant = requestedTenant(ctx.oidc.params?.acr_values);
      const accountId = ctx.oidc.session?.accountId;
      if (!tenant || !accountId) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      const user = usersBySub.get(accountId);
      return user?.tenantIds.includes(tenant) ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT;
    },
  ));

  const ttl = setup.accessTokenTtlSeconds;
  const configuration: Configuration = {
    adapter: ((name: string) => setup.store.adapterFor(name)) as unknown as Configuration['adapter'],
    clients: [
      {
        client_id: setup.publicClientId,
        client_name: 'Tenant API Workbench',
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
        response_types: ['code'],
        redirect_uris: [LOOPBACK_REDIRECT_URI],
        post_logout_redirect_uris: [],
      },
      {
        client_id: setup.confidential.clientId,
        client_secret: setup.confidential.clientSecret,
        client_name: 'Tenant API service client',
        token_endpoint_auth_method: 'client_secret_basic',
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
      },
      {
        client_id: setup.password.clientId,
        client_secret: setup.password.clientSecret,
        client_name: 'Tenant API test client',
        token_endpoint_auth_method: 'client_secret_basic',
        grant_types: ['password', 'refresh_token'],
        response_types: [],
        redirect_uris: [],
      },
    ],
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    clientBasedCORS: () => true,
    cookies: { keys: [randomBytes(32).toString('hex')] },
    jwks: { keys: [setup.key.privateJwk as never] },
    routes: { ...ROUTES },
    scopes: [...OIDC_SCOPES],
    acrValues: [...setup.tenantIds].map((id) => `tenant:${id}`),
    claims: {
      openid: ['sub', 'tenant'],
      profile: ['name', 'given_name', 'family_name', 'role'],
    },
    pkce: { methods: ['S256'], required: () => true },
    responseTypes: ['code', 'none'],
    rotateRefreshToken: true,
    // oidc-provider drops offline_access unless prompt=consent (OIDC Core 11); the spec's prompt
    // only knows none/login, so the public client gets a refresh token anyway.
    issueRefreshToken: async (_ctx, client, code) =>
      client.grantTypeAllowed('refresh_token') && (code.scopes.has('offline_access') || client.clientId === setup.publicClientId),
    expiresWithSession: async () => false,
    ttl: {
      AccessToken: ttl,
      ClientCredentials: ttl,
      AuthorizationCode: 120,
      DeviceCode: 600,
      IdToken: 3600,
      Interaction: 3600,
      Grant: 14 * 24 * 3600,
      Session: 14 * 24 * 3600,
      RefreshToken: 14 * 24 * 3600,
    },
    findAccount: async (ctx, sub, token) => {
      const user = usersBySub.get(sub);
      if (!user) return undefined;
      const tenant = tenantFromAcr((token as { acr?: unknown } | undefined)?.acr) ?? (ctx as unknown as { sandboxTenant?: string }).sandboxTenant;
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          name: user.name,
          given_name: user.given_name,
          family_name: user.family_name,
          role: [...user.role],
          ...(tenant ? { tenant } : {}),
        }),
      };
    },
    extraTokenClaims: async (ctx) => {
      const entities = ctx.oidc.entities as Record<string, { acr?: unknown } | undefined>;
      const tenant = (ctx as unknown as { sandboxTenant?: string }).sandboxTenant
        ?? tenantFromAcr(entities.AuthorizationCode?.acr ?? entities.RefreshToken?.acr ?? entities.DeviceCode?.acr);
      return tenant ? { tenant } : undefined;
    },
    formats: {
      customizers: {
        jwt: async (_ctx, token, jwt) => {
          const t = token as unknown as { grantId?: string };
          setup.store.recordAccessToken(String(jwt.payload.jti), t.grantId);
          return jwt;
        },
      },
    },
    interactions: {
      url: (_ctx, interaction) => `/interaction/${interaction.uid}`,
      policy,
    },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          const t = text(localeFrom(ctx.oidc.params?.ui_locales));
          ctx.body = page(localeFrom(ctx.oidc.params?.ui_locales), t.logoutTitle, `<p>${escapeHtml(t.logoutQuestion)}</p>
${form.replace('</form>', `<input type="hidden" name="logout" value="yes"><button type="submit" id="submit" class="primary">${escapeHtml(t.logoutYes)}</button></form>`)}`, 'logout');
        },
        postLogoutSuccessSource: async (ctx) => {
          const t = text('en');
          ctx.body = page('en', t.logoutTitle, `<p id="done">${escapeHtml(t.loggedOut)}</p>`, 'logged-out');
        },
      },
      deviceFlow: {
        enabled: true,
        charset: 'base-20',
        mask: '****-****',
        userCodeInputSource: async (ctx, form, _out, err) => {
          const locale = localeFrom(ctx.oidc.params?.ui_locales);
          const t = text(locale);
          const e = err as { userCode?: string; name?: string } | undefined;
          const message = !e ? '' : e.userCode || e.name === 'NoCodeError' ? t.deviceBadCode : e.name === 'AbortedError' ? t.deviceAborted : t.deviceError;
          ctx.body = page(locale, t.deviceTitle, `${message ? `<p class="error" id="error" role="alert">${escapeHtml(message)}</p>` : `<p>${escapeHtml(t.deviceIntro)}</p>`}
${form.replace('</form>', `<button type="submit" id="submit" class="primary">${escapeHtml(t.continue)}</button></form>`).replace('name="user_code"', 'name="user_code" id="user_code"')}`, message ? 'device-error' : 'device-input');
        },
        userCodeConfirmSource: async (ctx, form, client, _deviceInfo, userCode) => {
          const locale = localeFrom(ctx.oidc.params?.ui_locales);
          const t = text(locale);
          ctx.body = page(locale, t.deviceTitle, `<p>${escapeHtml(t.deviceConfirm(client.clientName ?? client.clientId, userCode))}</p>
${form.replace('</form>', `<button type="submit" id="submit" class="primary">${escapeHtml(t.continue)}</button></form>`)}`, 'device-confirm');
        },
        successSource: async (ctx) => {
          const t = text('en');
          ctx.body = page('en', t.deviceTitle, `<p id="done">${escapeHtml(t.deviceDone)}</p>`, 'device-done');
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => setup.audience,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resource) => {
          if (resource !== setup.audience) throw new errors.InvalidTarget(`unknown resource ${resource}; this server knows ${setup.audience}`);
          return resourceServerInfo;
        },
      },
    },
    renderError: async (ctx, out, error) => {
      ctx.type = 'html';
      ctx.body = errorPage(localeFrom(ctx.oidc?.params?.ui_locales), String(out.error), out.error_description as string | undefined);
      if (setup.logErrors && !(error instanceof errors.OIDCProviderError)) console.error(error);
    },
  };

  const provider = new Provider(setup.issuer, configuration);
  provider.proxy = false;

  // Custom-scheme callbacks (vscode://...) fail oidc-provider's native-client metadata rules, so
  // they are allowed here, next to the registered loopback URI that oidc-provider matches on any port.
  const clientProto = provider.Client.prototype as unknown as { redirectUriAllowed(this: { clientId: string }, value: string): boolean };
  const builtIn = clientProto.redirectUriAllowed;
  clientProto.redirectUriAllowed = function redirectUriAllowed(value: string): boolean {
    if (this.clientId === setup.publicClientId && redirectAllowedByRules(value, setup.redirectRules)) return true;
    return builtIn.call(this, value);
  };

  registerPasswordGrant(provider, oidc, setup, resourceServerInfo);
  installProviderShims(provider, setup);

  if (setup.logErrors) {
    provider.on('server_error', (_ctx: unknown, err: unknown) => console.error('[sandbox auth] server_error', err));
  }
  return provider;
}

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;
