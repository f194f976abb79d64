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
  const drop = new Set(CREDENTIAL_HEADERS.map((name) => name.toLowerCase()));
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !drop.has(name.toLowerCase())));
}
