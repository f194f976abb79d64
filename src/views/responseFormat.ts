/**
 * Builds the text of the read-only response tab: a block of `//` comment lines (method, URL, status,
 * time, size, quota, response headers) followed by the body. The result is valid JSON with comments,
 * so the tab uses the `jsonc` language and keeps folding and highlighting for the body.
 *
 * Large bodies: the body is formatted once, here, and never processed line by line; above
 * `prettyPrintLimitBytes` it is shown as the server sent it (the editor can still format it on request).
 */
import type { ApiResponse } from '../api/types';
import * as l10n from '../common/l10n';
import { redact } from '../common/redact';
import { shownHeaderValue } from './responsePresentation';
import { dateAndTime } from './timeFormat';

/** What the response tab shows: the API client's response, plus how the call went. */
export type ResponseLike = Pick<
  ApiResponse,
  'method' | 'url' | 'status' | 'statusText' | 'headers' | 'bodyText' | 'json' | 'timeMs' | 'sizeBytes'
> &
  Partial<Pick<ApiResponse, 'requestHeaders' | 'licence' | 'cachedAt'>> & {
  attempts?: number;
  warnings?: string[];
};

export interface ResponseFormatOptions {
  /** Bodies up to this size are fully pretty-printed (one value per line). */
  prettyPrintLimitBytes?: number;
  /** Bodies up to this size get the compact layout (see formatCompactJson); larger ones are shown as received. */
  compactLayoutLimitBytes?: number;
  /** When the response arrived (epoch ms), shown in the header block. */
  receivedAt?: number;
  /** Extra lines for the header block, e.g. the tenant the call was made for. */
  context?: string[];
  /** The request as sent: its headers (secret ones are masked here) and its body. */
  request?: { headers: Record<string, string>; bodyText?: string };
  locale?: string;
}

export interface FormattedResponse {
  text: string;
  languageId: 'jsonc' | 'plaintext';
  prettyPrinted: boolean;
}

export const DEFAULT_PRETTY_PRINT_LIMIT_BYTES = 1024 * 1024;
export const DEFAULT_COMPACT_LAYOUT_LIMIT_BYTES = 64 * 1024 * 1024;
/** In the compact layout, a value whose JSON fits in this many characters stays on one line. */
export const COMPACT_LINE_LENGTH = 2000;

export function formatResponse(response: ResponseLike, options: ResponseFormatOptions = {}): FormattedResponse {
  const body = formatBody(
    response,
    options.prettyPrintLimitBytes ?? DEFAULT_PRETTY_PRINT_LIMIT_BYTES,
    options.compactLayoutLimitBytes ?? DEFAULT_COMPACT_LAYOUT_LIMIT_BYTES,
  );
  return composeResponse(response, options, body);
}

/** The header block over a body laid out by the caller (the preview of a large response: responsePreview.ts). */
export function composeResponse(response: ResponseLike, options: ResponseFormatOptions, body: FormattedBody): FormattedResponse {
  const header = headerLines(response, options, body);
  return {
    text: header.map(commentLine).join('\n') + '\n' + body.text + (body.text.endsWith('\n') ? '' : '\n'),
    languageId: body.isJson ? 'jsonc' : 'plaintext',
    prettyPrinted: body.prettyPrinted,
  };
}

export interface FormattedBody {
  text: string;
  isJson: boolean;
  prettyPrinted: boolean;
  /** Laid out with formatCompactJson (a large body). */
  compact?: boolean;
  skippedForSize: boolean;
}

/**
 * Why the layout depends on size: the editor's cost of opening a document grows with its bytes and
 * lines, and a fully pretty-printed 10 MB body is ~30 % larger with ~50 lines per record, while a
 * single 10 MB line is not readable (the editor stops rendering a line after 10,000 characters).
 * The compact layout keeps each record on its own line: about the size of the raw body, readable.
 */
function formatBody(response: ResponseLike, prettyLimit: number, compactLimit: number): FormattedBody {
  const length = response.bodyText.length;
  const tooLarge = length > compactLimit;
  let json = response.json;
  let isJson = json !== undefined;
  if (!isJson && !tooLarge && looksLikeJson(response)) {
    try {
      json = JSON.parse(response.bodyText);
      isJson = true;
    } catch {
      isJson = false;
    }
  }
  if (!isJson) {
    // A large body that says it is JSON is still shown as JSON, unformatted: parsing it here would block.
    const declaredJson = tooLarge && isJsonContentType(response.headers['content-type']);
    return { text: response.bodyText, isJson: declaredJson, prettyPrinted: false, skippedForSize: declaredJson };
  }
  if (tooLarge) {
    return { text: response.bodyText, isJson: true, prettyPrinted: false, skippedForSize: true };
  }
  if (length > prettyLimit) {
    return { text: formatCompactJson(json), isJson: true, prettyPrinted: true, compact: true, skippedForSize: false };
  }
  return { text: JSON.stringify(json, null, 2) ?? '', isJson: true, prettyPrinted: true, skippedForSize: false };
}

/**
 * Indents objects and arrays like JSON.stringify(value, null, 2), except that any value whose
 * compact JSON fits in `lineLength` characters stays on one line (a record per line in a large list).
 * A container with many children is always split without serializing it first, so the cost stays
 * close to one native JSON.stringify of the body.
 */
export function formatCompactJson(value: unknown, lineLength = COMPACT_LINE_LENGTH): string {
  const render = (node: unknown, indent: string): string => {
    if (node === null || typeof node !== 'object') return JSON.stringify(node) ?? 'null';
    const isArray = Array.isArray(node);
    const entries = isArray ? undefined : Object.entries(node as Record<string, unknown>).filter(([, child]) => child !== undefined);
    const count = isArray ? (node as unknown[]).length : entries!.length;
    if (count === 0) return isArray ? '[]' : '{}';
    // More children than fit on a line at one character each: it can never be one line.
    if (count * 2 <= lineLength) {
      const compact = JSON.stringify(node);
      if (compact.length <= lineLength) return compact;
    }
    const inner = indent + '  ';
    if (isArray) {
      return '[\n' + (node as unknown[]).map((item) => inner + render(item, inner)).join(',\n') + '\n' + indent + ']';
    }
    return (
      '{\n' +
      entries!.map(([key, child]) => `${inner}${JSON.stringify(key)}: ${render(child, inner)}`).join(',\n') +
      '\n' +
      indent +
      '}'
    );
  };
  return render(value, '');
}

function looksLikeJson(response: ResponseLike): boolean {
  if (isJsonContentType(response.headers['content-type'])) return true;
  const first = response.bodyText.trimStart()[0];
  return first === '{' || first === '[';
}

function isJsonContentType(value: string | undefined): boolean {
  return value !== undefined && /[/+]json\b/i.test(value);
}

function headerLines(response: ResponseLike, options: ResponseFormatOptions, body: FormattedBody): string[] {
  const lines: string[] = [];
  lines.push(`${response.method.toUpperCase()} ${response.url}`);
  const parts = [
    `${response.status} ${response.statusText}`.trim(),
    formatDuration(response.timeMs),
    formatBytes(response.sizeBytes, options.locale),
  ];
  if (options.receivedAt !== undefined) parts.push(dateAndTime(options.receivedAt, options.locale));
  lines.push(parts.join(' · '));
  if (response.attempts !== undefined && response.attempts > 1) {
    lines.push(l10n.t('Sent {0} times (retried)', response.attempts));
  }
  for (const line of options.context ?? []) lines.push(line);
  const limitInfo = response.headers['service-limit-info'];
  lines.push(`Service-Limit-Info: ${limitInfo ?? l10n.t('(missing)')}`);
  for (const warning of response.warnings ?? []) lines.push(l10n.t('Warning: {0}', warning));
  if (body.skippedForSize) {
    lines.push(
      l10n.t(
        'The body ({0}) is shown as received, without pretty-printing: run Format Document to format it.',
        formatBytes(response.bodyText.length, options.locale),
      ),
    );
  }
  if (options.request) lines.push('', ...requestLines(options.request, options.locale));
  lines.push('');
  lines.push(l10n.t('Response headers'));
  for (const name of Object.keys(response.headers).sort()) {
    lines.push(`  ${name}: ${response.headers[name]}`);
  }
  return lines;
}

/** Shown of a request body: enough to recognize it, never enough to slow the tab down. */
export const REQUEST_BODY_SHOWN_CHARS = 4096;

/** The request part of the header block: its headers as sent (secrets masked), then its body if any. */
function requestLines(request: NonNullable<ResponseFormatOptions['request']>, locale: string | undefined): string[] {
  const lines = [l10n.t('Request headers')];
  for (const name of Object.keys(request.headers).sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()))) {
    lines.push(`  ${name}: ${shownHeaderValue(name, request.headers[name])}`);
  }
  const body = request.bodyText;
  if (body === undefined || body === '') return lines;
  lines.push(l10n.t('Request body ({0})', formatBytes(Buffer.byteLength(body), locale)));
  const shown = body.length > REQUEST_BODY_SHOWN_CHARS ? body.slice(0, REQUEST_BODY_SHOWN_CHARS) : body;
  for (const line of shown.split(/\r?\n/)) lines.push(`  ${line}`);
  if (shown.length < body.length) lines.push(`  ${l10n.t('… {0} more characters', body.length - shown.length)}`);
  return lines;
}

function commentLine(line: string): string {
  // A header value can not end the comment early: line comments only end at a line break.
  // Redacted: a server may echo the token or the licence key in a header or a message shown here.
  return line === '' ? '//' : `// ${redact(line).replace(/[\r\n]+/g, ' ')}`;
}

export function formatBytes(bytes: number, locale = 'en'): string {
  const number = (value: number, digits: number) =>
    value.toLocaleString(locale, { maximumFractionDigits: digits, minimumFractionDigits: digits });
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${number(bytes / 1024, 1)} KB`;
  return `${number(bytes / (1024 * 1024), 1)} MB`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}
