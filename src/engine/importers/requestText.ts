/**
 * What every importer writes: requests as request-file text, and one header policy for what comes in
 * from another tool. Credential headers are dropped and named (the client adds its own), cookies too
 * (a session does not belong in a file), a secret-named header keeps its name but reads its value from
 * a variable, and the headers the client sets itself are left out. No `vscode` here.
 */
import { isCredentialHeader, isSecretHeader } from '../../api/requestHeaders';
import * as l10n from '../../common/l10n';
import { formatJsonBody } from '../jsonFormat';
import type { ImportNote } from './types';

export interface DraftRequest {
  /** Written as `### name` (the request's name). */
  name?: string;
  /** Comment lines above the request line (a description), without the `#`. */
  comments?: string[];
  method: string;
  url: string;
  headers: Array<[string, string]>;
  body?: string;
  /** `??` lines after the body, without the `??`. */
  assertions?: string[];
}

/** Headers the client sets from the request itself: never copied. */
const CLIENT_SET = new Set(['content-length', 'connection', 'host', 'transfer-encoding', 'accept-encoding', 'authority']);

/** A variable name for a header's secret value: `X-Api-Key` → `xApiKey`. */
export function variableNameOf(header: string): string {
  const words = header.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((word, index) => (index === 0 ? word.toLowerCase() : word[0].toUpperCase() + word.slice(1).toLowerCase())).join('') || 'secret';
}

/**
 * The headers worth writing into a request file; what was left out or changed goes into `notes`
 * (with `where`). Secret-named headers written with a literal value read `{{variable}}` instead.
 */
export function importedHeaders(headers: ReadonlyArray<[string, string]>, notes: ImportNote[], where?: string): Array<[string, string]> {
  const kept: Array<[string, string]> = [];
  const note = (message: string) => notes.push(where === undefined ? { message } : { where, message });
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    if (isCredentialHeader(name) || lower === 'proxy-authorization') note(l10n.t('The header {0} was dropped: the extension signs in and adds the token, licence key and tenant itself.', name));
    else if (lower === 'cookie') note(l10n.t('The header Cookie was dropped: a cookie carries a session, and a session does not belong in a file.'));
    else if (CLIENT_SET.has(lower)) continue;
    else if (isSecretHeader(name) && !/^\{\{[^{}]+\}\}$/.test(value.trim())) {
      const variable = variableNameOf(name);
      kept.push([name, `{{${variable}}}`]);
      note(l10n.t('The value of {0} was not written (a secret does not belong in a file): the header reads the variable {1}; set {1} in http-client.private.env.json.', name, variable));
    } else kept.push([name, value]);
  }
  return kept;
}

/** A JSON text on one line (a pasted command's) pretty-printed with two spaces, its `{{...}}` kept; any other text as it is. */
export function readableBody(body: string, contentType: string | undefined): string {
  const looksJson = contentType ? /[/+]json\b/i.test(contentType) : /^\s*[[{]/.test(body);
  if (!looksJson || body.includes('\n')) return body;
  return formatJsonBody(body) ?? body;
}

export function headerValue(headers: ReadonlyArray<[string, string]>, name: string): string | undefined {
  return headers.find(([candidate]) => candidate.toLowerCase() === name.toLowerCase())?.[1];
}

/** One request as a block of a request file (without the `###` line above it). */
export function writeRequest(request: DraftRequest): string {
  const lines = [...(request.comments ?? []).map((comment) => `# ${comment}`), `${request.method} ${request.url}`, ...request.headers.map(([name, value]) => `${name}: ${value}`)];
  if (request.body !== undefined && request.body !== '') {
    // A body line that would read as a separator, a comment or an assertion is moved one space right.
    const body = request.body
      .replace(/\r\n/g, '\n')
      .split('\n')
      .map((line) => (/^(#|\/\/|\?\?)/.test(line) ? ` ${line}` : line));
    lines.push('', ...body);
  }
  if (request.assertions?.length) lines.push('', ...request.assertions.map((assertion) => `?? ${assertion}`));
  return lines.join('\n');
}

/** A request file: an optional heading comment, then each request under its `###` line (`### name` when it has one). */
export function writeRequestFile(requests: readonly DraftRequest[], heading: string[] = []): string {
  const parts = heading.map((line) => `# ${line}`);
  for (const request of requests) {
    if (parts.length > 0) parts.push('');
    // The first request of a file needs no ### line unless it names the request.
    if (request.name) parts.push(`### ${request.name.replace(/[\r\n]+/g, ' ').trim()}`);
    else if (parts.length > 0) parts.push('###');
    parts.push(writeRequest(request));
  }
  return `${parts.join('\n')}\n`;
}
