import { randomBytes } from 'node:crypto';
import pkceChallenge from 'pkce-challenge';

/** Everything one authorization request needs; the secrets stay in memory for the attempt only. */
export interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  scopes: readonly string[];
  state: string;
  nonce: string;
  codeChallenge: string;
  /** vscode.env.language, e.g. "it" or "en-US". */
  uiLocales?: string;
  loginHint?: string;
  /** prompt=login: show the sign-in form even when the browser already has a session. */
  forceLogin?: boolean;
  /** acr_values=tenant:<tenantId>. */
  tenantId?: string;
}

export interface AttemptSecrets {
  state: string;
  nonce: string;
  codeVerifier: string;
  codeChallenge: string;
}

/** 32 random bytes, base64url: unguessable state and nonce. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** A fresh state, nonce and PKCE pair (S256) for one attempt. */
export async function createAttemptSecrets(): Promise<AttemptSecrets> {
  const { code_verifier, code_challenge } = await pkceChallenge(64);
  return { state: randomToken(), nonce: randomToken(), codeVerifier: code_verifier, codeChallenge: code_challenge };
}

/** The authorize URL (spec 4.1): code flow with PKCE S256, never plain. */
export function buildAuthorizeUrl(authorizationEndpoint: string, request: AuthorizeRequest): string {
  const url = new URL(authorizationEndpoint);
  const set = (name: string, value: string | undefined) => {
    if (value !== undefined && value !== '') url.searchParams.set(name, value);
  };
  set('client_id', request.clientId);
  set('redirect_uri', request.redirectUri);
  set('response_type', 'code');
  set('scope', request.scopes.join(' '));
  set('state', request.state);
  set('nonce', request.nonce);
  set('code_challenge', request.codeChallenge);
  set('code_challenge_method', 'S256');
  set('ui_locales', request.uiLocales);
  set('login_hint', request.loginHint);
  if (request.forceLogin) set('prompt', 'login');
  if (request.tenantId) set('acr_values', `tenant:${request.tenantId}`);
  return url.toString();
}
