/**
 * The one header policy: which headers the client sets (and the user's values never replace), which
 * carry credentials, the header-name syntax, the wording for a dropped header. No `vscode` here.
 */
import * as l10n from '../common/l10n';
import type { RouteRule } from './types';

export const HEADER = {
  accept: 'Accept',
  contentType: 'Content-Type',
  authorization: 'Authorization',
  licenceKey: 'Authorization-Key',
  tenant: 'User-Tenant',
} as const;

/** Headers the client sets itself; a user's extra header never replaces them. */
const PROTECTED = new Set(
  [...Object.values(HEADER), 'Host', 'Content-Length', 'Cookie', 'Transfer-Encoding', 'Connection'].map((name) => name.toLowerCase()),
);

/** Headers that carry the user's credentials: never written by a user or a file, never sent to another origin. */
export const CREDENTIAL_HEADERS: readonly string[] = [HEADER.authorization, HEADER.licenceKey, HEADER.tenant];
const CREDENTIAL_SET = new Set(CREDENTIAL_HEADERS.map((name) => name.toLowerCase()));

export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_SET.has(name.trim().toLowerCase());
}

/** The one sentence for a header the user wrote and the extension did not send. */
export function droppedHeaderWarning(name: string): string {
  return l10n.t('The header {0} is set by the extension; your value was ignored.', name);
}

/**
 * The headers the client adds to a call on `route` (cURL shows the same ones): JSON, the token, the
 * module's licence key, and User-Tenant for a tenant-scoped route called for a tenant.
 */
export function clientHeaders(route: RouteRule | undefined, values: { token: string; licenceKey?: string; tenantId?: string }): Record<string, string> {
  const headers: Record<string, string> = {
    [HEADER.accept]: 'application/json',
    [HEADER.contentType]: 'application/json',
    [HEADER.authorization]: `Bearer ${values.token}`,
  };
  if (route?.module) headers[HEADER.licenceKey] = values.licenceKey ?? '';
  if (route?.tenantScoped && values.tenantId) headers[HEADER.tenant] = values.tenantId;
  return headers;
}

const SECRET_HEADER = /^(authorization|authorization-key|proxy-authorization|cookie|set-cookie)$|token|secret|password|api-?key|auth/i;

/** Whether a header's value is a secret by its name: never kept in history, masked wherever it is shown. */
export function isSecretHeader(name: string): boolean {
  return SECRET_HEADER.test(name.trim());
}

/** A header name: an RFC 9110 token (the request-file parser reads header lines with it too). */
export const HEADER_NAME_PATTERN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const HEADER_NAME = new RegExp(`^${HEADER_NAME_PATTERN}$`);

export function isHeaderName(name: string): boolean {
  return HEADER_NAME.test(name);
}

export function invalidHeaderName(name: string): string {
  return l10n.t('"{0}" is not a valid header name.', name.slice(0, 100));
}

export interface ExtraHeaders {
  headers: Record<string, string>;
  warnings: string[];
}

/**
 * Checks the user's extra headers: a malformed one is an error (thrown as a sentence), a protected one
 * is dropped with a warning the response carries.
 */
export function checkExtraHeaders(extra: Record<string, string> | undefined): ExtraHeaders {
  const headers: Record<string, string> = {};
  const warnings: string[] = [];
  for (const [name, rawValue] of Object.entries(extra ?? {})) {
    if (!isHeaderName(name)) throw new Error(invalidHeaderName(name));
    const value = String(rawValue);
    if (/[\r\n\0]/.test(value)) throw new Error(l10n.t('The value of the header {0} contains a line break.', name));
    if (PROTECTED.has(name.toLowerCase())) {
      warnings.push(droppedHeaderWarning(name));
      continue;
    }
    headers[name] = value;
  }
  return { headers, warnings };
}

/** A copy fit for display and history: the token and the licence key replaced. */
export function maskHeaders(headers: Record<string, string>, keyLabel?: string): Record<string, string> {
  const masked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'authorization') masked[name] = value.startsWith('Bearer ') ? 'Bearer ***' : '***';
    else if (lower === 'authorization-key') masked[name] = keyLabel ? `*** (${keyLabel})` : '***';
    else masked[name] = value;
  }
  return masked;
}

/**
 * What goes on to another origin after a redirect: none of the credentials and none of the headers the
 * user wrote (`userHeaders`), as a browser drops Authorization: a header of the user's own may be a
 * secret whose name says nothing. Returns the headers kept and the names dropped, as written.
 */
export function crossOriginHeaders(headers: Record<string, string>, userHeaders: readonly string[]): { headers: Record<string, string>; dropped: string[] } {
  const drop = new Set([...CREDENTIAL_HEADERS, ...userHeaders].map((name) => name.toLowerCase()));
  const kept: Record<string, string> = {};
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (drop.has(name.toLowerCase())) dropped.push(name);
    else kept[name] = value;
  }
  return { headers: kept, dropped };
}

/** The one note, in the response's header block, of the headers a redirect to another host did not carry. */
export function droppedOnRedirectNote(host: string, dropped: readonly string[]): string {
  return l10n.t('Not sent on to {0} (a redirect to another host): {1}.', host, dropped.join(', '));
}
