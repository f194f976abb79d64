/**
 * How a value reads in a table cell and in a copy: numbers in the display language's notation, ISO dates
 * as readable dates (the value itself in the cell's tooltip), long texts cut with the whole in the
 * tooltip, and null, an empty text and a missing key each visibly different. A copy keeps every value as
 * the answer holds it. No `vscode` here.
 */

/** What kind of value a cell holds: the webview styles each (numbers right-aligned, empties greyed). */
export type CellKind = 'number' | 'text' | 'date' | 'boolean' | 'null' | 'empty' | 'missing' | 'json';

export interface CellText {
  text: string;
  kind: CellKind;
  /** The whole value when the cell shows less of it (a long text, a date, a nested value). */
  title?: string;
}

/** Characters a cell shows of a text; the tooltip shows up to TITLE_CHARS. */
export const CELL_CHARS = 200;
export const TITLE_CHARS = 2000;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/i;

/** The time of an ISO date or date-time text, or undefined for any other text. */
export function isoTime(text: string): { at: number; dateOnly: boolean } | undefined {
  if (text.length < 10 || text.length > 40 || text.charCodeAt(4) !== 45 /* - */) return undefined;
  const dateOnly = DATE_ONLY.test(text);
  if (!dateOnly && !DATE_TIME.test(text)) return undefined;
  // A date alone is a calendar day, not a moment: read it in UTC and show it in UTC.
  const at = Date.parse(dateOnly ? `${text}T00:00:00Z` : text);
  return Number.isFinite(at) ? { at, dateOnly } : undefined;
}

function cut(text: string, chars: number): string {
  return text.length > chars ? `${text.slice(0, chars)}…` : text;
}

/** Formatters for one display language, made once per table. */
export class CellFormat {
  private readonly numbers: Intl.NumberFormat;
  private readonly dates: Intl.DateTimeFormat;
  private readonly times: Intl.DateTimeFormat;

  /** `mask` is applied to every text before it is cut, so no part of a secret it knows shows. */
  constructor(
    locale: string,
    private readonly mask: (text: string) => string = (text) => text,
  ) {
    const safe = Intl.NumberFormat.supportedLocalesOf([locale]).length > 0 ? locale : 'en';
    this.numbers = new Intl.NumberFormat(safe, { useGrouping: false, maximumFractionDigits: 20 });
    this.dates = new Intl.DateTimeFormat(safe, { dateStyle: 'medium', timeZone: 'UTC' });
    this.times = new Intl.DateTimeFormat(safe, { dateStyle: 'medium', timeStyle: 'medium' });
  }

  cell(value: unknown): CellText {
    if (value === undefined) return { text: '', kind: 'missing' };
    if (value === null) return { text: 'null', kind: 'null' };
    if (typeof value === 'number') return { text: this.numbers.format(value), kind: 'number' };
    if (typeof value === 'boolean') return { text: String(value), kind: 'boolean' };
    if (typeof value === 'string') return this.text(this.mask(value));
    const json = this.mask(JSON.stringify(value) ?? '');
    return json.length > CELL_CHARS ? { text: cut(json, CELL_CHARS), kind: 'json', title: cut(json, TITLE_CHARS) } : { text: json, kind: 'json' };
  }

  private text(value: string): CellText {
    if (value === '') return { text: '""', kind: 'empty' };
    const time = isoTime(value);
    if (time) return { text: (time.dateOnly ? this.dates : this.times).format(time.at), kind: 'date', title: value };
    // One line per cell: a line break shows as ↵.
    const line = value.length > CELL_CHARS || /[\r\n]/.test(value) ? cut(value, CELL_CHARS).replace(/\r?\n|\r/g, '↵') : value;
    return line === value ? { text: value, kind: 'text' } : { text: line, kind: 'text', title: cut(value, TITLE_CHARS) };
  }
}

/** A value as a copy holds it: as the answer has it, nested values as JSON, null and nothing as empty. */
export function copyText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}

/**
 * RFC 4180 for CSV: a field with a comma, a quote or a line break is quoted, its quotes doubled. TSV
 * (what spreadsheets paste) has no standard: a field with a tab, a quote or a line break is quoted the
 * same way, which Excel, LibreOffice and Google Sheets read back as one cell.
 */
export function quoteField(text: string, format: 'csv' | 'tsv'): string {
  const special = format === 'csv' ? /[",\r\n]/ : /["\t\r\n]/;
  return special.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function joinRows(rows: readonly (readonly string[])[], format: 'csv' | 'tsv'): string {
  const separator = format === 'csv' ? ',' : '\t';
  const end = format === 'csv' ? '\r\n' : '\n';
  return rows.map((row) => row.map((field) => quoteField(field, format)).join(separator)).join(end) + end;
}
