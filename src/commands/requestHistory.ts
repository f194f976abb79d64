/**
 * The last requests sent, kept in globalState so they can be re-run. Never stores a secret: the
 * Authorization and Authorization-Key headers, cookies and any header whose name suggests a
 * secret are dropped before saving, and only what the user typed is kept (not what the client added).
 */

import { isSecretHeader } from '../api/requestHeaders';
import type { HistoryEntry } from '../engine/historyEntry';
import type { Memento } from '../common/memento';

/** The part of vscode.Memento used here. */
export type HistoryMemento = Memento;

export type { HistoryEntry };

export const HISTORY_KEY = 'tenantApi.requestHistory';
export const HISTORY_LIMIT = 50;
/** A body larger than this is not kept (history is for re-running, not for archiving payloads). */
export const HISTORY_BODY_LIMIT = 64 * 1024;

// The one rule of which headers are secret lives with the other header rules (the response tab masks by it too).
export { isSecretHeader };

export function sanitizeEntry(entry: HistoryEntry): HistoryEntry {
  const clean: HistoryEntry = { method: entry.method.toUpperCase(), path: entry.path, at: entry.at };
  if (entry.query && Object.keys(entry.query).length > 0) clean.query = { ...entry.query };
  if (entry.body !== undefined && entry.body.length <= HISTORY_BODY_LIMIT) clean.body = entry.body;
  if (entry.headers) {
    const headers = Object.fromEntries(Object.entries(entry.headers).filter(([name]) => !isSecretHeader(name)));
    if (Object.keys(headers).length > 0) clean.headers = headers;
  }
  if (entry.tenantId) clean.tenantId = entry.tenantId;
  if (entry.tenantLabel) clean.tenantLabel = entry.tenantLabel;
  if (entry.url) clean.url = stripCredentials(entry.url);
  if (entry.status !== undefined) clean.status = entry.status;
  if (entry.error && /^[A-Za-z]{1,32}$/.test(entry.error)) clean.error = entry.error;
  if (entry.timeMs !== undefined) clean.timeMs = Math.round(entry.timeMs);
  return clean;
}

function stripCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** Same request (method, tenant, path, query, body, headers): re-running it replaces the older entry. */
export function sameRequest(a: HistoryEntry, b: HistoryEntry): boolean {
  return (
    a.method === b.method &&
    a.path === b.path &&
    (a.tenantId ?? '') === (b.tenantId ?? '') &&
    JSON.stringify(a.query ?? {}) === JSON.stringify(b.query ?? {}) &&
    (a.body ?? '') === (b.body ?? '') &&
    JSON.stringify(a.headers ?? {}) === JSON.stringify(b.headers ?? {})
  );
}

export class RequestHistory {
  constructor(
    private readonly memento: HistoryMemento,
    private readonly limit = HISTORY_LIMIT,
  ) {}

  /** Newest first. Entries that do not have the expected shape (an older version, a hand edit) are skipped. */
  entries(): HistoryEntry[] {
    const stored = this.memento.get<unknown>(HISTORY_KEY);
    if (!Array.isArray(stored)) return [];
    return stored.filter(isEntry);
  }

  async add(entry: HistoryEntry): Promise<void> {
    const clean = sanitizeEntry(entry);
    const rest = this.entries().filter((existing) => !sameRequest(existing, clean));
    await this.memento.update(HISTORY_KEY, [clean, ...rest].slice(0, this.limit));
  }

  async clear(): Promise<void> {
    await this.memento.update(HISTORY_KEY, []);
  }

  /** Distinct paths, most recent first, for the path suggestions. */
  recentPaths(): string[] {
    return [...new Set(this.entries().map((entry) => entry.path))];
  }
}

function isEntry(value: unknown): value is HistoryEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Partial<HistoryEntry>;
  return typeof entry.method === 'string' && typeof entry.path === 'string' && typeof entry.at === 'number';
}

/** Query string as typed, e.g. "?a=1&b=2" or "a=1&b=2", to an object; repeated names keep the last. */
export function parseQuery(text: string): Record<string, string> {
  const trimmed = text.trim().replace(/^\?/, '');
  if (trimmed === '') return {};
  return Object.fromEntries(new URLSearchParams(trimmed).entries());
}

export function formatQuery(query: Record<string, string> | undefined): string {
  if (!query || Object.keys(query).length === 0) return '';
  return '?' + new URLSearchParams(query).toString();
}
