/**
 * Turns a parsed request into what is sent: variables filled, credential headers taken out, the URL
 * split into a platform path (the route table picks the host and the credentials) or an absolute
 * address. No `vscode` here.
 */
import { isCredentialHeader } from '../api/requestHeaders';
import * as l10n from '../common/l10n';
import type { ParsedFile, ParsedRequest } from './parser';
import { isHttpMethod, tenantOf } from './parser';
import { pinnedTenant, splitTenants } from './tenantList';
import { resolveText, type ReferenceProblem, type VariableSources } from './variables';

/** The client sets these to JSON itself; a file that asks for JSON too needs no warning about them. */
const JSON_DEFAULTS = new Set(['content-type', 'accept']);

export type RequestTarget =
  /** `/efat/api/v1/ditte?x=1`: a path (query included) sent through the route table. */
  | { kind: 'path'; path: string }
  | { kind: 'absolute'; url: URL };

export interface PreparedRequest {
  method: string;
  target: RequestTarget;
  /** Header names as written, credential headers removed. */
  headers: Record<string, string>;
  droppedCredentialHeaders: string[];
  body?: string;
  /** The tenant it is sent for (code, description or id): the one `@tenant` names, else the matrix cell's, else none (the active one). */
  tenant?: string;
  /** `@tenant` as resolved, split (`RC-MI, RC-TO`, `*`): more than one, or `*`, makes the request a matrix. */
  tenants: string[];
  /** References that could not be filled; the request is not sent while there are any. */
  problems: ReferenceProblem[];
  /** Values to mask wherever the request is shown. */
  secrets: string[];
}

export type PrepareOutcome = { ok: true; request: PreparedRequest } | { ok: false; message: string; problems: ReferenceProblem[] };

export interface PrepareOptions {
  /** Reads `< ./body.json` relative to the request file; throws with a sentence when it cannot. */
  readBodyFile(path: string): string;
  /** The tenant of the matrix cell being run: sent for unless the request names exactly one tenant. */
  tenant?: string;
}

export function prepareRequest(file: ParsedFile, request: ParsedRequest, sources: VariableSources, options: PrepareOptions): PrepareOutcome {
  if (!isHttpMethod(request.method)) return { ok: false, message: l10n.t('Unknown method "{0}": nothing was sent.', request.method), problems: [] };
  const problems: ReferenceProblem[] = [];
  const secrets: string[] = [];
  const fill = (text: string) => {
    const resolved = resolveText(text, sources);
    problems.push(...resolved.problems);
    secrets.push(...resolved.secrets);
    return resolved.text;
  };

  const url = fill(request.url).trim();
  const headers: Record<string, string> = {};
  const dropped: string[] = [];
  for (const header of request.headers) {
    const value = fill(header.value);
    if (isCredentialHeader(header.name)) {
      dropped.push(header.name);
      continue;
    }
    if (JSON_DEFAULTS.has(header.name.toLowerCase()) && /^application\/json\b/i.test(value)) continue;
    headers[header.name] = value;
  }

  let body: string | undefined;
  if (request.body?.kind === 'inline') body = fill(request.body.text);
  else if (request.body?.kind === 'file') {
    let content: string;
    try {
      content = options.readBodyFile(fill(request.body.path));
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : String(error), problems };
    }
    body = request.body.substitute ? fill(content) : content;
  }
  // Multipart parts are delimited by CRLF (RFC 7578); a request file's lines end with LF.
  const contentType = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  if (body !== undefined && contentType && /^multipart\//i.test(contentType)) body = body.replace(/\r?\n/g, '\r\n').replace(/(?<!\r\n)$/, '\r\n');
  const tenants = splitTenants(fill(tenantOf(file, request) ?? ''));
  // Outside a matrix (a watch, Copy as cURL) a list stands for its first tenant.
  const tenant = pinnedTenant(tenants) ?? options.tenant ?? tenants.find((name) => pinnedTenant([name]) !== undefined);

  if (problems.length > 0) return { ok: false, message: problems[0].message, problems };
  const target = parseTarget(url);
  if (!target.ok) return { ok: false, message: target.message, problems };
  return {
    ok: true,
    request: { method: request.method, target: target.target, headers, droppedCredentialHeaders: dropped, body, tenant, tenants, problems, secrets },
  };
}

/** The tenants a request names (`@tenant`, its variables filled; [] when it names none or they cannot be filled yet). */
export function requestTenants(file: ParsedFile, request: ParsedRequest, sources: VariableSources): string[] {
  const resolved = resolveText(tenantOf(file, request) ?? '', sources);
  return resolved.problems.length > 0 ? [] : splitTenants(resolved.text);
}

/** A path is encoded (spaces, non-ASCII) the way a browser would; an absolute URL must be http(s). */
export function parseTarget(url: string): { ok: true; target: RequestTarget } | { ok: false; message: string } {
  if (url === '') return { ok: false, message: l10n.t('The request has no URL.') };
  if (url.startsWith('/') && !url.startsWith('//')) {
    const parsed = new URL(url, 'http://path.invalid');
    return { ok: true, target: { kind: 'path', path: parsed.pathname + parsed.search } };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, message: l10n.t('"{0}" is neither a path starting with "/" nor an http(s) address.', url.slice(0, 200)) };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { ok: false, message: l10n.t('"{0}" is neither a path starting with "/" nor an http(s) address.', url.slice(0, 200)) };
  }
  return { ok: true, target: { kind: 'absolute', url: parsed } };
}

/**
 * An absolute URL on the base URL or on the request's tenant cluster is sent as a path, so it gets
 * the platform's credentials through the route table; `where` says which host it named. Anything
 * else is another host: sent without credentials.
 */
export function platformPath(url: URL, hosts: { baseUrl: string; clusterAddress?: string }): { where: 'base' | 'cluster'; path: string } | undefined {
  const candidates: Array<['base' | 'cluster', string | undefined]> = [
    ['base', hosts.baseUrl],
    ['cluster', hosts.clusterAddress],
  ];
  for (const [where, address] of candidates) {
    if (!address) continue;
    let origin: URL;
    try {
      origin = new URL(address);
    } catch {
      continue;
    }
    if (origin.origin !== url.origin) continue;
    const basePath = origin.pathname.replace(/\/+$/, '');
    if (basePath && !(url.pathname === basePath || url.pathname.startsWith(`${basePath}/`))) continue;
    return { where, path: (url.pathname.slice(basePath.length) || '/') + url.search };
  }
  return undefined;
}

/**
 * The platform path a prepared request calls (query included): the path as written, or an absolute
 * URL's when it is on the base URL or the tenant's cluster (platformPath); undefined for another host.
 */
export function platformPathOf(target: RequestTarget, hosts: { baseUrl: string; clusterAddress?: string }): string | undefined {
  return target.kind === 'path' ? target.path : platformPath(target.url, hosts)?.path;
}
