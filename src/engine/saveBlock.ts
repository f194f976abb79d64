/**
 * "Save to Request File": an ad-hoc request (from the history or a response tab) written as a block
 * of a request file. Only what the user typed is written: never a credential header.
 */
import type { HistoryEntry } from './historyEntry';
import { isCredentialHeader } from '../api/requestHeaders';

export interface SavableRequest {
  method: string;
  /** A path (the route table picks the host) or, when the host is not the platform's, an absolute URL. */
  target: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string;
  /** The tenant's code, written as `# @tenant`. */
  tenant?: string;
  name?: string;
}

/** A name a request file accepts after `# @name`, from the last segment of the path. */
export function suggestedName(target: string, taken: ReadonlySet<string>): string {
  const segment = target.split('?')[0].split('/').filter(Boolean).pop() ?? 'request';
  const base = segment.replace(/[^\w-]+/g, '') || 'request';
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
  return name;
}

export function requestBlock(request: SavableRequest): string {
  const lines: string[] = [];
  if (request.name) lines.push(`# @name ${request.name}`);
  if (request.tenant) lines.push(`# @tenant ${request.tenant}`);
  const query = Object.entries(request.query ?? {});
  lines.push(`${request.method.toUpperCase()} ${request.target}`);
  query.forEach(([name, value], index) => {
    const separator = index === 0 && !request.target.includes('?') ? '?' : '&';
    lines.push(`    ${separator}${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  });
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    if (!isCredentialHeader(name)) lines.push(`${name}: ${value}`);
  }
  if (request.body !== undefined && request.body !== '') {
    if (!Object.keys(request.headers ?? {}).some((name) => name.toLowerCase() === 'content-type')) lines.push('Content-Type: application/json');
    lines.push('', request.body.trimEnd());
  }
  return lines.join('\n') + '\n';
}

/** The text to append to a file that holds `existing`: a `###` separator first unless the file is empty. */
export function appendText(existing: string, block: string): string {
  if (existing.trim() === '') return block;
  return `${existing.endsWith('\n') ? '' : '\n'}\n###\n${block}`;
}

/** The history entry of a response tab whose first line is `// METHOD URL` (the newest one wins). */
export function historyEntryForResponse(firstLine: string, entries: readonly HistoryEntry[]): HistoryEntry | undefined {
  const match = /^\/\/\s+([A-Z]+)\s+(\S+)/.exec(firstLine);
  if (!match) return undefined;
  const [, method, url] = match;
  return [...entries].sort((a, b) => b.at - a.at).find((entry) => entry.method.toUpperCase() === method && entry.url === url);
}
