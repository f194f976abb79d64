// Verifies the provider's JWT access tokens: signature, issuer, audience, expiry, revocation.
import type { SandboxStore } from './memoryStore';
import { verifyJwtSignature, type SigningKey } from './signingKey';

export interface AccessTokenClaims {
  sub: string;
  client_id: string;
  scope: string;
  jti: string;
  iat: number;
  exp: number;
  aud: string | string[];
  tenant?: string;
  [claim: string]: unknown;
}

export type AccessTokenCheck = { ok: true; claims: AccessTokenClaims } | { ok: false; reason: string };

export interface VerifierConfig {
  key: SigningKey;
  issuer: string;
  audience: string;
  store: SandboxStore;
}

export function verifyAccessToken(token: string, config: VerifierConfig): AccessTokenCheck {
  const checked = verifyJwtSignature(token, config.key);
  if (!checked.ok) return checked;
  const p = checked.payload;
  if (p.iss !== config.issuer) {
    return { ok: false, reason: `The access token was issued by ${JSON.stringify(p.iss)}, not by this authorization server.` };
  }
  const audiences = Array.isArray(p.aud) ? p.aud : [p.aud];
  if (!audiences.includes(config.audience)) {
    return { ok: false, reason: `The access token audience ${JSON.stringify(p.aud)} is not this API (${config.audience}).` };
  }
  if (typeof p.exp !== 'number' || typeof p.iat !== 'number') {
    return { ok: false, reason: 'The access token has no exp or iat claim.' };
  }
  if (p.exp <= Date.now() / 1000) {
    return { ok: false, reason: 'The access token has expired.' };
  }
  if (typeof p.sub !== 'string' || typeof p.client_id !== 'string' || typeof p.jti !== 'string') {
    return { ok: false, reason: 'The access token lacks sub, client_id or jti.' };
  }
  if (config.store.isAccessTokenRevoked(p.jti)) {
    return { ok: false, reason: 'The access token has been revoked.' };
  }
  return { ok: true, claims: { scope: '', ...p } as AccessTokenClaims };
}

/** The bearer value of an Authorization header, or a reason it is unusable. */
export function bearerFrom(header: string | undefined): { token: string } | { reason: string } {
  if (header === undefined || header.trim() === '') {
    return { reason: 'The Authorization header is missing: send "Authorization: Bearer <access token>".' };
  }
  const match = /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header);
  if (!match) {
    return { reason: 'The Authorization header is malformed: expected "Bearer <access token>".' };
  }
  return { token: match[1] };
}
