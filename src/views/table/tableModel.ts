/**
 * The table of a list answer: its records (the body itself or its largest list), their columns, and the
 * view a user makes of them (sort, filter, which columns in which order), read a window of rows at a
 * time so that 100,000 records cost nothing until they are scrolled to. The webview only draws what this
 * gives it. No `vscode` here.
 */
import * as l10n from '../../common/l10n';
import { longestList } from '../bodyList';
import { CellFormat, copyText, joinRows, type CellText } from './tableCells';
import { columnLabel, discoverColumns, isNumeric, MAX_COLUMNS, valueAt, type ColumnDef, type ColumnPath } from './tableColumns';
import { sortedOrder, type SortDirection } from './tableSort';

export interface TableSource {
  records: unknown[];
  /** The property holding the list; '' when the body is the list. */
  listKey: string;
}

export type TableProblem = 'notJson' | 'noList';

/** Bodies up to this size that were not parsed (no JSON content type) are tried as JSON here. */
const PARSE_LIMIT_CHARS = 64 * 1024 * 1024;

/** The list of a response body, or why there is none. */
export function tableSourceOf(body: { json?: unknown; bodyText: string }): TableSource | { problem: TableProblem } {
  let json = body.json;
  if (json === undefined) {
    if (body.bodyText.trim() === '' || body.bodyText.length > PARSE_LIMIT_CHARS) return { problem: 'notJson' };
    try {
      json = JSON.parse(body.bodyText);
    } catch {
      return { problem: 'notJson' };
    }
  }
  const list = longestList(json);
  return list ? { records: list.items, listKey: list.key } : { problem: 'noList' };
}

export interface ColumnView {
  index: number;
  label: string;
  numeric: boolean;
}

export interface RowView {
  /** The record's index in the list. */
  id: number;
  /** One per shown column, in order. */
  cells: CellText[];
}

export interface TableViewState {
  sort?: { column: number; direction: SortDirection };
  filter: string;
  /** The shown columns, in order. */
  shown: number[];
}

export interface TableModelOptions {
  locale: string;
  /** Columns shown at first; the others are chosen by the user. */
  initialColumns?: number;
  /** Applied to every text the view shows (secrets the extension knows never reach a webview). */
  mask?: (text: string) => string;
}

export const INITIAL_COLUMNS = 50;

export class TableModel {
  readonly columns: readonly ColumnDef[];
  private readonly nonObjects: number;
  private readonly leftOut: number;
  private readonly format: CellFormat;
  private shownColumns: number[];
  private sort: TableViewState['sort'];
  private filter = '';
  /** Record indexes in the sort's order (undefined: the answer's order). */
  private sorted: number[] | undefined;
  /** The rows shown, in order (undefined: every record in the sort's order). */
  private view: number[] | undefined;
  /** The filter and columns `view` was made with (undefined: not filtered). */
  private filtered: string | undefined;
  private filteredPaths: readonly ColumnPath[] = [];

  constructor(
    private readonly source: TableSource,
    private readonly options: TableModelOptions,
  ) {
    const found = discoverColumns(source.records);
    this.columns = found.columns;
    this.nonObjects = found.nonObjects;
    this.leftOut = found.leftOut;
    this.format = new CellFormat(options.locale, options.mask);
    this.shownColumns = found.columns.slice(0, options.initialColumns ?? INITIAL_COLUMNS).map((column) => column.index);
  }

  get total(): number {
    return this.source.records.length;
  }

  /** Rows that pass the filter. */
  get shown(): number {
    return this.view ? this.view.length : this.total;
  }

  get listKey(): string {
    return this.source.listKey;
  }

  state(): TableViewState {
    return { sort: this.sort && { ...this.sort }, filter: this.filter, shown: [...this.shownColumns] };
  }

  /** Every column, for choosing; `valueLabel` names the column of items that are not objects. */
  columnViews(which: 'shown' | 'all' = 'shown'): ColumnView[] {
    const indexes = which === 'shown' ? this.shownColumns : this.columns.map((column) => column.index);
    return indexes.map((index) => {
      const column = this.columns[index];
      return { index, label: columnLabel(column.path, l10n.t('(value)')), numeric: isNumeric(column) };
    });
  }

  isColumn(index: number): boolean {
    return Number.isInteger(index) && index >= 0 && index < this.columns.length;
  }

  setSort(column: number, direction: SortDirection | undefined): void {
    if (!this.isColumn(column)) return;
    this.sort = direction ? { column, direction } : undefined;
    const all = Array.from({ length: this.total }, (_, index) => index);
    this.sorted = this.sort ? sortedOrder(all, this.valuesOf(column), this.sort.direction, this.options.locale) : undefined;
    this.applyFilter();
  }

  /** Rows holding the text (in any shown column, as the answer holds the value, case ignored). */
  setFilter(text: string): void {
    this.filter = text;
    this.applyFilter();
  }

  /** The columns to show, in order (unknown ones and repeats dropped; at least one stays). */
  setShownColumns(indexes: readonly number[]): void {
    const known = [...new Set(indexes.filter((index) => this.isColumn(index)))];
    if (known.length === 0) return;
    this.shownColumns = known;
    if (this.filter) this.applyFilter();
  }

  /** Moves a shown column to another place among the shown ones. */
  moveColumn(column: number, to: number): void {
    const from = this.shownColumns.indexOf(column);
    if (from < 0) return;
    const next = [...this.shownColumns];
    next.splice(from, 1);
    next.splice(Math.max(0, Math.min(next.length, to)), 0, column);
    this.shownColumns = next;
  }

  /** `count` rows from the `start`-th shown row. */
  rows(start: number, count: number): RowView[] {
    const rows: RowView[] = [];
    const end = Math.min(this.shown, start + count);
    const paths = this.shownColumns.map((index) => this.columns[index].path);
    for (let position = Math.max(0, start); position < end; position += 1) {
      const id = this.recordAt(position);
      const record = this.source.records[id];
      rows.push({ id, cells: paths.map((path) => this.format.cell(valueAt(record, path))) });
    }
    return rows;
  }

  /** The records at these positions among the shown rows (positions past the end are dropped). */
  idsAt(positions: readonly number[]): number[] {
    return positions.filter((position) => Number.isInteger(position) && position >= 0 && position < this.shown).map((position) => this.recordAt(position));
  }

  /** The record with this index, for "open as JSON"; undefined for an index out of the list. */
  record(id: number): unknown {
    return Number.isInteger(id) && id >= 0 && id < this.total ? this.source.records[id] : undefined;
  }

  /**
   * The shown columns of these records (every shown row when none are named), with a heading line, as
   * CSV or TSV: values as the answer holds them.
   */
  copy(format: 'csv' | 'tsv', ids?: readonly number[]): { text: string; rows: number } {
    const chosen = ids ? ids.filter((id) => this.record(id) !== undefined) : Array.from({ length: this.shown }, (_, position) => this.recordAt(position));
    const paths = this.shownColumns.map((index) => this.columns[index].path);
    const heading = this.columnViews().map((column) => column.label);
    const lines = chosen.map((id) => paths.map((path) => copyText(valueAt(this.source.records[id], path))));
    return { text: joinRows([heading, ...lines], format), rows: chosen.length };
  }

  /** What the table shows and what it left out, in sentences. */
  notices(): string[] {
    const count = this.total.toLocaleString(this.options.locale);
    const notices = [
      this.source.listKey === ''
        ? l10n.byCount(this.total, l10n.t('The answer is a list of {0} item.', count), l10n.t('The answer is a list of {0} items.', count))
        : l10n.byCount(
            this.total,
            l10n.t('The list "{0}" of the answer (its largest): {1} item.', this.source.listKey, count),
            l10n.t('The list "{0}" of the answer (its largest): {1} items.', this.source.listKey, count),
          ),
    ];
    if (this.nonObjects > 0) notices.push(l10n.t('{0} items are not objects: they are in the column "{1}".', this.nonObjects.toLocaleString(this.options.locale), l10n.t('(value)')));
    if (this.leftOut > 0) notices.push(l10n.t('{0} further keys are left out: a table shows at most {1} columns.', this.leftOut, MAX_COLUMNS));
    if (this.shownColumns.length < this.columns.length) {
      notices.push(l10n.t('{0} of {1} columns are shown: choose columns to see the others.', this.shownColumns.length, this.columns.length));
    }
    return notices;
  }

  private recordAt(position: number): number {
    if (this.view) return this.view[position];
    return this.sorted ? this.sorted[position] : position;
  }

  private valuesOf(column: number): unknown[] {
    const path = this.columns[column].path;
    return this.source.records.map((record) => valueAt(record, path));
  }

  private applyFilter(): void {
    const needle = this.filter.trim().toLowerCase();
    if (needle === '') {
      this.view = undefined;
      this.filtered = undefined;
      return;
    }
    const paths = this.shownColumns.map((index) => this.columns[index].path);
    // Typing on narrows the rows already found: only the first letters look at every record.
    const narrowing = this.view !== undefined && this.filtered !== undefined && needle.startsWith(this.filtered) && sameColumns(paths, this.filteredPaths);
    const order = narrowing ? this.view! : (this.sorted ?? Array.from({ length: this.total }, (_, index) => index));
    const records = this.source.records;
    this.view = order.filter((id) => paths.some((path) => holds(valueAt(records[id], path), needle)));
    this.filtered = needle;
    this.filteredPaths = paths;
  }
}

/** Whether a value, as the answer holds it, contains the (lower-case) text. */
function holds(value: unknown, needle: string): boolean {
  if (typeof value === 'string') return value.toLowerCase().includes(needle);
  if (value === null || value === undefined) return false;
  return copyText(value).toLowerCase().includes(needle);
}

function sameColumns(a: readonly ColumnPath[], b: readonly ColumnPath[]): boolean {
  return a.length === b.length && a.every((path, index) => path === b[index]);
}
