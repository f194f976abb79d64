// The resource-owner password grant the spec lists (grant_type=password). oidc-provider has no
// built-in one, so it is registered here as a custom grant type, for the test client only.
import type { KoaContextWithOIDC, default as ProviderClass } from 'oidc-provider' with { 'resolution-mode': 'import' };

import { API_SCOPE } from '../seed';
import type { ProviderSetup } from './provider';

type OidcModule = typeof import('oidc-provider', { with: { 'resolution-mode': 'import' } });
const OIDC_SCOPES = new Set(['openid', 'profile', 'offline_access']);

export function registerPasswordGrant(
  provider: ProviderClass,
  oidc: OidcModule,
  setup: ProviderSetup,
  resourceServerInfo: Record<string, unknown>,
): void {
  const { errors } = oidc;

  async function passwordGrant(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    const client = ctx.oidc.client!;
    const params = ctx.oidc.params as Record<string, string | undefined>;
    if (!params.username || !params.password) {
      throw new errors.InvalidRequest('username and password are required for grant_type=password');
    }
    const user = setup.users.find((u) => u.username === params.username);
    if (!user || user.password !== params.password) {
      throw new errors.InvalidGrant('invalid username or password');
    }
    const tenantMatch = /(?:^|\s)tenant:(\S+)/.exec(params.acr_values ?? '');
    const tenant = tenantMatch?.[1];
    if (tenant && !user.tenantIds.includes(tenant)) {
      throw new errors.InvalidGrant(`the user has no access to tenant ${tenant}`);
    }
    const requested = params.scope ? [...new Set(params.scope.split(' ').filter(Boolean))] : [...OIDC_SCOPES, API_SCOPE];
    for (const scope of requested) {
      if (!OIDC_SCOPES.has(scope) && scope !== API_SCOPE) throw new errors.InvalidScope('requested scope is not allowed', scope);
    }
    const oidcScopes = requested.filter((s) => OIDC_SCOPES.has(s));
    const wantsApi = requested.includes(API_SCOPE);
    if (tenant) (ctx as unknown as { sandboxTenant?: string }).sandboxTenant = tenant;

    const grant = new provider.Grant({ accountId: user.sub, clientId: client.clientId });
    if (oidcScopes.length) grant.addOIDCScope(oidcScopes.join(' '));
    grant.addResourceScope(setup.audience, wantsApi ? API_SCOPE : '');
    const grantId = await grant.save();

    const acr = tenant ? `tenant:${tenant}` : undefined;
    const authTime = Math.floor(Date.now() / 1000);
    const at = new provider.AccessToken({
      accountId: user.sub, client, grantId, gty: 'password', scope: wantsApi ? API_SCOPE : '',
    } as never);
    at.resourceServer = new (provider as unknown as { ResourceServer: new (id: string, info: unknown) => never }).ResourceServer(setup.audience, resourceServerInfo);
    ctx.oidc.entity('AccessToken', at);
    const accessToken = await at.save();

    let refreshToken: string | undefined;
    if (oidcScopes.includes('offline_access') && client.grantTypeAllowed('refresh_token')) {
      const rt = new provider.RefreshToken({
        accountId: user.sub, client, grantId, gty: 'password', scope: requested.join(' '), resource: setup.audience,
        rotations: 0, acr, amr: ['pwd'], authTime, expiresWithSession: false,
      } as never);
      ctx.oidc.entity('RefreshToken', rt);
      refreshToken = await rt.save();
    }

    let idToken: string | undefined;
    if (oidcScopes.includes('openid')) {
      const account = await provider.Account.findAccount(ctx, user.sub);
      ctx.oidc.entity('Account', account!);
      const claims = await account!.claims('id_token', oidcScopes.join(' '), {}, []);
      const token = new provider.IdToken({ ...claims, acr, amr: ['pwd'], auth_time: authTime }, { ctx });
      (token as unknown as { scope: string }).scope = oidcScopes.join(' ');
      idToken = await token.issue({ use: 'idtoken' });
    }

    ctx.body = {
      access_token: accessToken,
      expires_in: at.expiration,
      id_token: idToken,
      refresh_token: refreshToken,
      // like oidc-provider's code grant: the scope of the access token (its resource scopes)
      scope: wantsApi ? API_SCOPE : '',
      token_type: 'Bearer',
    };
    await next();
  }

  provider.registerGrantType('password', passwordGrant, ['username', 'password', 'scope', 'acr_values'], []);
}
