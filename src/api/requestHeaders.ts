import * as l10n from '../common/l10n';

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

/** Headers that must not follow a redirect to another origin. */
export const CREDENTIAL_HEADERS: readonly string[] = [HEADER.authorization, HEADER.licenceKey, HEADER.tenant];

const SECRET_HEADER = /^(authorization|authorization-key|proxy-authorization|cookie|set-cookie)$|token|secret|password|api-?key|auth/i;

/** Whether a header's value is a secret by its name: never kept in history, masked wherever it is shown. */
export function isSecretHeader(name: string): boolean {
  return SECRET_HEADER.test(name.trim());
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

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
    if (!TOKEN.test(name)) throw new Error(l10n.t('"{0}" is not a valid header name.', name.slice(0, 100)));
    const value = String(rawValue);
    if (/[\r\n\0]/.test(value)) throw new Error(l10n.t('The value of the header {0} contains a line break.', name));
    if (PROTECTED.has(name.toLowerCase())) {
      warnings.push(l10n.t('The header {0} is set by the extension; your value was ignored.', name));
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

export function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return crossOriginHeaders(headers, []).headers;
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
