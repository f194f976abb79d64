// Small Koa middlewares around oidc-provider where the platform differs from its defaults:
// 1. userinfo accepts the API's JWT access token (oidc-provider refuses tokens with an audience
//    at userinfo; the spec says userinfo takes the same Bearer access token);
// 2. revocation of a JWT access token marks it revoked (oidc-provider looks tokens up by opaque
//    value only);
// 3. the device flow announces `interval` and answers `slow_down` (RFC 8628 3.5), which
//    oidc-provider 8 does not do.
import type { KoaContextWithOIDC, default as ProviderClass } from 'oidc-provider' with { 'resolution-mode': 'import' };

import { verifyAccessToken } from './accessTokenVerifier';
import { verifyJwtSignature } from './signingKey';
import type { ProviderSetup } from './provider';

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export function installProviderShims(provider: ProviderClass, setup: ProviderSetup): void {
  const usersBySub = new Map(setup.users.map((u) => [u.sub, u]));
  const devicePolls = new Map<string, { last: number; interval: number }>();

  provider.use(async (ctx, next) => {
    const c = ctx as unknown as KoaContextWithOIDC;
    if (ctx.path === '/connect/userinfo' && (ctx.method === 'GET' || ctx.method === 'POST')) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'));
      if (match && JWT_SHAPE.test(match[1])) {
        await jwtUserinfo(c, match[1]);
        return;
      }
    }

    await next();

    if (ctx.path === '/connect/revocation' && ctx.status === 200) {
      const token = (c.oidc?.params as Record<string, unknown> | undefined)?.token;
      if (typeof token === 'string' && JWT_SHAPE.test(token)) {
        const checked = verifyJwtSignature(token, setup.key);
        if (checked.ok && checked.payload.client_id === c.oidc.client?.clientId && typeof checked.payload.jti === 'string') {
          setup.store.revokedAccessTokens.add(checked.payload.jti);
        }
      }
    }

    if (ctx.path === '/connect/deviceauthorization' && ctx.status === 200 && ctx.body && typeof ctx.body === 'object') {
      (ctx.body as Record<string, unknown>).interval = setup.deviceCodeIntervalSeconds;
    }

    if (ctx.path === '/connect/token' && ctx.body && typeof ctx.body === 'object') {
      const params = c.oidc?.params as Record<string, unknown> | undefined;
      const deviceCode = params?.device_code;
      if (params?.grant_type === 'urn:ietf:params:oauth:grant-type:device_code' && typeof deviceCode === 'string') {
        const body = ctx.body as Record<string, unknown>;
        const now = Date.now();
        const poll = devicePolls.get(deviceCode) ?? { last: 0, interval: setup.deviceCodeIntervalSeconds };
        if (body.error === 'authorization_pending' && poll.last && now - poll.last < poll.interval * 1000) {
          poll.interval += 5;
          ctx.body = {
            error: 'slow_down',
            error_description: `polling too fast: wait at least ${poll.interval} seconds between token requests`,
          };
        }
        poll.last = now;
        devicePolls.set(deviceCode, poll);
        if (body.error !== 'authorization_pending') devicePolls.delete(deviceCode);
      }
    }
  });

  async function jwtUserinfo(ctx: KoaContextWithOIDC, token: string): Promise<void> {
    ctx.set('Cache-Control', 'no-store');
    const refuse = (status: number, error: string, description: string) => {
      ctx.status = status;
      ctx.set('WWW-Authenticate', `Bearer realm="${setup.issuer}", error="${error}", error_description="${description.replace(/"/g, "'")}"`);
      ctx.body = { error, error_description: description };
    };
    const checked = verifyAccessToken(token, { key: setup.key, issuer: setup.issuer, audience: setup.audience, store: setup.store });
    if (!checked.ok) return refuse(401, 'invalid_token', checked.reason);
    const user = usersBySub.get(checked.claims.sub);
    if (!user) return refuse(401, 'invalid_token', 'the access token does not represent a user');
    const grantId = setup.store.grantOfAccessToken(checked.claims.jti);
    if (!grantId) return refuse(401, 'invalid_token', 'access token not found (not issued by this server for a user)');
    const grant = await provider.Grant.find(grantId);
    if (!grant) return refuse(401, 'invalid_token', 'the grant of this access token no longer exists');
    const scopes = new Set((grant.getOIDCScope() || '').split(' '));
    if (!scopes.has('openid')) return refuse(403, 'insufficient_scope', 'access token missing openid scope');
    ctx.status = 200;
    ctx.type = 'application/json';
    ctx.body = {
      sub: user.sub,
      ...(scopes.has('profile') ? { name: user.name, given_name: user.given_name, family_name: user.family_name, role: [...user.role] } : {}),
      ...(typeof checked.claims.tenant === 'string' ? { tenant: checked.claims.tenant } : {}),
    };
  }
}
