/**
 * The table webview: a toolbar (filter, columns, copy), what the table shows, and the grid. It draws
 * what the extension sends and sends back what the user asks for; sorting, filtering and copying happen
 * in the extension (src/views/table), where the records are.
 */
import type { TableFrame, TableRequest, TableUpdate } from '../../views/table/tableProtocol';
import type { TableStrings } from '../../views/table/tableStrings';
import { element, host, initialData } from '../shared/page';
import { Grid, rowsText, type GridPlace } from './grid';
import './table.css';

interface Initial {
  strings: TableStrings;
  locale: string;
  frame?: TableFrame;
  problem?: string;
}

/** What VS Code keeps while the panel is hidden (the rest is the extension's). */
interface SavedState {
  generation: number;
  place: GridPlace;
  selection: number[];
  everything: boolean;
  format: 'csv' | 'tsv';
}

const initial = initialData<Initial>();
const strings = initial.strings;
const send = (request: TableRequest) => host.postMessage(request);
let frame = initial.frame;

const status = element('span', { id: 'status', class: 'status', role: 'status', 'aria-live': 'polite' });
const rowCount = element('span', { id: 'row-count', class: 'row-count' });
const notices = element('ul', { id: 'notices', class: 'notices' });
const filter = element('input', { id: 'filter', type: 'search', placeholder: strings.filter, 'aria-label': strings.filter, title: strings.filterHint, value: frame?.filter ?? '' });
const formatChoice = element('select', { id: 'format', 'aria-label': strings.copyFormat }, element('option', { value: 'csv' }, 'CSV'), element('option', { value: 'tsv' }, 'TSV'));
const columnsButton = element('button', { id: 'columns', type: 'button', title: strings.columnsHint }, strings.columns);
const copySelection = element('button', { id: 'copy-selection', type: 'button' }, strings.copySelection);
const copyAll = element('button', { id: 'copy-all', type: 'button' }, strings.copyAll);
const keysHelp = element('p', { id: 'grid-keys', class: 'keys' }, `${strings.keys} ${strings.openRow}`);

const grid = new Grid(strings, {
  sort: (column, direction) => send({ type: 'sort', column, direction }),
  move: (column, to) => send({ type: 'move', column, to }),
  openRow: (id) => send({ type: 'openRow', id }),
  askRows: (start, count, generation) => send({ type: 'rows', start, count, generation }),
  // A key or click is saved at once (the panel may be hidden right after it); scrolling once it pauses.
  changed: (byUser) => {
    showCount();
    if (byUser) save();
    else scheduleSave();
  },
});

function copy(rows: number[] | undefined): void {
  if (!frame) return;
  if (rows && rows.length === 0) {
    status.textContent = strings.selectFirst;
    return;
  }
  send({ type: 'copy', format: formatChoice.value === 'tsv' ? 'tsv' : 'csv', rows, generation: frame.generation });
}

function showCount(): void {
  if (frame) rowCount.textContent = rowsText(strings, frame, initial.locale, grid.selectedCount());
}

function showFrame(next: TableFrame): void {
  frame = next;
  notices.replaceChildren(...next.notices.map((notice) => element('li', {}, notice)));
  if (next.shown === 0 && next.filter) notices.append(element('li', { class: 'no-match' }, strings.noMatch.replace('{0}', next.filter)));
  grid.setFrame(next);
  showCount();
}

let saving: ReturnType<typeof setTimeout> | undefined;

/** Saved once scrolling pauses: reading the scroll position right after drawing would force a layout each frame. */
function scheduleSave(): void {
  clearTimeout(saving);
  saving = setTimeout(save, 250);
}

function save(): void {
  clearTimeout(saving);
  if (!frame) return;
  const state: SavedState = { generation: frame.generation, place: grid.place(), ...grid.selectionState(), format: formatChoice.value === 'tsv' ? 'tsv' : 'csv' };
  host.setState(state);
}

/** Restored once the frame it was saved with is shown (the embedded one, or the one `ready` brings). */
let pendingRestore = host.getState() as SavedState | undefined;

function restoreIfDue(): void {
  if (!pendingRestore || !frame || pendingRestore.generation !== frame.generation) return;
  const saved = pendingRestore;
  pendingRestore = undefined;
  formatChoice.value = saved.format;
  grid.restore(saved.place, saved.selection, saved.everything);
  showCount();
}

function onUpdate(update: TableUpdate): void {
  switch (update.type) {
    case 'frame':
      // The answer to `ready` when nothing changed since the page was made: what is drawn is that frame.
      if (update.frame.generation !== frame?.generation) showFrame(update.frame);
      return restoreIfDue();
    case 'rows':
      return grid.addRows(update.generation, update.start, update.rows);
    case 'status':
      status.textContent = update.text;
      return;
    case 'problem':
      document.getElementById('app')?.replaceChildren(element('p', { class: 'problem', role: 'alert' }, update.text));
      return;
  }
}

function start(): void {
  const app = document.getElementById('app')!;
  if (initial.problem || !frame) {
    app.append(element('p', { class: 'problem', role: 'alert' }, initial.problem ?? ''));
    return;
  }
  let typing: ReturnType<typeof setTimeout> | undefined;
  filter.addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(() => send({ type: 'filter', text: filter.value }), 200);
  });
  columnsButton.addEventListener('click', () => send({ type: 'chooseColumns' }));
  copySelection.addEventListener('click', () => copy(grid.selected()));
  copyAll.addEventListener('click', () => copy(undefined));
  formatChoice.addEventListener('change', save);
  grid.root.addEventListener('keydown', (event) => {
    if ((event.ctrlKey || event.metaKey) && (event.key === 'c' || event.key === 'C')) {
      event.preventDefault();
      copy(grid.selected());
    }
  });
  const toolbar = element('div', { class: 'toolbar', role: 'toolbar', 'aria-controls': 'grid' }, filter, columnsButton, formatChoice, copySelection, copyAll, rowCount, status);
  app.append(toolbar, notices, keysHelp, grid.root);
  showFrame(frame);
  restoreIfDue();
  window.addEventListener('message', (event: MessageEvent<TableUpdate>) => onUpdate(event.data));
  // The page was made when the table opened; after a hide and show the extension's view may be newer.
  send({ type: 'ready' });
}

start();
