/**
 * Checks and parsing for what the user types (or a script passes) to tenantApi.sendRequest.
 * Returns messages a person understands; no `vscode` here.
 */
import { invalidHeaderName, isCredentialHeader, isHeaderName } from '../api/requestHeaders';
import * as l10n from '../common/l10n';
import type { RouteRule } from '../api/types';
import { parseQuery } from './requestHistory';
import { jsonSyntaxProblem } from '../engine/jsonBody';
import { parseTarget } from '../engine/prepare';
import { closestMethod } from '../engine/parser';

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

export function methodTakesBody(method: string): boolean {
  return ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method.toUpperCase());
}

/** The argument object of tenantApi.sendRequest (scripts, tests, history, the tree). */
export interface SendRequestArgs {
  method: string;
  path: string;
  tenantId?: string;
  query?: Record<string, string | number | boolean> | string;
  /** JSON text, or any value to send as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Send even when the organization's last known usage reached its limit. */
  sendOverQuota?: boolean;
  /** Do not open the response tab (scripts that only want the summary). */
  preview?: boolean;
  /** Send a static resource even when its answer is cached (a response tab's Refresh). */
  bypassCache?: boolean;
}

export interface NormalizedRequest {
  method: string;
  path: string;
  tenantId?: string;
  query: Record<string, string>;
  /** The body as JSON text (what history keeps), undefined when there is none. */
  bodyText?: string;
  /** The value to send. */
  body?: unknown;
  headers: Record<string, string>;
  /** Headers dropped because the client sets them (the user is told). */
  droppedHeaders: string[];
  sendOverQuota: boolean;
  preview: boolean;
  /** A rule answered for this request only (a path no rule matches, "this time only"); else the route table's. */
  route?: RouteRule;
  /** Send a static resource even when its answer is cached. */
  bypassCache?: boolean;
}

export class RequestInputError extends Error {
  override readonly name = 'RequestInputError';
}

export function validateMethod(value: string): string | undefined {
  const method = value.trim().toUpperCase();
  if (!/^[A-Z]+$/.test(method)) return l10n.t('A method is a word such as GET or POST.');
  if (!(METHODS as readonly string[]).includes(method)) {
    // The suggestion is the request files' (engine/parser.ts), among the methods Send Request sends.
    const closest = closestMethod(method);
    if (closest && (METHODS as readonly string[]).includes(closest)) return l10n.t('Unsupported method {0}: did you mean {1}? Use one of: {2}.', method, closest, METHODS.join(', '));
    return l10n.t('Unsupported method {0}. Use one of: {1}.', method, METHODS.join(', '));
  }
  return undefined;
}

/**
 * An http(s) address typed whole, as request files take them: one on a platform host is sent as its
 * path, any other without credentials (src/engine/prepare.ts decides which).
 */
export function isAddress(path: string): boolean {
  return /^https?:\/\//i.test(path.trim());
}

export function validatePath(value: string): string | undefined {
  const path = value.trim();
  if (path === '') return l10n.t('Enter a path, for example /api/configurazioni.');
  if (/\s/.test(path)) return l10n.t('The path must not contain spaces (encode them as %20).');
  if (isAddress(path)) {
    const target = parseTarget(path);
    return target.ok ? undefined : target.message;
  }
  if (/^\/\//.test(path) || /^[a-z][a-z0-9+.-]*:/i.test(path)) return l10n.t('"{0}" is neither a path starting with "/" nor an http(s) address.', path.slice(0, 200));
  if (!path.startsWith('/')) return l10n.t('The path must start with "/".');
  return undefined;
}

/** The sentence a request file's problem uses: where the body breaks, as line and column of the body. */
export function validateJsonBody(value: string): string | undefined {
  if (value.trim() === '') return undefined;
  const problem = jsonSyntaxProblem(value);
  return problem && l10n.t('The body is not valid JSON: {0} (line {1}, column {2})', problem.message, problem.line + 1, problem.column + 1);
}

/**
 * Extra headers typed as `Name: value`, separated by new lines or ";". Returns the headers or
 * a message; a credential header is refused here (the quick input shows why).
 */
export function parseHeaderText(text: string): { headers: Record<string, string> } | { error: string } {
  const headers: Record<string, string> = {};
  for (const raw of text.split(/[\n;]/)) {
    const line = raw.trim();
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return { error: l10n.t('Write each header as "Name: value" ({0}).', line) };
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (!isHeaderName(name)) return { error: invalidHeaderName(name) };
    if (isCredentialHeader(name)) {
      return { error: l10n.t('{0} is set by the extension from your sign-in, licence key and tenant; it cannot be replaced.', name) };
    }
    headers[name] = value;
  }
  return { headers };
}

/**
 * A request typed on one line, as in a request file: `GET /efat/api/v1/ditte?pagina=1`. The method is
 * optional (a bare path is a GET, as in a request file: a read, never a write by default); the query
 * may follow the path. Returns what it holds, or a message saying what is wrong.
 */
export function parseRequestLine(line: string): { method: string; path: string; query: Record<string, string> } | { error: string } {
  const text = line.trim();
  const words = /^([A-Za-z]+)\s+(\S.*)$/.exec(text);
  const method = words ? words[1].toUpperCase() : 'GET';
  if (words) {
    const methodError = validateMethod(method);
    if (methodError) return { error: methodError };
  }
  const split = splitPathAndQuery(words ? words[2] : text);
  const pathError = validatePath(split.path);
  if (pathError) return { error: pathError };
  return { method, path: split.path, query: split.query };
}

/** Splits "/path?a=1" into path and query. */
export function splitPathAndQuery(value: string): { path: string; query: Record<string, string> } {
  const trimmed = value.trim();
  const mark = trimmed.indexOf('?');
  if (mark === -1) return { path: trimmed, query: {} };
  return { path: trimmed.slice(0, mark), query: parseQuery(trimmed.slice(mark + 1)) };
}

/** Checks a scripted argument object; throws RequestInputError with a clear message. */
export function normalizeArgs(args: unknown): NormalizedRequest {
  if (typeof args !== 'object' || args === null) {
    throw new RequestInputError(l10n.t('Send Request expects an object such as {"method": "GET", "path": "/api/configurazioni"}.'));
  }
  const input = args as Partial<SendRequestArgs>;
  if (typeof input.method !== 'string') throw new RequestInputError(l10n.t('The request has no method.'));
  if (typeof input.path !== 'string') throw new RequestInputError(l10n.t('The request has no path.'));
  const methodError = validateMethod(input.method);
  if (methodError) throw new RequestInputError(methodError);
  const split = splitPathAndQuery(input.path);
  const pathError = validatePath(split.path);
  if (pathError) throw new RequestInputError(pathError);
  const method = input.method.trim().toUpperCase();

  const query: Record<string, string> = { ...split.query };
  if (typeof input.query === 'string') Object.assign(query, parseQuery(input.query));
  else if (input.query && typeof input.query === 'object') {
    for (const [name, value] of Object.entries(input.query)) {
      if (value !== undefined && value !== null) query[name] = String(value);
    }
  }

  let body: unknown;
  let bodyText: string | undefined;
  if (input.body !== undefined && input.body !== null && input.body !== '') {
    if (!methodTakesBody(method)) throw new RequestInputError(l10n.t('A {0} request has no body.', method));
    if (typeof input.body === 'string') {
      const bodyError = validateJsonBody(input.body);
      if (bodyError) throw new RequestInputError(bodyError);
      bodyText = input.body;
      body = input.body;
    } else {
      bodyText = JSON.stringify(input.body);
      body = input.body;
    }
  }

  const headers: Record<string, string> = {};
  const droppedHeaders: string[] = [];
  if (input.headers !== undefined) {
    if (typeof input.headers !== 'object' || input.headers === null) {
      throw new RequestInputError(l10n.t('Headers must be an object of names and values.'));
    }
    for (const [name, value] of Object.entries(input.headers)) {
      if (isCredentialHeader(name)) droppedHeaders.push(name);
      else headers[name] = String(value);
    }
  }
  if (input.tenantId !== undefined && typeof input.tenantId !== 'string') {
    throw new RequestInputError(l10n.t('tenantId must be a string.'));
  }
  return {
    method,
    path: split.path,
    tenantId: input.tenantId?.trim() || undefined,
    query,
    body,
    bodyText,
    headers,
    droppedHeaders,
    sendOverQuota: input.sendOverQuota === true,
    preview: input.preview !== false,
    ...(input.bypassCache === true ? { bypassCache: true } : {}),
  };
}
