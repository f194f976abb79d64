/**
 * The messages between the table's webview and the extension. The webview is a page the extension
 * does not trust: every message from it goes through `parseTableRequest`, and one that is not exactly
 * one of these shapes (with numbers in range) is dropped. No `vscode` and no DOM here: the webview's
 * bundle imports these types too.
 */
import type { CellKind } from './tableCells';
import type { SortDirection } from './tableSort';

export type { CellKind, SortDirection };

/** A row as the webview gets it: the record's index, and per shown column its text, kind and tooltip. */
export interface TableRow {
  id: number;
  cells: Array<{ text: string; kind: CellKind; title?: string }>;
}

export interface TableColumnHeading {
  index: number;
  label: string;
  numeric: boolean;
}

/** Everything the webview draws, but the rows (sent by windows). */
export interface TableFrame {
  /** Goes up with every change of sort, filter or columns: rows of an older one are dropped. */
  generation: number;
  columns: TableColumnHeading[];
  sort?: { column: number; direction: SortDirection };
  filter: string;
  total: number;
  shown: number;
  /** `total` and `shown` as the display language writes them (so the page needs no Intl data to show them). */
  totalText: string;
  shownText: string;
  notices: string[];
  /** The first rows, so that the first screen needs no round trip. */
  rows: TableRow[];
  rowsStart: number;
}

/** What the extension sends; `problem` replaces the table when there is none to show. */
export type TableUpdate =
  | { type: 'frame'; frame: TableFrame }
  | { type: 'rows'; generation: number; start: number; rows: TableRow[] }
  | { type: 'status'; text: string }
  | { type: 'problem'; text: string };

/** What the webview asks for. */
export type TableRequest =
  | { type: 'ready' }
  | { type: 'rows'; start: number; count: number; generation: number }
  | { type: 'sort'; column: number; direction?: SortDirection }
  | { type: 'filter'; text: string }
  | { type: 'move'; column: number; to: number }
  | { type: 'chooseColumns' }
  /** `rows`: positions among the shown rows of `generation`; none: every shown row. */
  | { type: 'copy'; format: 'csv' | 'tsv'; rows?: number[]; generation: number }
  | { type: 'openRow'; id: number };

/** Rows one request may ask for (a screen is about 40). */
export const MAX_ROWS_PER_REQUEST = 500;
/** Filter texts longer than this are refused. */
export const MAX_FILTER_CHARS = 1000;
/** Rows one copy may name (more: copy everything instead). */
export const MAX_COPY_ROWS = 1_000_000;

const isIndex = (value: unknown, max = Number.MAX_SAFE_INTEGER): value is number => Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= max;

function keysAre(message: Record<string, unknown>, allowed: readonly string[]): boolean {
  return Object.keys(message).every((key) => allowed.includes(key));
}

const shapes: { [K in TableRequest['type']]: (message: Record<string, unknown>) => boolean } = {
  ready: (m) => keysAre(m, ['type']),
  rows: (m) => keysAre(m, ['type', 'start', 'count', 'generation']) && isIndex(m.start) && isIndex(m.count, MAX_ROWS_PER_REQUEST) && isIndex(m.generation),
  sort: (m) =>
    keysAre(m, ['type', 'column', 'direction']) && isIndex(m.column) && (m.direction === undefined || m.direction === 'ascending' || m.direction === 'descending'),
  filter: (m) => keysAre(m, ['type', 'text']) && typeof m.text === 'string' && m.text.length <= MAX_FILTER_CHARS,
  move: (m) => keysAre(m, ['type', 'column', 'to']) && isIndex(m.column) && isIndex(m.to),
  chooseColumns: (m) => keysAre(m, ['type']),
  copy: (m) =>
    keysAre(m, ['type', 'format', 'rows', 'generation']) &&
    (m.format === 'csv' || m.format === 'tsv') &&
    isIndex(m.generation) &&
    (m.rows === undefined || (Array.isArray(m.rows) && m.rows.length <= MAX_COPY_ROWS && m.rows.every((row) => isIndex(row)))),
  openRow: (m) => keysAre(m, ['type', 'id']) && isIndex(m.id),
};

/** The request, or undefined when the message is not one. */
export function parseTableRequest(message: unknown): TableRequest | undefined {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return undefined;
  const record = message as Record<string, unknown>;
  if (typeof record.type !== 'string' || !Object.hasOwn(shapes, record.type)) return undefined;
  return shapes[record.type as TableRequest['type']](record) ? (record as TableRequest) : undefined;
}
