/**
 * Builds the text of the read-only response tab: a block of `//` comment lines (method, URL, status,
 * time, size, quota, response headers) followed by the body. The result is valid JSON with comments,
 * so the tab uses the `jsonc` language and keeps folding and highlighting for the body.
 *
 * Large bodies: the body is formatted once, here, and never processed line by line; above
 * `prettyPrintLimitBytes` it is shown as the server sent it (the editor can still format it on request).
 */
import * as l10n from '../common/l10n';

export interface ResponseLike {
  method: string;
  url: string;
  status: number;
  statusText: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  bodyText: string;
  /** Parsed body when it is JSON. */
  json?: unknown;
  timeMs: number;
  sizeBytes: number;
  attempts?: number;
  warnings?: string[];
}

export interface ResponseFormatOptions {
  /** Bodies larger than this are not pretty-printed. */
  prettyPrintLimitBytes?: number;
  /** When the response arrived (epoch ms), shown in the header block. */
  receivedAt?: number;
  /** Extra lines for the header block, e.g. the tenant the call was made for. */
  context?: string[];
  locale?: string;
}

export interface FormattedResponse {
  text: string;
  languageId: 'jsonc' | 'plaintext';
  prettyPrinted: boolean;
}

export const DEFAULT_PRETTY_PRINT_LIMIT_BYTES = 5 * 1024 * 1024;

export function formatResponse(response: ResponseLike, options: ResponseFormatOptions = {}): FormattedResponse {
  const limit = options.prettyPrintLimitBytes ?? DEFAULT_PRETTY_PRINT_LIMIT_BYTES;
  const body = formatBody(response, limit);
  const header = headerLines(response, options, body);
  return {
    text: header.map(commentLine).join('\n') + '\n' + body.text + (body.text.endsWith('\n') ? '' : '\n'),
    languageId: body.isJson ? 'jsonc' : 'plaintext',
    prettyPrinted: body.prettyPrinted,
  };
}

interface FormattedBody {
  text: string;
  isJson: boolean;
  prettyPrinted: boolean;
  skippedForSize: boolean;
}

function formatBody(response: ResponseLike, limit: number): FormattedBody {
  const tooLarge = response.bodyText.length > limit;
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
  return { text: JSON.stringify(json, null, 2) ?? '', isJson: true, prettyPrinted: true, skippedForSize: false };
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
  if (options.receivedAt !== undefined) parts.push(new Date(options.receivedAt).toISOString());
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
  lines.push('');
  lines.push(l10n.t('Response headers'));
  for (const name of Object.keys(response.headers).sort()) {
    lines.push(`  ${name}: ${response.headers[name]}`);
  }
  return lines;
}

function commentLine(line: string): string {
  // A header value can not end the comment early: line comments only end at a line break.
  return line === '' ? '//' : `// ${line.replace(/[\r\n]+/g, ' ')}`;
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
