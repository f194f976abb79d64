import { jwtDecode } from 'jwt-decode';
import * as l10n from '../common/l10n';
import { IdTokenError } from './oauthErrors';
import type { UserInfo } from './tokenClient';

/** The id_token carries the same identity claims as userinfo, plus those that bind it to this sign-in. */
export interface IdTokenClaims extends UserInfo {
  iss: string;
  aud: string | string[];
  exp: number;
  iat?: number;
  nonce?: string;
  azp?: string;
}

export interface IdTokenExpectations {
  issuer: string;
  clientId: string;
  /** The attempt's nonce; undefined for grants that send none (device code), where it is not checked. */
  nonce: string | undefined;
  /** Wall-clock time in ms. */
  now: number;
  /** Tolerated clock difference with the server, in seconds. */
  leewaySeconds?: number;
}

const trimSlash = (value: string) => value.replace(/\/+$/, '');

/**
 * Decodes the id_token (jwt-decode) and checks iss, aud (and azp), exp and nonce. The signature is
 * not verified here: the token comes straight from the token endpoint over the channel we opened
 * (OpenID Connect Core 3.1.3.7, item 6), and the checks below keep a token minted for another
 * client, issuer or attempt from being accepted. Each failing check throws its own IdTokenError.
 */
export function validateIdToken(idToken: string, expected: IdTokenExpectations): IdTokenClaims {
  let claims: IdTokenClaims;
  try {
    claims = jwtDecode<IdTokenClaims>(idToken);
  } catch {
    throw new IdTokenError('format', l10n.t('The identity token from the server is not a valid JWT.'));
  }
  const leeway = (expected.leewaySeconds ?? 60) * 1000;

  if (typeof claims.iss !== 'string' || trimSlash(claims.iss) !== trimSlash(expected.issuer)) {
    throw new IdTokenError('iss', l10n.t('The identity token was issued by {0}, not by the configured server {1}.', String(claims.iss), expected.issuer));
  }
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(expected.clientId)) {
    throw new IdTokenError('aud', l10n.t('The identity token is meant for another application, not for client {0}.', expected.clientId));
  }
  if (audiences.length > 1 && claims.azp !== undefined && claims.azp !== expected.clientId) {
    throw new IdTokenError('azp', l10n.t('The identity token was issued to another application (azp).'));
  }
  if (typeof claims.exp !== 'number' || claims.exp * 1000 + leeway < expected.now) {
    throw new IdTokenError('exp', l10n.t('The identity token has expired. Check that this computer\'s clock is right, then sign in again.'));
  }
  if (typeof claims.iat === 'number' && claims.iat * 1000 - leeway > expected.now) {
    throw new IdTokenError('iat', l10n.t('The identity token was issued in the future. Check that this computer\'s clock is right.'));
  }
  if (expected.nonce !== undefined && claims.nonce !== expected.nonce) {
    throw new IdTokenError('nonce', l10n.t('The identity token does not belong to this sign-in attempt (nonce mismatch).'));
  }
  if (typeof claims.sub !== 'string' || claims.sub === '') {
    throw new IdTokenError('sub', l10n.t('The identity token names no user (sub).'));
  }
  return claims;
}
