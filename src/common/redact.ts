import * as l10n from './l10n';
import type { Logger } from './logger';

/**
 * Redaction of secrets in anything that may reach a log line or an error message: tokens, codes,
 * PKCE verifiers, client secrets, licence keys, Authorization / Authorization-Key values, JWT-looking
 * strings, and secret-bearing query, form and JSON parameters. Values the extension knows to be secret
 * (tokens it holds, keys it stores) are registered with `registerSecret` and replaced wherever they appear.
 */
export const REDACTED = '[redacted]';

/** The mark that stands for a secret, in the display language (REDACTED in English, and before activation). */
export function redactedMark(): string {
  return l10n.t('[redacted]');
}

const SECRET_PARAMETERS = [
  'code',
  'state',
  'nonce',
  'access_token',
  'refresh_token',
  'id_token',
  'token',
  'code_verifier',
  'code_challenge',
  'client_secret',
  'device_code',
  'user_code',
  'password',
  'authorization_key',
  'assertion',
];

const parameterNames = SECRET_PARAMETERS.join('|');
// name=value in a query string, a fragment or a form body (also URL-encoded inside another URL).
const QUERY_PARAMETER = new RegExp(`((?:^|[?&#\\s;=]|%26|%3F|%3D)(?:${parameterNames})(?:=|%3D))((?:(?!%26)[^&#\\s"'<>])+)`, 'gi');
// "name": "value" in JSON.
const JSON_FIELD = new RegExp(`("(?:${parameterNames}|authorization|authorization-key|clientSecret|accessToken|refreshToken|idToken)"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi');
// Authorization: Bearer x / Basic x / Authorization-Key: x, as a header line or in a headers dump.
const HEADER = /((?:authorization|authorization-key|proxy-authorization|cookie|set-cookie)['"]?\s*[:=]\s*['"]?)(?:(?:bearer|basic|dpop)\s+)?[^\s'",}]+/gi;
const BEARER = /\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi;
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;

const knownSecrets = new Set<string>();

/** Remember a secret value so that it is redacted wherever it appears. Short values are ignored. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 6) knownSecrets.add(value);
}

/** Values shorter than this are not masked where they appear: every "a" of a text would go. */
export const MIN_MASKED_LENGTH = 3;

/**
 * A text with the given values (a request's secret variables) replaced by `mark`: what a request file's
 * secrets look like wherever the request is shown (its tab, the runner's reports and dry run).
 */
export function maskValues(text: string, values: readonly string[], mark = '***'): string {
  return values.reduce((result, value) => (value.length >= MIN_MASKED_LENGTH ? result.split(value).join(mark) : result), text);
}

/**
 * A text's secrets the extension holds (tokens, keys) and JWT-shaped values replaced: what may be shown
 * of a response's data where no secret may go (a webview). The other patterns of `redact` are left
 * out: they read names like "code" or "state", which business data uses for plain values.
 */
export function maskTokens(text: string): string {
  const mark = redactedMark();
  let result = text;
  for (const secret of knownSecrets) if (result.includes(secret)) result = result.split(secret).join(mark);
  return result.replace(JWT, '[redacted-jwt]');
}

export function forgetSecret(value: string | undefined): void {
  if (value) knownSecrets.delete(value);
}

export function redact(text: string): string {
  const mark = redactedMark();
  let result = text;
  for (const secret of knownSecrets) {
    if (result.includes(secret)) result = result.split(secret).join(mark);
  }
  return result
    .replace(JWT, '[redacted-jwt]')
    .replace(JSON_FIELD, `$1"${mark}"`)
    .replace(HEADER, `$1${mark}`)
    .replace(BEARER, `$1 ${mark}`)
    .replace(QUERY_PARAMETER, `$1${mark}`);
}

/** A value of any type as redacted text, for log arguments and error details. */
export function redactValue(value: unknown): string {
  if (value instanceof Error) return redact(`${value.name}: ${value.message}`);
  if (typeof value === 'string') return redact(value);
  try {
    return redact(JSON.stringify(value) ?? String(value));
  } catch {
    return redact(String(value));
  }
}

/** Wraps a logger so that every message and argument passes through `redact`. */
export function redactingLogger(inner: Logger): Logger {
  const line = (message: string | Error, args: unknown[]): string =>
    [redactValue(message), ...args.map(redactValue)].join(' ');
  return {
    trace: (message, ...args) => inner.trace(line(message, args)),
    debug: (message, ...args) => inner.debug(line(message, args)),
    info: (message, ...args) => inner.info(line(message, args)),
    warn: (message, ...args) => inner.warn(line(message, args)),
    error: (message, ...args) => inner.error(line(message, args)),
  };
}
