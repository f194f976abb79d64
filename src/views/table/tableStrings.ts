/**
 * The table webview's texts, translated here (the webview gets them with its first data): the
 * extraction of `npm run l10n` finds them, and the webview holds no language files. No `vscode` here.
 */
import * as l10n from '../../common/l10n';

export function tableStrings() {
  return {
    filter: l10n.t('Filter rows'),
    filterHint: l10n.t('Shows the rows holding this text in a shown column'),
    columns: l10n.t('Columns…'),
    columnsHint: l10n.t('Choose the columns to show; Alt+Left and Alt+Right on a heading move its column'),
    copySelection: l10n.t('Copy Selection'),
    copyAll: l10n.t('Copy All'),
    copyFormat: l10n.t('Copy as'),
    grid: l10n.t('Records of the answer'),
    keys: l10n.t('Arrow keys move; Space selects a row, Shift+arrows extend the selection, Ctrl+A selects all; Enter on a heading sorts, on a row opens it as JSON; Ctrl+C copies the selection.'),
    rows: l10n.t('{0} rows'),
    oneRow: l10n.t('1 row'),
    filteredRows: l10n.t('{0} of {1} rows'),
    selected: l10n.t('{0} selected'),
    noMatch: l10n.t('No row holds "{0}".'),
    loading: l10n.t('Loading…'),
    missing: l10n.t('no value'),
    empty: l10n.t('empty text'),
    sortBy: l10n.t('Sort by {0}'),
    ascending: l10n.t('ascending'),
    descending: l10n.t('descending'),
    openRow: l10n.t('Double-click or Enter opens the row as JSON'),
    selectFirst: l10n.t('Select rows first: click, Space, or Shift+arrows.'),
  };
}

export type TableStrings = ReturnType<typeof tableStrings>;
