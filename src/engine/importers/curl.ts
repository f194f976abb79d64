/**
 * cURL commands in: each command (a paste, a line of a file, a quick fix's `curl ...` line) becomes a
 * request of a request file. The shell's quoting is read as bash or cmd would (shellWords.ts), the
 * options as curl would (curlOptions.ts); what the extension does itself (credentials, certificate
 * checks, cookies, proxies) is dropped and named. A shell variable becomes `{{$processEnv NAME}}`.
 * No `vscode` here.
 */
import * as l10n from '../../common/l10n';
import { curlOption, type CurlDraft } from './curlOptions';
import { headerValue, importedHeaders, readableBody, writeRequest, writeRequestFile, type DraftRequest } from './requestText';
import { shellCommands, type ShellCommand } from './shellWords';
import { ImportError, type ImportedFile, type Importer, type ImportInput, type ImportNote, type ImportResult } from './types';

const CURL_WORD = /^curl(?:\.exe)?$/i;
const FORM_BOUNDARY = 'TenantApiFormBoundary';

export interface CurlConversion {
  request: DraftRequest;
  notes: ImportNote[];
}

/** Whether a pasted text is a cURL command (an optional `$ ` prompt before it). */
export function isCurlCommand(text: string): boolean {
  return /^\s*(?:\$\s+)?curl(?:\.exe)?\s/i.test(text);
}

/** The words after `curl`, read into a draft; throws ImportError (with `where`) when it is no cURL command. */
function readOptions(command: ShellCommand, where: string): CurlDraft {
  const words = command.words[0] === '$' ? command.words.slice(1) : command.words;
  if (!CURL_WORD.test(words[0] ?? '')) throw new ImportError(l10n.t('{0}: "{1}" is not a cURL command.', where, (words[0] ?? '').slice(0, 40)));
  const draft: CurlDraft = { urls: [], headers: [], data: [], form: [], dataInQuery: false, head: false, query: [], notes: [] };
  for (let index = 1; index < words.length; index++) {
    const word = words[index];
    if (word.startsWith('--') && word.length > 2) index = longOption(draft, words, index);
    else if (word.startsWith('-') && word.length > 1) index = shortOptions(draft, words, index);
    // A backslash-newline pasted into a one-line box leaves a word of spaces behind: it is no URL.
    else if (word.trim() !== '') draft.urls.push(word);
  }
  if (command.rest) draft.notes.push(l10n.t('What follows the command ({0}) is not part of the request: left out.', command.rest.slice(0, 60)));
  return draft;
}

function longOption(draft: CurlDraft, words: readonly string[], index: number): number {
  const name = words[index];
  const option = curlOption(name) ?? (name.startsWith('--no-') ? { names: [name], value: false } : undefined);
  if (!option) {
    draft.notes.push(l10n.t('The option {0} is not known to the import: ignored.', name));
    return index;
  }
  const value = option.value ? (words[index + 1] ?? '') : '';
  option.apply?.(draft, value, name);
  return option.value ? index + 1 : index;
}

/** `-sSL`, `-XPOST`, `-HAccept: x`: flags run together; one that takes a value takes the rest of the word or the next word. */
function shortOptions(draft: CurlDraft, words: readonly string[], index: number): number {
  const word = words[index];
  for (let at = 1; at < word.length; at++) {
    const name = `-${word[at]}`;
    const option = curlOption(name);
    if (!option) {
      draft.notes.push(l10n.t('The option {0} is not known to the import: ignored.', name));
      continue;
    }
    if (!option.value) {
      option.apply?.(draft, '', name);
      continue;
    }
    const rest = word.slice(at + 1);
    option.apply?.(draft, rest !== '' ? rest : (words[index + 1] ?? ''), name);
    return rest !== '' ? index : index + 1;
  }
  return index;
}

/** `--data-urlencode`'s forms: `content`, `=content`, `name=content`, `name@file`. */
function urlencoded(value: string, draft: CurlDraft): string {
  const equals = value.indexOf('=');
  const at = value.indexOf('@');
  if (at > 0 && (equals < 0 || at < equals)) {
    draft.notes.push(l10n.t('--data-urlencode {0} reads a file: not imported.', value));
    return '';
  }
  if (equals < 0) return encodeURIComponent(value);
  return `${value.slice(0, equals)}${equals > 0 ? '=' : ''}${encodeURIComponent(value.slice(equals + 1))}`;
}

/** The body of the -d family, joined with `&` as curl does (`--json` parts without); `@file` becomes a body file. */
function dataBody(draft: CurlDraft): string | undefined {
  if (draft.data.length === 0) return undefined;
  const file = draft.data.length === 1 && draft.data[0].kind !== 'raw' && draft.data[0].kind !== 'urlencode' && draft.data[0].value.startsWith('@') ? draft.data[0].value.slice(1) : undefined;
  if (file !== undefined) return file === '-' ? '' : `< ${file}`;
  const parts = draft.data.map((part) => {
    if (part.kind === 'urlencode') return urlencoded(part.value, draft);
    if (part.kind !== 'raw' && part.value.startsWith('@')) draft.notes.push(l10n.t('{0} names a file among other data: kept as written.', part.value));
    // -d and --data-ascii drop line breaks (curl reads them as from a file); --data-binary and --data-raw keep them.
    return part.kind === 'ascii' ? part.value.replace(/\r?\n/g, '') : part.value;
  });
  return draft.data.every((part) => part.kind === 'json') ? parts.join('') : parts.join('&');
}

function formBody(draft: CurlDraft): string {
  const parts = draft.form.map(([name, value]) => `--${FORM_BOUNDARY}\nContent-Disposition: form-data; name="${name.replace(/"/g, '%22')}"\n\n${value}`);
  return `${parts.join('\n')}\n--${FORM_BOUNDARY}--`;
}

/** The URL with `http://` when it has no scheme (curl's default), its user and password dropped (named), and the query that -G and --url-query add. */
function requestUrl(draft: CurlDraft, where: string, queryData: string | undefined): string {
  if (draft.urls.length === 0) throw new ImportError(l10n.t('{0}: the cURL command has no URL.', where));
  if (draft.urls.length > 1) draft.notes.push(l10n.t('The command names {0} URLs: only the first is imported.', draft.urls.length));
  let url = draft.urls[0];
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !url.startsWith('{{')) url = `http://${url}`;
  const userInfo = /^([a-z][a-z0-9+.-]*:\/\/)([^/@?#]*@)/i.exec(url);
  if (userInfo) {
    url = userInfo[1] + url.slice(userInfo[0].length);
    draft.notes.push(l10n.t('The user and password in the URL were dropped: the extension signs in and adds the token and licence key itself.'));
  }
  const extra = [queryData, ...draft.query].filter((part): part is string => part !== undefined && part !== '');
  if (extra.length === 0) return url;
  const [base, fragment] = url.split('#', 2);
  return `${base}${base.includes('?') ? '&' : '?'}${extra.join('&')}${fragment !== undefined ? `#${fragment}` : ''}`;
}

/** One command as a request; notes say what was dropped or changed (`where`: `line 3`). */
export function convertCurlCommand(command: ShellCommand, where = l10n.t('line {0}', command.startLine + 1)): CurlConversion {
  const draft = readOptions(command, where);
  const data = dataBody(draft);
  const url = requestUrl(draft, where, draft.dataInQuery ? data : undefined);
  const headers = [...draft.headers];
  const contentType = (value: string) => headerValue(headers, 'content-type') === undefined && headers.push(['Content-Type', value]);
  let body: string | undefined;
  if (draft.form.length > 0) {
    contentType(`multipart/form-data; boundary=${FORM_BOUNDARY}`);
    body = formBody(draft);
  } else if (data !== undefined && !draft.dataInQuery) {
    if (draft.data.some((part) => part.kind === 'json')) {
      contentType('application/json');
      if (headerValue(headers, 'accept') === undefined) headers.push(['Accept', 'application/json']);
    } else if (!data.startsWith('< ')) contentType('application/x-www-form-urlencoded');
    body = data.startsWith('< ') ? data : readableBody(data, headerValue(headers, 'content-type'));
  }
  const method = draft.method ?? (draft.head ? 'HEAD' : body !== undefined ? 'POST' : 'GET');
  const notes: ImportNote[] = draft.notes.map((message) => ({ where, message }));
  const request: DraftRequest = { method, url, headers: importedHeaders(headers, notes, where), body };
  const written = writeRequest(request);
  for (const name of command.variables.filter((variable) => written.includes(`{{$processEnv ${variable}}}`))) {
    notes.push({ where, message: l10n.t('The shell variable ${0} is read from the environment when the request is sent ($processEnv {0}).', name) });
  }
  return { request, notes };
}

/** Every command of a text (a paste or a file of commands), each a request; throws ImportError naming the first that is not one. */
export function convertCurlText(text: string): CurlConversion[] {
  const commands = shellCommands(text, (name) => `{{$processEnv ${name}}}`);
  if (commands.length === 0) throw new ImportError(l10n.t('There is no cURL command to import.'));
  return commands.map((command) => convertCurlCommand(command));
}

/** A pasted command as the text of one request (Paste cURL as Request, the quick fix on a `curl ...` line). */
export function curlAsRequestText(text: string): { text: string; notes: ImportNote[] } {
  const conversions = convertCurlText(text);
  return { text: conversions.map((conversion) => writeRequest(conversion.request)).join('\n\n###\n'), notes: conversions.flatMap((conversion) => conversion.notes) };
}

function outputName(source: string | undefined): string {
  const base = (source ?? 'curl').split(/[\\/]/).pop()!.replace(/\.[^.]*$/, '');
  return `${base.replace(/[^\w.-]+/g, '-') || 'curl'}.http`;
}

export const curlImporter: Importer = {
  format: 'curl',
  detects: (text) => isCurlCommand(text.replace(/^(?:\s*#[^\n]*\n|\s*\n)*/, '')),
  async read(input: ImportInput): Promise<ImportResult> {
    const conversions = convertCurlText(input.text);
    const file: ImportedFile = {
      path: outputName(input.source),
      text: writeRequestFile(conversions.map((conversion) => conversion.request)),
      requests: conversions.length,
    };
    return { format: 'curl', files: [file], notes: conversions.flatMap((conversion) => conversion.notes) };
  },
};
