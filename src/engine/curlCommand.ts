/**
 * The one cURL builder: a POSIX-shell command for a request. The bearer token and the licence key are
 * masked as shell variables unless their values are given ($TENANT_API_TOKEN, and the runner's
 * $TENANT_API_KEY_<MODULE> when the module is known, else $TENANT_API_KEY); the
 * headers the client adds come from the header policy (src/api/requestHeaders.ts clientHeaders).
 */
import { clientHeaders } from '../api/requestHeaders';
import type { RouteRule, TenantRecord } from '../api/types';
import type { PreparedRequest } from './prepare';

export interface CurlRequest {
  method: string;
  /** Full URL, query included. */
  url: string;
  /** Headers as sent; the values of Authorization and Authorization-Key are ignored (they are masked or replaced). */
  headers: Record<string, string>;
  body?: string;
}

export interface CurlSecrets {
  /** The access token to include; masked when undefined. */
  token?: string;
  /** The licence key to include; masked when undefined. */
  licenceKey?: string;
  /** The shell variable a masked licence key is read from (default $TENANT_API_KEY). */
  keyVariable?: string;
  /** Headers whose values are read from shell variables: header name → variable name. */
  fromVariables?: Readonly<Record<string, string>>;
}

export { TOKEN_VARIABLE } from '../common/secretVariables';
import { licenceKeyVariable, TOKEN_VARIABLE } from '../common/secretVariables';
/** The licence key's variable when the module is not known. */
export const KEY_VARIABLE = 'TENANT_API_KEY';

/** The shell variable of a module's licence key: the one the runner reads, so the command runs in the same CI job. */
export function keyVariableOf(module: string | undefined): string {
  return module ? licenceKeyVariable(module) : KEY_VARIABLE;
}

/** Headers cURL sets by itself, or that would be wrong when copied. */
const SKIPPED_HEADERS = new Set(['content-length', 'host', 'connection', 'accept-encoding', 'cookie']);

export function buildCurlCommand(request: CurlRequest, secrets: CurlSecrets = {}): string {
  const method = request.method.toUpperCase();
  const first = ['curl'];
  if (method === 'HEAD') first.push('--head');
  else if (method !== 'GET') first.push('-X', method);
  first.push(quote(request.url));
  const lines = [first.join(' ')];
  const sendsBody = request.body !== undefined && method !== 'GET' && method !== 'HEAD';
  for (const name of Object.keys(request.headers).sort(compareHeaders)) {
    const lower = name.toLowerCase();
    if (SKIPPED_HEADERS.has(lower)) continue;
    // A Content-Type describes a body: without one it only misleads whoever reads the command.
    if (lower === 'content-type' && !sendsBody) continue;
    if (lower === 'authorization') {
      lines.push(
        '-H ' +
          (secrets.token !== undefined ? quote(`${name}: Bearer ${secrets.token}`) : `"${name}: Bearer \$${TOKEN_VARIABLE}"`),
      );
    } else if (lower === 'authorization-key') {
      lines.push(
        '-H ' + (secrets.licenceKey !== undefined ? quote(`${name}: ${secrets.licenceKey}`) : `"${name}: \$${secrets.keyVariable ?? KEY_VARIABLE}"`),
      );
    } else if (secrets.fromVariables?.[name]) {
      lines.push(`-H "${name}: \$${secrets.fromVariables[name]}"`);
    } else {
      lines.push('-H ' + quote(`${name}: ${request.headers[name]}`));
    }
  }
  if (sendsBody) {
    lines.push('--data-raw ' + quote(request.body!));
  }
  return lines.join(' \\\n  ');
}

/** True when the command still refers to a masked variable, so the user must export it first. */
export function usesMaskedVariables(command: string): boolean {
  // $TENANT_API_KEY is also the start of every module's variable ($TENANT_API_KEY_CORE).
  return command.includes(`$${TOKEN_VARIABLE}`) || command.includes(`$${KEY_VARIABLE}`);
}

/** Single-quotes a word for a POSIX shell ('it'\''s'). */
export function quote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

const HEADER_ORDER = ['accept', 'content-type', 'authorization', 'authorization-key', 'user-tenant'];

function compareHeaders(a: string, b: string): number {
  const rank = (name: string) => {
    const index = HEADER_ORDER.indexOf(name.toLowerCase());
    return index === -1 ? HEADER_ORDER.length : index;
  };
  return rank(a) - rank(b) || a.localeCompare(b);
}

/** A platform path as the client would send it: the headers it adds (credentials masked), then the user's. */
export function curlForPath(
  request: { method: string; url: string; headers?: Record<string, string>; body?: string },
  route: RouteRule | undefined,
  tenantId: string | undefined,
): string {
  const headers = { ...clientHeaders(route, { token: '', tenantId }), ...request.headers };
  return buildCurlCommand({ method: request.method, url: request.url, headers, body: request.body }, { keyVariable: keyVariableOf(route?.module) });
}

export interface CurlTarget {
  baseUrl: string;
  route?: RouteRule;
  tenant?: TenantRecord;
}

/** Copy as cURL for a request of a file: the address the client would call (or the other host's, with no credentials), the body. */
export function curlForPrepared(prepared: PreparedRequest, target: CurlTarget): string {
  let command: string;
  if (prepared.target.kind === 'absolute') {
    const headers = { Accept: 'application/json', ...(prepared.body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...prepared.headers };
    command = buildCurlCommand({ method: prepared.method, url: prepared.target.url.href, headers, body: prepared.body });
  } else {
    const origin = target.route?.host === 'cluster' ? (target.tenant?.clusterAddress ?? '') : target.baseUrl;
    const url = origin.replace(/\/+$/, '') + prepared.target.path;
    command = curlForPath({ method: prepared.method, url, headers: prepared.headers, body: prepared.body }, target.route, target.tenant?.id);
  }
  for (const secret of prepared.secrets) command = command.split(secret).join('***');
  return command;
}
