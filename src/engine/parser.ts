/**
 * Parses request files (.http / .rest) in REST Client's syntax into blocks with line numbers, in one
 * pass over the lines (a 10,000-line file parses in a few ms, so the editor can parse on every change).
 * No `vscode` here. Variables are kept as written (`{{name}}`); src/engine/variables.ts fills them.
 *
 * What a block is (REST Client's rules, which the JetBrains client, httpYac and Kulala share):
 * - blocks are separated by lines starting with `###`; the text after it (`### Login`) names the
 *   block's request, as in the JetBrains client, httpYac and Kulala (a `# @name` wins);
 * - before the request line: blank lines, comments (`#` or `//`), metadata comments
 *   (`# @name login`, `// @tenant RC-MI`), file variables (`@host = https://...`) and a pre-request
 *   script file (`< ./pre.js`, set aside like the other scripts);
 * - the request line: `METHOD URL [HTTP/1.1]` or a URL alone (GET); following lines starting with
 *   `?` or `&`, or indented and starting with `/`, continue its URL (joined before the HTTP version
 *   is taken off the end);
 * - headers `Name: value` up to the first blank line (comment lines among them are skipped);
 * - the body: everything after that blank line up to the block's end, comment lines and trailing
 *   blank lines removed (REST Client drops a request's comment lines); a body of one line
 *   `< ./file.json` (or `<@ ./file.json`, with variables) names a file;
 * - a second request line among the headers, or opening a paragraph of the body, starts another
 *   request (the comments and variables just above it go with it), with a warning: the `###` is missing;
 * - anywhere in a block: assertion lines (`?? status == 200`, httpYac's syntax) belong to the request;
 *   script blocks (`{{ ... }}`, `> {% ... %}`, `< {% ... %}`) are set aside, never run, and reported.
 */
import { HEADER_NAME_PATTERN } from '../api/requestHeaders';
import { parseAssertionLine, type Assertion } from './assertions/assertionLine';
import { commandExtent } from './importers/shellWords';
import { PRE_REQUEST_FILE, scriptLines } from './scriptBlocks';

export const HTTP_METHODS: readonly string[] = [
  'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'CONNECT', 'TRACE',
  'LOCK', 'UNLOCK', 'PROPFIND', 'PROPPATCH', 'COPY', 'MOVE', 'MKCOL', 'MKCALENDAR', 'ACL', 'SEARCH',
];

const METHOD_SET = new Set(HTTP_METHODS);

export function isHttpMethod(method: string): boolean {
  return METHOD_SET.has(method.toUpperCase());
}
const SEPARATOR = /^#{3,}/;
const FILE_VARIABLE = /^@([A-Za-z_][\w.-]*)\s*=\s*(.*?)\s*$/;
const METADATA = /^(?:#|\/\/)\s*@([\w-]+)(?:\s+(.*?))?\s*$/;
const COMMENT = /^\s*(?:#|\/\/)/;
/** A header name is an RFC 9110 token: a body written without the blank line before it is not taken for headers. */
const HEADER = new RegExp(`^(${HEADER_NAME_PATTERN})\\s*:\\s?(.*)$`);
const HTTP_VERSION = /\s+HTTP\/[\d.]+\s*$/i;
const ASSERTION = /^\s*\?\?/;
/** A word written where the method goes: an RFC 9110 token that starts with a letter. */
const METHOD_WORD = /^[A-Za-z][A-Za-z0-9_-]*$/;
/** What a URL starts with in a request file: a path, an http(s) address, or a variable. */
const URL_START = /^(?:\/|https?:\/\/|\{\{)/i;
/** A request line written where another request's headers or body are: an upper-case method and a URL. */
const LATER_REQUEST_LINE = new RegExp(`^(?:${HTTP_METHODS.join('|')})\\s+(?:\\/|https?:\\/\\/|\\{\\{)\\S*(?:\\s+HTTP\\/[\\d.]+)?\\s*$`);

export interface FileVariable {
  name: string;
  /** As written (may hold `{{...}}`). */
  value: string;
  line: number;
}

export interface HeaderLine {
  name: string;
  value: string;
  line: number;
}

export type RequestBody =
  /** `lines`: the file line of each line of `text`, when comment lines inside the body were left out. */
  | { kind: 'inline'; text: string; startLine: number; endLine: number; lines?: number[] }
  | { kind: 'file'; path: string; substitute: boolean; line: number };

export interface ParsedRequest {
  /** 0-based position in the file. */
  index: number;
  /** First and last line of the block (separators excluded). */
  startLine: number;
  endLine: number;
  /** `# @name` value (its first word), else the title of the `###` line above the block, if any. */
  name?: string;
  /** The line the name is written on (the `# @name` line or the `###` line). */
  nameLine?: number;
  /** Every `# @key value` comment above the request line (name and tenant included), lower-case keys. */
  metadata: Record<string, { value: string; line: number }>;
  method: string;
  /** The URL as written, continuation lines joined, without `HTTP/1.1`. */
  url: string;
  requestLine: number;
  headers: HeaderLine[];
  body?: RequestBody;
  /** `??` lines in the block, in order (malformed ones are problems instead). */
  assertions: Assertion[];
  /** `# @tag smoke, slow` (every such line, commas or spaces between): what `--tag` and the Testing view's tags select. */
  tags: string[];
}

export interface ParseProblem {
  line: number;
  message: ParseProblemKind;
  /** What the problem is about (e.g. the method as written; for `assertion`, the sentence). */
  detail?: string;
  /** Columns the problem covers, where narrower than the line. */
  start?: number;
  end?: number;
}

export type ParseProblemKind =
  | 'unknownMethod'
  | 'headerWithoutColon'
  | 'duplicateName'
  | 'curlNotSupported'
  | 'assertion'
  | 'assertionWithoutRequest'
  | 'scriptNotRun'
  | 'missingSeparator';

export interface ParsedFile {
  requests: ParsedRequest[];
  /** File variables in order; a later definition of the same name wins (as in REST Client). */
  variables: FileVariable[];
  problems: ParseProblem[];
  lineCount: number;
  /** `# @data ./rows.csv` anywhere in the file (the first one): the file runs once per row of that data. */
  data?: { path: string; line: number };
}

export function splitLines(text: string): string[] {
  return text.split(/\r?\n/);
}

export function parseRequestFile(text: string): ParsedFile {
  const lines = splitLines(text);
  const result: ParsedFile = { requests: [], variables: [], problems: [], lineCount: lines.length };
  let start = 0;
  let title: Title | undefined;
  for (let line = 0; line <= lines.length; line++) {
    if (line === lines.length || SEPARATOR.test(lines[line])) {
      if (line > start) parseSeparatedBlock(lines, start, line - 1, title, result);
      start = line + 1;
      title = line < lines.length ? titleOf(lines[line], line) : undefined;
    }
  }
  const seen = new Set<string>();
  for (const request of result.requests) {
    if (!request.name) continue;
    if (seen.has(request.name)) {
      result.problems.push({ line: request.nameLine ?? request.requestLine, message: 'duplicateName', detail: request.name });
    }
    seen.add(request.name);
  }
  return result;
}

interface Title {
  value: string;
  line: number;
}

/** `### Login` names the request below it; a separator of signs only (`### ---`) names nothing. */
function titleOf(text: string, line: number): Title | undefined {
  const value = text.replace(SEPARATOR, '').trim();
  return /[\p{L}\p{N}]/u.test(value) ? { value, line } : undefined;
}

/** Reads the lines between two separators: one request, or several when `###` lines are missing. */
function parseSeparatedBlock(lines: readonly string[], first: number, last: number, title: Title | undefined, result: ParsedFile): void {
  const setAside = setAsideLines(lines, first, last, result);
  let start: number | undefined = first;
  let blockTitle = title;
  while (start !== undefined && start <= last) {
    start = parseBlock(lines, { first: start, last, title: blockTitle }, setAside, result);
    blockTitle = undefined;
  }
}

interface BlockRange {
  first: number;
  last: number;
  title?: Title;
}

type SetAside = ReadonlyMap<number, 'assertion' | 'script'>;

/**
 * Reads one request from `range.first`; a block with no request line only contributes its file
 * variables. Returns where the next request starts when a request line is found before `range.last`.
 */
function parseBlock(lines: readonly string[], range: BlockRange, setAside: SetAside, result: ParsedFile): number | undefined {
  const { first, last } = range;
  const metadata: ParsedRequest['metadata'] = {};
  const tags: string[] = [];
  let line = first;
  for (; line <= last; line++) {
    const text = lines[line].trim();
    if (text === '' || setAside.has(line)) continue;
    if (PRE_REQUEST_FILE.test(text)) {
      result.problems.push({ line, message: 'scriptNotRun', detail: 'preRequestFile' });
      continue;
    }
    const variable = FILE_VARIABLE.exec(text);
    if (variable) {
      result.variables.push({ name: variable[1], value: variable[2], line });
      continue;
    }
    const meta = METADATA.exec(text);
    if (meta) {
      const key = meta[1].toLowerCase();
      const value = (meta[2] ?? '').trim();
      metadata[key] = { value, line };
      if (key === 'tag') tags.push(...splitTags(value).filter((tag) => !tags.includes(tag)));
      if (key === 'data' && value && !result.data) result.data = { path: value, line };
      continue;
    }
    if (COMMENT.test(text)) continue;
    break;
  }
  if (line > last) {
    const assertions = readAssertions(lines, setAside, first, last, result);
    if (assertions.length > 0) result.problems.push({ line: assertions[0].line, message: 'assertionWithoutRequest' });
    return undefined;
  }

  const requestLine = line;
  if (/^curl\s/i.test(lines[line].trim())) return readCurlCommand(lines, range, requestLine, metadata, setAside, result);
  let written = lines[line].trim();
  for (line++; line <= last && continuesUrl(lines[line]); line++) written += lines[line].trim();
  const { method, url, problem } = readRequestLine(written);
  if (problem) result.problems.push({ line: requestLine, ...problem, ...wordColumns(lines[requestLine], problem) });
  const headers: HeaderLine[] = [];
  let next: number | undefined;
  for (; line <= last; line++) {
    const raw = lines[line];
    if (raw.trim() === '') break;
    if (COMMENT.test(raw) || setAside.has(line)) continue;
    if (LATER_REQUEST_LINE.test(raw.trim())) {
      next = line;
      break;
    }
    const header = HEADER.exec(raw.trim());
    if (!header) {
      result.problems.push({ line, message: 'headerWithoutColon', detail: raw.trim() });
      continue;
    }
    headers.push({ name: header[1], value: header[2].trim(), line });
  }
  next ??= laterRequestLine(lines, line + 1, last, setAside);
  const end = next === undefined ? last : startOfNext(lines, next, requestLine, setAside) - 1;
  if (next !== undefined) result.problems.push({ line: next, message: 'missingSeparator' });

  const request: ParsedRequest = {
    index: result.requests.length,
    startLine: first,
    endLine: end,
    metadata,
    method,
    url,
    requestLine,
    headers,
    assertions: readAssertions(lines, setAside, first, end, result),
    tags,
  };
  nameRequest(request, range.title);
  const body = next !== undefined && next <= line ? undefined : readBody(lines, line + 1, end, setAside);
  if (body) request.body = body;
  result.requests.push(request);
  return next === undefined ? undefined : end + 1;
}

/** `# @name` (its first word), else the block's `### Title`. */
function nameRequest(request: ParsedRequest, title: Title | undefined): void {
  const named = request.metadata.name?.value.split(/\s+/)[0];
  if (named) {
    request.name = named;
    request.nameLine = request.metadata.name.line;
  } else if (title) {
    request.name = title.value;
    request.nameLine = title.line;
  }
}

/** `?page=2`, `&size=10`, or an indented `/get` (httpYac's multi-line URL) continue the URL above. */
function continuesUrl(raw: string): boolean {
  const text = raw.trim();
  return (text.startsWith('?') && !text.startsWith('??')) || text.startsWith('&') || (/^\s+\//.test(raw) && !/\s/.test(text));
}

/** A request line opening a paragraph of the body (the first line, or one after a blank line). */
function laterRequestLine(lines: readonly string[], first: number, last: number, setAside: SetAside): number | undefined {
  let paragraphStart = true;
  for (let line = first; line <= last; line++) {
    if (setAside.has(line) || COMMENT.test(lines[line])) continue;
    const text = lines[line].trim();
    if (text === '') paragraphStart = true;
    else if (paragraphStart && LATER_REQUEST_LINE.test(text)) return line;
    else paragraphStart = false;
  }
  return undefined;
}

/** The first line of the request whose request line is `line`: the comments, variables and scripts just above it go with it. */
function startOfNext(lines: readonly string[], line: number, previousRequestLine: number, setAside: SetAside): number {
  let start = line;
  while (start - 1 > previousRequestLine) {
    const text = lines[start - 1].trim();
    if (text === '' || !(COMMENT.test(text) || FILE_VARIABLE.test(text) || PRE_REQUEST_FILE.test(text) || setAside.get(start - 1) === 'script')) break;
    start--;
  }
  return start;
}

/**
 * A cURL command where a request line goes (its continuation lines and quoted line breaks included):
 * set aside whole, reported once; the quick fix turns it into a request.
 */
function readCurlCommand(lines: readonly string[], range: BlockRange, requestLine: number, metadata: ParsedRequest['metadata'], setAside: SetAside, result: ParsedFile): number | undefined {
  const end = Math.min(commandExtent(lines, requestLine), range.last);
  result.problems.push({ line: requestLine, message: 'curlNotSupported', detail: String(end) });
  const request: ParsedRequest = { index: result.requests.length, startLine: range.first, endLine: range.last, metadata, method: 'GET', url: '', requestLine, headers: [], assertions: [], tags: [] };
  const next = laterRequestLine(lines, end + 1, range.last, setAside);
  if (next !== undefined) {
    request.endLine = startOfNext(lines, next, requestLine, setAside) - 1;
    result.problems.push({ line: next, message: 'missingSeparator' });
  }
  request.assertions = readAssertions(lines, setAside, range.first, request.endLine, result);
  nameRequest(request, range.title);
  result.requests.push(request);
  return next === undefined ? undefined : request.endLine + 1;
}

/** The block's assertion and script lines: read apart from the request, never sent as its body. */
function setAsideLines(lines: readonly string[], first: number, last: number, result: ParsedFile): Map<number, 'assertion' | 'script'> {
  const setAside = new Map<number, 'assertion' | 'script'>();
  for (const block of scriptLines(lines, first, last)) {
    result.problems.push({ line: block.start, message: 'scriptNotRun', detail: block.kind });
    for (let line = block.start; line <= block.end; line++) setAside.set(line, 'script');
  }
  for (let line = first; line <= last; line++) {
    if (!setAside.has(line) && ASSERTION.test(lines[line])) setAside.set(line, 'assertion');
  }
  return setAside;
}

function readAssertions(lines: readonly string[], setAside: SetAside, first: number, last: number, result: ParsedFile): Assertion[] {
  const assertions: Assertion[] = [];
  for (const [line, kind] of [...setAside].sort((a, b) => a[0] - b[0])) {
    if (kind !== 'assertion' || line < first || line > last) continue;
    const parsed = parseAssertionLine(lines[line], line);
    if (!parsed) continue;
    if (parsed.ok) assertions.push(parsed.assertion);
    else result.problems.push({ line, message: 'assertion', detail: parsed.problem.message, start: parsed.problem.start, end: parsed.problem.end });
  }
  return assertions;
}

/**
 * The method and URL of a request line (its continuation lines joined). A word before the URL that is
 * not a method (`GETT /v10/user-tenants`, `FETCH https://...`) is an unknown method, never read as a
 * GET of the whole line.
 */
function readRequestLine(text: string): { method: string; url: string; problem?: Omit<ParseProblem, 'line'> } {
  const withoutVersion = text.replace(HTTP_VERSION, '');
  const space = withoutVersion.search(/\s/);
  if (space < 0) return { method: 'GET', url: withoutVersion };
  const word = withoutVersion.slice(0, space);
  const rest = withoutVersion.slice(space).trim();
  if (METHOD_SET.has(word.toUpperCase())) return { method: word.toUpperCase(), url: rest };
  // An upper-case word is a method anyway (`GETT v10/x`); another word only before a URL (`import ./a.http` is another client's directive).
  const methodLike = METHOD_WORD.test(word) && (URL_START.test(rest) || (word === word.toUpperCase() && !/\s/.test(rest)));
  if (methodLike) {
    return { method: word.toUpperCase(), url: rest, problem: { message: 'unknownMethod', detail: word } };
  }
  return { method: 'GET', url: withoutVersion };
}

/** An unknown method's problem covers the word (so its quick fix replaces just that). */
function wordColumns(raw: string, problem: Omit<ParseProblem, 'line'>): Pick<ParseProblem, 'start' | 'end'> {
  if (problem.message !== 'unknownMethod' || !problem.detail) return {};
  const start = raw.length - raw.trimStart().length;
  return { start, end: start + problem.detail.length };
}

/** The known method closest to an unknown one (`GETT` → GET, `DELET` → DELETE), within two edits. */
export function closestMethod(word: string): string | undefined {
  const upper = word.toUpperCase();
  let best: { method: string; distance: number } | undefined;
  for (const method of HTTP_METHODS) {
    const distance = editDistance(upper, method);
    if (distance <= 2 && (!best || distance < best.distance)) best = { method, distance };
  }
  return best?.method;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}

function readBody(lines: readonly string[], first: number, last: number, setAside: SetAside): RequestBody | undefined {
  const kept: number[] = [];
  for (let line = first; line <= last; line++) if (!setAside.has(line) && !COMMENT.test(lines[line])) kept.push(line);
  let end = kept.length - 1;
  while (end >= 0 && lines[kept[end]].trim() === '') end--;
  let start = 0;
  while (start <= end && lines[kept[start]].trim() === '') start++;
  if (start > end) return undefined;
  const firstText = lines[kept[start]].trim();
  const fileReference = /^<(@)?\s+(.+)$/.exec(firstText);
  if (fileReference && start === end) {
    return { kind: 'file', path: fileReference[2].trim(), substitute: fileReference[1] === '@', line: kept[start] };
  }
  const bodyLines = kept.slice(start, end + 1);
  const text = bodyLines.map((line) => lines[line]).join('\n');
  const contiguous = bodyLines.length === kept[end] - kept[start] + 1;
  return { kind: 'inline', text, startLine: kept[start], endLine: kept[end], ...(contiguous ? {} : { lines: bodyLines }) };
}

/** `smoke, slow` or `smoke slow`: the tags of one `# @tag` line. */
export function splitTags(text: string): string[] {
  return text.split(/[\s,]+/).filter((tag) => tag !== '');
}

/** The request whose block holds `line`, if any. */
export function requestAtLine(file: ParsedFile, line: number): ParsedRequest | undefined {
  let low = 0;
  let high = file.requests.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const request = file.requests[middle];
    if (line < request.startLine) high = middle - 1;
    else if (line > request.endLine) low = middle + 1;
    else return request;
  }
  return undefined;
}

/** The tenant a request names (`# @tenant`), else the file's (`@tenant = ...`), as written. */
export function tenantOf(file: ParsedFile, request: ParsedRequest): string | undefined {
  const own = request.metadata.tenant?.value;
  if (own) return own;
  for (let i = file.variables.length - 1; i >= 0; i--) {
    if (file.variables[i].name === 'tenant') return file.variables[i].value || undefined;
  }
  return undefined;
}
