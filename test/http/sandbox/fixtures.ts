// Shared bits of the sandbox conformance suite.
import type { Sandbox } from '../../sandbox/types';

export interface CallOptions {
  token?: string;
  key?: string;
  tenant?: string;
  headers?: Record<string, string>;
  method?: string;
  body?: string;
}

export interface CallResult {
  status: number;
  headers: Headers;
  limitInfo: string | null;
  json: Record<string, unknown> & { error?: string; message?: string; limit?: string };
  text: string;
}

/** A resource-API call with the spec's headers. */
export async function call(url: string, options: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json', ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  if (options.key !== undefined) headers['authorization-key'] = options.key;
  if (options.tenant !== undefined) headers['user-tenant'] = options.tenant;
  const res = await fetch(url, { method: options.method ?? 'GET', headers, body: options.body });
  const text = await res.text();
  let json: CallResult['json'] = {};
  try {
    json = JSON.parse(text);
  } catch {
    // left empty: the test looks at text
  }
  return { status: res.status, headers: res.headers, limitInfo: res.headers.get('service-limit-info'), json, text };
}

export function keyOf(sandbox: Sandbox, organizationId: string, module: string): string {
  const key = sandbox.licenceKeys.find((k) => k.organizationId === organizationId && k.module === module);
  if (!key) throw new Error(`no ${module} key for ${organizationId}`);
  return key.key;
}

export function userOf(sandbox: Sandbox, username: string) {
  const user = sandbox.users.find((u) => u.username === username);
  if (!user) throw new Error(`no user ${username}`);
  return user;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function decodeJwt(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
}

export const LIMIT_HEADER = /^api-usage=(\d+)\/(\d+)$/;
