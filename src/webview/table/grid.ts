/**
 * The table's grid: a header row and the rows on screen only (virtual rows: the body is as tall as all
 * the shown rows, and the rows in view are placed in it), with the ARIA grid pattern for screen readers
 * (grid, row, columnheader, gridcell, aria-rowcount and aria-rowindex counting every row, aria-sort,
 * aria-selected, and aria-activedescendant for the cell the keyboard is on).
 */
import type { TableFrame, TableRow } from '../../views/table/tableProtocol';
import type { TableStrings } from '../../views/table/tableStrings';
import { element, format } from '../shared/page';
import { RowCache } from './rowCache';

export const ROW_HEIGHT = 22;
/** Rows drawn beyond the screen on each side, so that a quick scroll finds them drawn. */
const OVERSCAN = 10;

export interface GridEvents {
  sort(column: number, direction: 'ascending' | 'descending' | undefined): void;
  move(column: number, to: number): void;
  openRow(id: number): void;
  askRows(start: number, count: number, generation: number): void;
  changed(byUser: boolean): void;
}

export interface GridPlace {
  scrollTop: number;
  scrollLeft: number;
  row: number;
  column: number;
}

interface Drawn {
  element: HTMLElement;
  loaded: boolean;
}

export class Grid {
  readonly root: HTMLElement;
  private readonly header: HTMLElement;
  private readonly body: HTMLElement;
  private readonly cache: RowCache;
  private readonly drawn = new Map<number, Drawn>();
  private frame: TableFrame | undefined;
  private widths: number[] = [];
  /** The keyboard's cell: row -1 is the header. */
  private active = { row: -1, column: 0 };
  private readonly selection = new Set<number>();
  private everything = false;
  private anchor = 0;
  private drawPending = false;
  /** The width of a character of the grid's font (measured once the grid is in the page). */
  private charWidth: number | undefined;

  constructor(
    private readonly strings: TableStrings,
    private readonly events: GridEvents,
  ) {
    this.cache = new RowCache((start, count, generation) => events.askRows(start, count, generation));
    this.header = element('div', { class: 'row heading-row', role: 'row', 'aria-rowindex': 1 });
    this.body = element('div', { class: 'body', role: 'rowgroup' });
    this.root = element(
      'div',
      { id: 'grid', class: 'grid', role: 'grid', tabindex: 0, 'aria-label': strings.grid, 'aria-multiselectable': 'true', 'aria-describedby': 'grid-keys' },
      element('div', { class: 'head', role: 'rowgroup' }, this.header),
      this.body,
    );
    this.root.addEventListener('scroll', () => this.scheduleDraw(), { passive: true });
    this.root.addEventListener('keydown', (event) => this.onKey(event));
    this.root.addEventListener('focus', () => this.showActive());
    this.body.addEventListener('click', (event) => this.onRowClick(event));
    this.body.addEventListener('dblclick', (event) => this.onRowOpen(event));
    new ResizeObserver(() => this.scheduleDraw()).observe(this.root);
  }

  /** A new frame: a changed generation empties the cache and the selection. */
  setFrame(frame: TableFrame): void {
    const changed = frame.generation !== this.frame?.generation;
    this.frame = frame;
    if (changed) {
      this.cache.reset(frame.generation, frame.rowsStart, frame.rows);
      this.selection.clear();
      this.everything = false;
    }
    this.charWidth ??= measureCharWidth(this.root);
    this.widths = columnWidths(frame, this.charWidth);
    this.active = { row: Math.min(this.active.row, frame.shown - 1), column: Math.min(this.active.column, Math.max(0, frame.columns.length - 1)) };
    this.root.setAttribute('aria-rowcount', String(frame.shown + 1));
    this.root.setAttribute('aria-colcount', String(frame.columns.length));
    this.drawHeader();
    this.body.style.height = `${frame.shown * ROW_HEIGHT}px`;
    this.body.style.width = `${this.totalWidth()}px`;
    for (const drawn of this.drawn.values()) drawn.element.remove();
    this.drawn.clear();
    this.draw(0);
    // The rows beyond the screen in the frame after: drawn in the same one, they would delay this screen.
    requestAnimationFrame(() => this.scheduleDraw());
  }

  addRows(generation: number, start: number, rows: readonly TableRow[]): void {
    if (!this.cache.add(generation, start, rows)) return;
    for (let position = start; position < start + rows.length; position += 1) {
      const drawn = this.drawn.get(position);
      if (drawn && !drawn.loaded) {
        this.fill(drawn.element, position, this.cache.get(position));
        drawn.loaded = true;
      }
    }
    this.scheduleDraw();
  }

  /** Positions of the selected rows (undefined: every shown row), for a copy. */
  selected(): number[] | undefined {
    if (this.everything) return undefined;
    if (this.selection.size > 0) return [...this.selection].sort((a, b) => a - b);
    return this.active.row >= 0 ? [this.active.row] : [];
  }

  selectedCount(): number {
    return this.everything ? (this.frame?.shown ?? 0) : this.selection.size;
  }

  place(): GridPlace {
    return { scrollTop: this.root.scrollTop, scrollLeft: this.root.scrollLeft, row: this.active.row, column: this.active.column };
  }

  restore(place: GridPlace, selection: readonly number[], everything: boolean): void {
    this.active = { row: Math.min(place.row, (this.frame?.shown ?? 0) - 1), column: place.column };
    for (const position of selection) this.selection.add(position);
    this.everything = everything;
    this.root.scrollTop = place.scrollTop;
    this.root.scrollLeft = place.scrollLeft;
    this.draw();
  }

  selectionState(): { selection: number[]; everything: boolean } {
    return { selection: [...this.selection].slice(0, 10_000), everything: this.everything };
  }

  private totalWidth(): number {
    return this.widths.reduce((sum, width) => sum + width, 0);
  }

  private drawHeader(): void {
    const frame = this.frame!;
    const cells = frame.columns.map((column, position) => {
      const sorted = frame.sort?.column === column.index ? frame.sort.direction : undefined;
      const cell = element(
        'div',
        {
          id: `h-${position}`,
          class: `cell heading${column.numeric ? ' numeric' : ''}${sorted ? ` sorted-${sorted}` : ''}`,
          role: 'columnheader',
          'aria-colindex': position + 1,
          'aria-sort': sorted ?? 'none',
          title: format(this.strings.sortBy, column.label),
          draggable: 'true',
          'data-column': column.index,
        },
        element('span', { class: 'label' }, column.label),
        element('span', { class: 'mark', 'aria-hidden': 'true' }, sorted === 'ascending' ? '▲' : sorted === 'descending' ? '▼' : ''),
      );
      cell.style.width = `${this.widths[position]}px`;
      cell.addEventListener('click', () => this.sortBy(position));
      cell.addEventListener('dragstart', (event) => event.dataTransfer?.setData('text/plain', String(column.index)));
      cell.addEventListener('dragover', (event) => event.preventDefault());
      cell.addEventListener('drop', (event) => this.onDrop(event, position));
      return cell;
    });
    this.header.replaceChildren(...cells);
    this.header.style.width = `${this.totalWidth()}px`;
  }

  private scheduleDraw(): void {
    if (this.drawPending) return;
    this.drawPending = true;
    requestAnimationFrame(() => {
      this.drawPending = false;
      this.draw();
      this.events.changed(false);
    });
  }

  /**
   * Draws the rows in view (and `overscan` around: none for a frame's first screen, which shows soonest
   * so), removes the others, asks for rows not here yet.
   */
  private draw(overscan = OVERSCAN): void {
    const frame = this.frame;
    if (!frame) return;
    const visible = Math.ceil(this.root.clientHeight / ROW_HEIGHT);
    const top = Math.floor(this.root.scrollTop / ROW_HEIGHT);
    const first = Math.max(0, top - overscan);
    const last = Math.min(frame.shown - 1, top + visible + overscan);
    this.cache.want(first, last, frame.shown);
    // Rows that left the view are filled again for the rows that came into it: no element is made or
    // thrown away while scrolling, only texts change.
    const spare: HTMLElement[] = [];
    for (const [position, drawn] of this.drawn) {
      if (position < first || position > last) {
        spare.push(drawn.element);
        this.drawn.delete(position);
      }
    }
    for (let position = first; position <= last; position += 1) {
      if (this.drawn.has(position)) continue;
      const row = this.cache.get(position);
      const made = spare.pop() ?? this.newRow();
      this.fill(made, position, row);
      if (!made.isConnected) this.body.append(made);
      this.drawn.set(position, { element: made, loaded: row !== undefined });
    }
    for (const made of spare) made.remove();
  }

  /** A row element with a cell per shown column, sized; `fill` gives it its place and texts. */
  private newRow(): HTMLElement {
    const made = element('div', { role: 'row' });
    made.style.width = `${this.totalWidth()}px`;
    for (const width of this.widths) {
      // Every column is in every row, so no aria-colindex; an id only on the keyboard's cell (showActive).
      const cell = element('div', { role: 'gridcell' });
      cell.style.width = `${width}px`;
      made.append(cell);
    }
    return made;
  }

  /** The row at `position`: its record's cells, or "Loading…" until they come. */
  private fill(made: HTMLElement, position: number, row: TableRow | undefined): void {
    const selected = this.everything || this.selection.has(position);
    made.className = `row${selected ? ' selected' : ''}${row ? '' : ' loading'}`;
    made.setAttribute('aria-rowindex', String(position + 2));
    made.setAttribute('aria-selected', String(selected));
    made.dataset.position = String(position);
    if (row) made.dataset.id = String(row.id);
    else delete made.dataset.id;
    made.style.transform = `translateY(${position * ROW_HEIGHT}px)`;
    const cells = made.children;
    for (let column = 0; column < cells.length; column += 1) {
      const item = cells[column] as HTMLElement;
      const cell = row?.cells[column];
      if (item.id) item.removeAttribute('id');
      item.className = cell ? `cell kind-${cell.kind}` : 'cell';
      item.textContent = cell ? (cell.kind === 'missing' ? '—' : cell.text) : column === 0 && !row ? this.strings.loading : '';
      setOrRemove(item, 'title', cell?.title);
      setOrRemove(item, 'aria-label', cell?.kind === 'missing' ? this.strings.missing : cell?.kind === 'empty' ? this.strings.empty : undefined);
    }
  }

  private refreshSelection(): void {
    for (const [position, drawn] of this.drawn) {
      const selected = this.everything || this.selection.has(position);
      drawn.element.classList.toggle('selected', selected);
      drawn.element.setAttribute('aria-selected', String(selected));
    }
    this.events.changed(true);
  }

  private sortBy(position: number): void {
    const frame = this.frame;
    const column = frame?.columns[position];
    if (!frame || !column) return;
    const current = frame.sort?.column === column.index ? frame.sort.direction : undefined;
    this.events.sort(column.index, current === undefined ? 'ascending' : current === 'ascending' ? 'descending' : undefined);
  }

  private onDrop(event: DragEvent, position: number): void {
    event.preventDefault();
    const column = Number(event.dataTransfer?.getData('text/plain'));
    if (Number.isInteger(column)) this.events.move(column, position);
  }

  private positionOf(event: Event): number | undefined {
    const row = (event.target as HTMLElement).closest<HTMLElement>('.row[data-position]');
    return row ? Number(row.dataset.position) : undefined;
  }

  private onRowClick(event: MouseEvent): void {
    const position = this.positionOf(event);
    if (position === undefined) return;
    const cell = (event.target as HTMLElement).closest<HTMLElement>('.cell');
    const column = cell?.parentElement ? Array.from(cell.parentElement.children).indexOf(cell) : this.active.column;
    this.everything = false;
    if (event.shiftKey) this.selectRange(this.anchor, position);
    else if (event.ctrlKey || event.metaKey) this.toggle(position);
    else {
      this.selection.clear();
      this.selection.add(position);
      this.anchor = position;
    }
    this.active = { row: position, column: Math.max(0, column) };
    this.refreshSelection();
    this.showActive();
  }

  private onRowOpen(event: MouseEvent): void {
    const position = this.positionOf(event);
    const id = position === undefined ? undefined : this.cache.get(position)?.id;
    if (id !== undefined) this.events.openRow(id);
  }

  private toggle(position: number): void {
    if (this.selection.has(position)) this.selection.delete(position);
    else this.selection.add(position);
    this.anchor = position;
  }

  private selectRange(from: number, to: number): void {
    this.selection.clear();
    for (let position = Math.min(from, to); position <= Math.max(from, to); position += 1) this.selection.add(position);
  }

  private onKey(event: KeyboardEvent): void {
    const frame = this.frame;
    if (!frame) return;
    const command = event.ctrlKey || event.metaKey;
    const page = Math.max(1, Math.floor(this.root.clientHeight / ROW_HEIGHT) - 2);
    const last = frame.shown - 1;
    const handled = this.keyAction(event, command, page, last);
    if (handled) {
      event.preventDefault();
      event.stopPropagation();
    }
  }

  /** Whether the key did something (see the grid's description for the keys). */
  private keyAction(event: KeyboardEvent, command: boolean, page: number, last: number): boolean {
    const { row, column } = this.active;
    const lastColumn = (this.frame?.columns.length ?? 1) - 1;
    switch (event.key) {
      case 'ArrowDown':
        return this.moveTo(Math.min(last, row + 1), column, event.shiftKey);
      case 'ArrowUp':
        return this.moveTo(Math.max(-1, row - 1), column, event.shiftKey);
      case 'PageDown':
        return this.moveTo(Math.min(last, row + page), column, event.shiftKey);
      case 'PageUp':
        return this.moveTo(Math.max(row < 0 ? -1 : 0, row - page), column, event.shiftKey);
      case 'ArrowRight':
      case 'ArrowLeft':
        return this.sideways(event, column, lastColumn);
      case 'Home':
        return command ? this.moveTo(Math.min(0, last), column, event.shiftKey) : this.moveTo(row, 0, false);
      case 'End':
        return command ? this.moveTo(last, column, event.shiftKey) : this.moveTo(row, lastColumn, false);
      case ' ':
        return this.spaceOn(row);
      case 'Enter':
        return this.enterOn(row, column);
      case 'a':
      case 'A':
        return command ? this.selectEverything() : false;
      default:
        return false;
    }
  }

  private sideways(event: KeyboardEvent, column: number, lastColumn: number): boolean {
    const step = event.key === 'ArrowRight' ? 1 : -1;
    const target = Math.max(0, Math.min(lastColumn, column + step));
    if (event.altKey && this.active.row === -1 && this.frame) {
      const moved = this.frame.columns[column];
      if (moved && target !== column) {
        this.active.column = target;
        this.events.move(moved.index, target);
      }
      return true;
    }
    return this.moveTo(this.active.row, target, false);
  }

  private spaceOn(row: number): boolean {
    if (row < 0) return this.enterOn(row, this.active.column);
    this.everything = false;
    this.toggle(row);
    this.refreshSelection();
    return true;
  }

  private enterOn(row: number, column: number): boolean {
    if (row < 0) {
      this.sortBy(column);
      return true;
    }
    const id = this.cache.get(row)?.id;
    if (id !== undefined) this.events.openRow(id);
    return true;
  }

  private selectEverything(): boolean {
    this.everything = true;
    this.refreshSelection();
    return true;
  }

  private moveTo(row: number, column: number, extend: boolean): boolean {
    if (!this.frame) return false;
    this.active = { row, column };
    if (extend && row >= 0) {
      this.everything = false;
      this.selectRange(this.anchor, row);
      this.refreshSelection();
    } else if (row >= 0) {
      this.anchor = row;
    }
    this.showActive();
    return true;
  }

  /** Scrolls the keyboard's cell into view, draws it, and names it to screen readers. */
  private showActive(): void {
    const { row, column } = this.active;
    if (row >= 0) {
      const top = row * ROW_HEIGHT;
      const headerHeight = this.header.offsetHeight;
      const view = this.root.clientHeight - headerHeight;
      if (top < this.root.scrollTop) this.root.scrollTop = top;
      else if (top + ROW_HEIGHT > this.root.scrollTop + view) this.root.scrollTop = top + ROW_HEIGHT - view;
      this.draw();
    }
    for (const previous of Array.from(this.root.querySelectorAll('.active'))) {
      previous.classList.remove('active');
      if (previous.id === 'active-cell') previous.removeAttribute('id');
    }
    const cells = row < 0 ? this.header.children : this.drawn.get(row)?.element.children;
    const cell = cells?.[Math.min(column, cells.length - 1)] as HTMLElement | undefined;
    if (cell) {
      cell.classList.add('active');
      if (row >= 0) cell.id = 'active-cell';
      this.root.setAttribute('aria-activedescendant', cell.id);
      const left = cell.offsetLeft;
      if (left < this.root.scrollLeft) this.root.scrollLeft = left;
      else if (left + cell.offsetWidth > this.root.scrollLeft + this.root.clientWidth) this.root.scrollLeft = left + cell.offsetWidth - this.root.clientWidth;
    }
    this.events.changed(true);
  }
}

function setOrRemove(target: HTMLElement, name: string, value: string | undefined): void {
  if (value === undefined) target.removeAttribute(name);
  else if (target.getAttribute(name) !== value) target.setAttribute(name, value);
}

/** Wide enough for the heading and the first rows' texts, within 64 to 360 pixels. */
function columnWidths(frame: TableFrame, charWidth: number): number[] {
  return frame.columns.map((column, position) => {
    let longest = column.label.length + 2;
    for (const row of frame.rows.slice(0, 50)) longest = Math.max(longest, row.cells[position]?.text.length ?? 0);
    return Math.max(64, Math.min(360, Math.ceil(longest * charWidth) + 20));
  });
}

/** The width of one character in the grid's (editor's, monospace) font; 8 pixels when it cannot be measured. */
function measureCharWidth(root: HTMLElement): number {
  const probe = element('span', { class: 'cell', 'aria-hidden': 'true' }, '0'.repeat(20));
  probe.style.position = 'absolute';
  probe.style.visibility = 'hidden';
  root.append(probe);
  const width = probe.getBoundingClientRect().width / 20;
  probe.remove();
  return width > 0 ? width : 8;
}

/** The row count: the frame's counts come written; the page formats only a selection's (Intl's first use costs tens of ms). */
export function rowsText(strings: TableStrings, frame: TableFrame, locale: string, selected: number): string {
  const rows = frame.shown === frame.total ? (frame.total === 1 ? strings.oneRow : format(strings.rows, frame.totalText)) : format(strings.filteredRows, frame.shownText, frame.totalText);
  return selected > 0 ? `${rows} · ${format(strings.selected, selected.toLocaleString(locale))}` : rows;
}
