/** What may be typed at a position of a request file: the VS Code layer offers the matching items. */
import { assertionSpot, type AssertionSpotKind } from './assertions/assertionEditing';
import { requestAtLine, type ParsedFile } from './parser';

export type CompletionKind = 'method' | 'path' | 'query' | 'header' | 'body' | 'tenant' | 'variable' | AssertionSpotKind;

export interface CompletionSpot {
  kind: CompletionKind;
  /** The word typed so far, which the chosen item replaces. */
  prefix: string;
  /** The request the spot belongs to (its method and URL as written), for what its catalogue documents. */
  request?: { method: string; url: string };
}

/** Common request headers (the credential headers are left out on purpose: the extension sets them). */
export const HEADER_NAMES: readonly string[] = [
  'Accept', 'Accept-Language', 'Cache-Control', 'Content-Type', 'If-Match', 'If-None-Match', 'If-Modified-Since',
  'Prefer', 'User-Agent', 'X-Request-Id', 'X-Correlation-Id',
];

export function completionSpot(file: ParsedFile, lineText: string, line: number, character: number): CompletionSpot {
  const before = lineText.slice(0, character);
  const variable = /\{\{\s*([^{}\s]*)$/.exec(before);
  if (variable) return { kind: 'variable', prefix: variable[1] };
  const assertion = assertionSpot(before);
  if (assertion) return assertion;
  const tenant = /^\s*(?:#|\/\/)\s*@tenant\s+(.*)$/.exec(before) ?? /^\s*@tenant\s*=\s*(.*)$/.exec(before);
  if (tenant) return { kind: 'tenant', prefix: tenant[1] };
  if (/^\s*(#|\/\/|@)/.test(before)) return { kind: 'none', prefix: '' };
  const request = requestAtLine(file, line);
  if (!request || line <= request.requestLine) {
    const method = /^\s*([A-Za-z]*)$/.exec(before);
    if (method) return { kind: 'method', prefix: method[1] };
    const path = /^\s*([A-Za-z]+)\s+(\S*)$/.exec(before);
    if (path) {
      const query = /[?&]([^?&=\s]*)$/.exec(path[2]);
      if (query) return { kind: 'query', prefix: query[1], request: { method: path[1].toUpperCase(), url: path[2] } };
      return { kind: 'path', prefix: path[2] };
    }
    return { kind: 'none', prefix: '' };
  }
  const about = { method: request.method, url: request.url };
  const continued = /^\s*[?&]([^?&=\s]*)$/.exec(before);
  if (continued && !/^\s*\?\?/.test(before)) return { kind: 'query', prefix: continued[1], request: about };
  const lastHeaderLine = request.headers.length > 0 ? request.headers[request.headers.length - 1].line : request.requestLine;
  const bodyStart = request.body ? (request.body.kind === 'inline' ? request.body.startLine : request.body.line) : Infinity;
  if (line <= lastHeaderLine + 1 && line < bodyStart) {
    const header = /^\s*([\w-]*)$/.exec(before);
    if (header) return { kind: 'header', prefix: header[1], request: about };
  }
  // The first line of an empty body: the body from the schema.
  if (line >= lastHeaderLine + 2 && (!request.body || line <= bodyStart) && /^\s*\{?$/.test(before)) return { kind: 'body', prefix: before.trim(), request: about };
  return { kind: 'none', prefix: '' };
}
