/**
 * Builds a POSIX-shell cURL command for a request. The bearer token and the licence key are
 * masked as shell variables ($TENANT_API_TOKEN, $TENANT_API_KEY) unless their values are given.
 */

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
}

export const TOKEN_VARIABLE = 'TENANT_API_TOKEN';
export const KEY_VARIABLE = 'TENANT_API_KEY';

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
        '-H ' + (secrets.licenceKey !== undefined ? quote(`${name}: ${secrets.licenceKey}`) : `"${name}: \$${KEY_VARIABLE}"`),
      );
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
