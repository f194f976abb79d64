import * as l10n from '../common/l10n';
import { isLoopbackHost } from '../common/loopbackHost';

/** The endpoints of a discovery document the extension may send secrets to or take answers from. */
export const CHECKED_ENDPOINTS = [
  'authorization_endpoint',
  'token_endpoint',
  'userinfo_endpoint',
  'revocation_endpoint',
  'device_authorization_endpoint',
  'jwks_uri',
] as const;

const withoutTrailingSlash = (value: string) => value.replace(/\/+$/, '');

/**
 * Why a discovery document must not be used, or undefined when it may be.
 * - Its `issuer` must be the configured authUrl (OpenID Connect Discovery 4.3): a document that names
 *   another issuer belongs to another server (mix-up). Only a trailing slash may differ, because the
 *   setting is stored without one.
 * - Every endpoint it names must be https, or http on this computer: the code, the PKCE verifier and
 *   the client secret go to the token endpoint, and the id_token is taken without a signature check
 *   only because it comes over TLS from there (OpenID Connect Core 3.1.3.7).
 */
export function discoveryProblem(document: Record<string, unknown>, authUrl: string): string | undefined {
  const issuer = document.issuer;
  if (typeof issuer !== 'string' || !issuer) {
    return l10n.t('The discovery document of the authorization server names no issuer. Sign-in stopped.');
  }
  if (withoutTrailingSlash(issuer) !== withoutTrailingSlash(authUrl)) {
    return l10n.t(
      'The discovery document names the issuer {0}, but tenantApi.authUrl is {1}. Sign-in stopped: the document may belong to another server.',
      issuer.slice(0, 200),
      authUrl,
    );
  }
  for (const name of CHECKED_ENDPOINTS) {
    const value = document[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !isSafeEndpoint(value)) {
      return l10n.t(
        'The discovery document names an unsafe {0}: {1}. Endpoints must use https (plain http only on this computer). Sign-in stopped.',
        name,
        String(value).slice(0, 200),
      );
    }
  }
  return undefined;
}

function isSafeEndpoint(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
}

/**
 * RFC 9207: the `iss` of an authorization response must be the issuer, and must be there when the
 * server says it sends it (authorization_response_iss_parameter_supported). Returns why not, or undefined.
 */
export function callbackIssuerProblem(iss: string | undefined, issuer: string, issSupported: boolean): string | undefined {
  if (iss === undefined) {
    return issSupported
      ? l10n.t('The sign-in answer does not say which server sent it, although this server always does (RFC 9207). It was refused.')
      : undefined;
  }
  if (withoutTrailingSlash(iss) !== withoutTrailingSlash(issuer)) {
    return l10n.t('The sign-in answer came from another server ({0}).', iss.slice(0, 200));
  }
  return undefined;
}
