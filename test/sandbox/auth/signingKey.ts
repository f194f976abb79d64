// The provider's signing key, generated at start (never written to a file), and the small JWT
// helpers the resource API and the userinfo shim use to verify what the provider signed.
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, verify, type KeyObject } from 'node:crypto';

export interface SigningKey {
  kid: string;
  /** Private JWK for oidc-provider's `jwks` configuration. */
  privateJwk: Record<string, unknown>;
  publicKey: KeyObject;
  privateKey: KeyObject;
}

export function generateSigningKey(): SigningKey {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = `sandbox-${randomBytes(6).toString('hex')}`;
  const privateJwk = { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
  return { kid, privateJwk, privateKey: createPrivateKey(privateKey.export({ format: 'pem', type: 'pkcs8' })), publicKey: createPublicKey(privateKey) };
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

export function signJwt(payload: Record<string, unknown>, key: SigningKey, typ = 'at+jwt'): string {
  const header = b64url(JSON.stringify({ alg: 'RS256', typ, kid: key.kid }));
  const body = b64url(JSON.stringify(payload));
  const signature = sign('RSA-SHA256', Buffer.from(`${header}.${body}`), key.privateKey);
  return `${header}.${body}.${b64url(signature)}`;
}

export type JwtCheck =
  | { ok: true; payload: Record<string, unknown> }
  | { ok: false; reason: string };

/** Checks shape and signature only (claims are the caller's business). */
export function verifyJwtSignature(token: string, key: SigningKey): JwtCheck {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p))) {
    return { ok: false, reason: 'The access token is not a JWT (expected three base64url parts).' };
  }
  let header: Record<string, unknown>;
  let payload: Record<string, unknown>;
  try {
    header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
    payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'The access token header or payload is not valid JSON.' };
  }
  if (typeof header !== 'object' || header === null || typeof payload !== 'object' || payload === null) {
    return { ok: false, reason: 'The access token header or payload is not a JSON object.' };
  }
  if (header.alg !== 'RS256') {
    return { ok: false, reason: `The access token algorithm ${JSON.stringify(header.alg)} is not accepted (RS256 only).` };
  }
  if (header.kid !== undefined && header.kid !== key.kid) {
    return { ok: false, reason: 'The access token was signed with an unknown key (kid).' };
  }
  const valid = verify('RSA-SHA256', Buffer.from(`${parts[0]}.${parts[1]}`), key.publicKey, Buffer.from(parts[2], 'base64url'));
  if (!valid) return { ok: false, reason: 'The access token signature is not valid.' };
  return { ok: true, payload };
}
