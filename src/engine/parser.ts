/**
 * Parses request files (.http / .rest) in REST Client's syntax into blocks with line numbers, in one
 * pass over the lines (a 10,000-line file parses in a few ms, so the editor can parse on every change).
 * No `vscode` here. Variables are kept as written (`{{name}}`); src/engine/variables.ts fills them.
 *
 * What a block is (REST Client's rules, which the JetBrains client and httpYac share):
 * - blocks are separated by lines starting with `###`;
 * - before the request line: blank lines, comments (`#` or `//`), metadata comments
 *   (`# @name login`, `// @tenant RC-MI`) and file variables (`@host = https://...`);
 * - the request line: `METHOD URL [HTTP/1.1]` or a URL alone (GET); following lines starting with
 *   `?` or `&` continue its query;
 * - headers `Name: value` up to the first blank line (comment lines among them are skipped);
 * - the body: everything after that blank line up to the block's end, trailing blank lines removed;
 *   a body of one line `< ./file.json` (or `<@ ./file.json`, with variables) names a file;
 * - anywhere in a block: assertion lines (`?? status == 200`, httpYac's syntax) belong to the request;
 *   script blocks (`{{ ... }}`, `> {% ... %}`, `< {% ... %}`) are set aside, never run, and reported.
 */
import { HEADER_NAME_PATTERN } from '../api/requestHeaders';
import { parseAssertionLine, type Assertion } from './assertions/assertionLine';
import { scriptLines } from './scriptBlocks';

export const HTTP_METHODS: readonly string[] = [
  'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'CONNECT', 'TRACE',
  'LOCK', 'UNLOCK', 'PROPFIND', 'PROPPATCH', 'COPY', 'MOVE', 'MKCOL', 'MKCALENDAR', 'ACL', 'SEARCH',
];

const METHOD_SET = new Set(HTTP_METHODS);
const SEPARATOR = /^#{3,}/;
const FILE_VARIABLE = /^@([A-Za-z_][\w.-]*)\s*=\s*(.*?)\s*$/;
const METADATA = /^(?:#|\/\/)\s*@([\w-]+)(?:\s+(.*?))?\s*$/;
const COMMENT = /^\s*(?:#|\/\/)/;
/** A header name is an RFC 9110 token: a body written without the blank line before it is not taken for headers. */
const HEADER = new RegExp(`^(${HEADER_NAME_PATTERN})\\s*:\\s?(.*)$`);
const HTTP_VERSION = /\s+HTTP\/[\d.]+\s*$/i;
const ASSERTION = /^\s*\?\?/;

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
  | { kind: 'inline'; text: string; startLine: number; endLine: number }
  | { kind: 'file'; path: string; substitute: boolean; line: number };

export interface ParsedRequest {
  /** 0-based position in the file. */
  index: number;
  /** First and last line of the block (separators excluded). */
  startLine: number;
  endLine: number;
  /** `# @name` value, if any. */
  name?: string;
  /** Every `# @key value` comment above the request line (name and tenant included), lower-case keys. */
  metadata: Record<string, { value: string; line: number }>;
  method: string;
  /** The URL as written, query continuation lines joined, without `HTTP/1.1`. */
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
  | 'scriptNotRun';

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
  for (let line = 0; line <= lines.length; line++) {
    if (line === lines.length || SEPARATOR.test(lines[line])) {
      if (line > start) parseBlock(lines, start, line - 1, result);
      start = line + 1;
    }
  }
  const seen = new Set<string>();
  for (const request of result.requests) {
    if (!request.name) continue;
    if (seen.has(request.name)) {
      result.problems.push({ line: request.metadata.name.line, message: 'duplicateName', detail: request.name });
    }
    seen.add(request.name);
  }
  return result;
}

/** Reads one block; a block with no request line only contributes its file variables. */
function parseBlock(lines: readonly string[], first: number, last: number, result: ParsedFile): void {
  const setAside = setAsideLines(lines, first, last, result);
  const metadata: ParsedRequest['metadata'] = {};
  const tags: string[] = [];
  let line = first;
  for (; line <= last; line++) {
    const text = lines[line].trim();
    if (text === '' || setAside.has(line)) continue;
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
  const assertions = readAssertions(lines, setAside, result);
  if (line > last) {
    if (assertions.length > 0) result.problems.push({ line: assertions[0].line, message: 'assertionWithoutRequest' });
    return;
  }

  const requestLine = line;
  const { method, url: firstUrl, problem } = readRequestLine(lines[line].trim());
  if (problem) result.problems.push({ line, ...problem });
  let url = firstUrl;
  line++;
  for (; line <= last; line++) {
    const text = lines[line].trim();
    const continuesQuery = (text.startsWith('?') && !text.startsWith('??')) || text.startsWith('&');
    if (!continuesQuery) break;
    url += text;
  }

  const headers: HeaderLine[] = [];
  for (; line <= last; line++) {
    const raw = lines[line];
    if (raw.trim() === '') break;
    if (COMMENT.test(raw) || setAside.has(line)) continue;
    const header = HEADER.exec(raw.trim());
    if (!header) {
      result.problems.push({ line, message: 'headerWithoutColon', detail: raw.trim() });
      continue;
    }
    headers.push({ name: header[1], value: header[2].trim(), line });
  }

  const request: ParsedRequest = {
    index: result.requests.length,
    startLine: first,
    endLine: last,
    metadata,
    method,
    url,
    requestLine,
    headers,
    assertions,
    tags,
  };
  if (metadata.name?.value) request.name = metadata.name.value.split(/\s+/)[0];
  const body = readBody(lines, line + 1, last, setAside);
  if (body) request.body = body;
  result.requests.push(request);
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

function readAssertions(lines: readonly string[], setAside: ReadonlyMap<number, 'assertion' | 'script'>, result: ParsedFile): Assertion[] {
  const assertions: Assertion[] = [];
  for (const [line, kind] of [...setAside].sort((a, b) => a[0] - b[0])) {
    if (kind !== 'assertion') continue;
    const parsed = parseAssertionLine(lines[line], line);
    if (!parsed) continue;
    if (parsed.ok) assertions.push(parsed.assertion);
    else result.problems.push({ line, message: 'assertion', detail: parsed.problem.message, start: parsed.problem.start, end: parsed.problem.end });
  }
  return assertions;
}

function readRequestLine(text: string): { method: string; url: string; problem?: Omit<ParseProblem, 'line'> } {
  const withoutVersion = text.replace(HTTP_VERSION, '');
  if (/^curl\s/i.test(withoutVersion)) {
    return { method: 'GET', url: '', problem: { message: 'curlNotSupported' } };
  }
  const space = withoutVersion.search(/\s/);
  if (space < 0) return { method: 'GET', url: withoutVersion };
  const word = withoutVersion.slice(0, space);
  const rest = withoutVersion.slice(space).trim();
  if (METHOD_SET.has(word.toUpperCase())) return { method: word.toUpperCase(), url: rest };
  // "FETCH /x": a word before the URL that is not a method.
  if (/^[A-Za-z]+$/.test(word) && (rest.startsWith('/') || /^https?:\/\//i.test(rest) || rest.startsWith('{{'))) {
    return { method: word.toUpperCase(), url: rest, problem: { message: 'unknownMethod', detail: word } };
  }
  return { method: 'GET', url: withoutVersion };
}

function readBody(lines: readonly string[], first: number, last: number, setAside: ReadonlyMap<number, unknown>): RequestBody | undefined {
  const kept: number[] = [];
  for (let line = first; line <= last; line++) if (!setAside.has(line)) kept.push(line);
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
  const text = kept.slice(start, end + 1).map((line) => lines[line]).join('\n');
  return { kind: 'inline', text, startLine: kept[start], endLine: kept[end] };
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
