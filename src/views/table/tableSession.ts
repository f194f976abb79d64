/**
 * One open table: the webview's requests applied to its model, and what to send back. The editor's
 * parts (the column picker, the clipboard, a tab for a row) come in as `TableActions`, so this runs and
 * is tested in plain Node. No `vscode` here.
 */
import * as l10n from '../../common/l10n';
import type { ColumnView, TableModel } from './tableModel';
import type { TableFrame, TableRequest, TableRow, TableUpdate } from './tableProtocol';

export interface TableActions {
  /** The columns the user picked to show (in any order); undefined when the choice was dismissed. */
  chooseColumns(all: readonly ColumnView[], shown: readonly number[]): Promise<number[] | undefined>;
  copy(text: string): Promise<void>;
  openRow(id: number, record: unknown): Promise<void>;
}

/** Rows sent with each frame: a tall screen's worth. */
export const FIRST_ROWS = 100;

export class TableSession {
  private generation = 0;

  constructor(
    private readonly model: TableModel,
    private readonly post: (update: TableUpdate) => void,
    private readonly actions: TableActions,
    private readonly locale: string,
  ) {}

  /** Headings, view state, notices and the first rows. */
  frame(): TableFrame {
    const state = this.model.state();
    return {
      generation: this.generation,
      columns: this.model.columnViews(),
      sort: state.sort,
      filter: state.filter,
      total: this.model.total,
      shown: this.model.shown,
      totalText: this.model.total.toLocaleString(this.locale),
      shownText: this.model.shown.toLocaleString(this.locale),
      notices: this.model.notices(),
      rows: this.rows(0, FIRST_ROWS),
      rowsStart: 0,
    };
  }

  async handle(request: TableRequest): Promise<void> {
    switch (request.type) {
      case 'ready':
        return this.sendFrame();
      case 'rows':
        if (request.generation === this.generation) this.post({ type: 'rows', generation: this.generation, start: request.start, rows: this.rows(request.start, request.count) });
        return;
      case 'sort':
        this.model.setSort(request.column, request.direction);
        return this.changed();
      case 'filter':
        this.model.setFilter(request.text);
        return this.changed();
      case 'move':
        this.model.moveColumn(request.column, request.to);
        return this.changed();
      case 'chooseColumns':
        return this.chooseColumns();
      case 'copy':
        if (request.generation !== this.generation) return this.post({ type: 'status', text: l10n.t('The table changed meanwhile: select the rows again.') });
        return this.copy(request.format, request.rows && this.model.idsAt(request.rows));
      case 'openRow':
        if (this.model.record(request.id) !== undefined) await this.actions.openRow(request.id, this.model.record(request.id));
        return;
    }
  }

  private rows(start: number, count: number): TableRow[] {
    return this.model.rows(start, count);
  }

  private changed(): void {
    this.generation += 1;
    this.sendFrame();
  }

  private sendFrame(): void {
    this.post({ type: 'frame', frame: this.frame() });
  }

  private async chooseColumns(): Promise<void> {
    const chosen = await this.actions.chooseColumns(this.model.columnViews('all'), this.model.state().shown);
    if (!chosen) return;
    if (chosen.length === 0) {
      this.post({ type: 'status', text: l10n.t('A table shows at least one column: the columns stay as they were.') });
      return;
    }
    this.model.setShownColumns(keptOrder(this.model.state().shown, chosen));
    this.changed();
  }

  private async copy(format: 'csv' | 'tsv', ids: number[] | undefined): Promise<void> {
    const copied = this.model.copy(format, ids);
    await this.actions.copy(copied.text);
    const rows = copied.rows.toLocaleString(this.locale);
    const text =
      format === 'csv'
        ? l10n.byCount(copied.rows, l10n.t('Copied {0} row as CSV.', rows), l10n.t('Copied {0} rows as CSV.', rows))
        : l10n.byCount(copied.rows, l10n.t('Copied {0} row as TSV.', rows), l10n.t('Copied {0} rows as TSV.', rows));
    this.post({ type: 'status', text });
  }
}

/** The picked columns: those shown already in their order, then the others in the table's order. */
export function keptOrder(shown: readonly number[], picked: readonly number[]): number[] {
  const wanted = new Set(picked);
  const kept = shown.filter((index) => wanted.has(index));
  const added = [...wanted].filter((index) => !shown.includes(index)).sort((a, b) => a - b);
  return [...kept, ...added];
}
