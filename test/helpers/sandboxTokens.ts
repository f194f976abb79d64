// Quick tokens for tests against the sandbox.
//   tokensFor(sandbox, 'mario.rossi')            -> public client, authorization code + PKCE (S256)
//   tokensFor(sandbox, 'mario.rossi', { grant: 'password' }) -> the password test client
import { createHash, randomBytes } from 'node:crypto';

import type { Sandbox } from '../sandbox/types';
import { FormBrowser } from './signInWithForm';

export interface SandboxTokens {
  accessToken: string;
  refreshToken?: string;
  idToken?: string;
  expiresIn: number;
  scope: string;
  tokenType: string;
  /** The redirect_uri used (code flow only). */
  redirectUri?: string;
}

export interface TokensForOptions {
  grant?: 'code' | 'password';
  scope?: string;
  /** acr_values tenant:<id>. */
  tenantId?: string;
  redirectUri?: string;
  /** Reuse a browser (session cookies) between sign-ins. */
  browser?: FormBrowser;
}

export const DEFAULT_SCOPE = 'openid profile offline_access api';
export const TEST_REDIRECT_URI = 'http://127.0.0.1:9/auth-callback';

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function basicAuth(clientId: string, clientSecret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`;
}

export async function postToken(sandbox: Sandbox, body: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(sandbox.endpoints.token, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...headers },
    body: new URLSearchParams(body),
  });
  const text = await res.text();
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = { error: 'non_json', error_description: text.slice(0, 200) };
  }
  return { status: res.status, json };
}

export function authorizeUrl(sandbox: Sandbox, params: Record<string, string | undefined>): URL {
  const url = new URL(sandbox.endpoints.authorization);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url;
}

export async function tokensFor(sandbox: Sandbox, username: string, options: TokensForOptions = {}): Promise<SandboxTokens> {
  const user = sandbox.users.find((u) => u.username === username);
  if (!user) throw new Error(`No sandbox user ${username}`);
  const scope = options.scope ?? DEFAULT_SCOPE;
  if (options.grant === 'password') {
    const { clientId, clientSecret } = sandbox.clients.password;
    const { status, json } = await postToken(sandbox, {
      grant_type: 'password', username, password: user.password, scope,
      ...(options.tenantId ? { acr_values: `tenant:${options.tenantId}` } : {}),
    }, { authorization: basicAuth(clientId, clientSecret) });
    if (status !== 200) throw new Error(`password grant failed (${status}): ${JSON.stringify(json)}`);
    return toTokens(json);
  }
  const redirectUri = options.redirectUri ?? TEST_REDIRECT_URI;
  const { verifier, challenge } = pkcePair();
  const state = randomBytes(8).toString('hex');
  const url = authorizeUrl(sandbox, {
    client_id: sandbox.clients.public.clientId, response_type: 'code', scope, redirect_uri: redirectUri, state,
    nonce: scope.split(' ').includes('openid') ? randomBytes(8).toString('hex') : undefined, code_challenge: challenge, code_challenge_method: 'S256',
    acr_values: options.tenantId ? `tenant:${options.tenantId}` : undefined,
  });
  const browser = options.browser ?? new FormBrowser();
  const { params } = await browser.signIn(url, { username, password: user.password });
  if (params.get('state') !== state) throw new Error(`state mismatch in redirect: ${params.toString()}`);
  const code = params.get('code');
  if (!code) throw new Error(`no code in redirect: ${params.toString()}`);
  const { status, json } = await postToken(sandbox, {
    grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: sandbox.clients.public.clientId, code_verifier: verifier,
  });
  if (status !== 200) throw new Error(`code exchange failed (${status}): ${JSON.stringify(json)}`);
  return { ...toTokens(json), redirectUri };
}

function toTokens(json: Record<string, unknown>): SandboxTokens {
  return {
    accessToken: String(json.access_token),
    refreshToken: json.refresh_token as string | undefined,
    idToken: json.id_token as string | undefined,
    expiresIn: Number(json.expires_in),
    scope: String(json.scope ?? ''),
    tokenType: String(json.token_type ?? 'Bearer'),
  };
}
