import * as vscode from 'vscode';
import { COMMAND, type CommandHandlers } from '../../common/commandIds';
import { maskTokens } from '../../common/redact';
import type { KeptBody, ResponseDocuments } from '../responseDocuments';
import { bundlePage, webviewOptions } from '../webviewPanel';
import { TableModel, tableSourceOf, type ColumnView } from './tableModel';
import { parseTableRequest, type TableUpdate } from './tableProtocol';
import { TableSession, type TableActions } from './tableSession';
import { tableStrings } from './tableStrings';

export const TABLE_VIEW_TYPE = 'tenantApi.table';

/**
 * "Open as Table": a webview panel per response tab, showing the list of its answer (src/views/table:
 * the model and the session do the work; this wires them to the editor). After a reload of the window
 * the panel comes back saying that its response is no longer kept, as the response tabs do.
 */
export class TablePanels implements vscode.Disposable {
  private readonly open = new Map<string, vscode.WebviewPanel>();
  private readonly registration: vscode.Disposable;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly responses: Pick<ResponseDocuments, 'tableBody' | 'showText'>,
  ) {
    this.registration = vscode.window.registerWebviewPanelSerializer(TABLE_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel) => this.showGone(panel),
    });
  }

  commands(): CommandHandlers {
    return {
      [COMMAND.openAsTable]: (uri?: unknown) => this.show(uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri),
    };
  }

  /** Opens (or shows again) the table of a response tab. */
  async show(tab: vscode.Uri | undefined): Promise<vscode.WebviewPanel | undefined> {
    const key = tab?.toString();
    const existing = key === undefined ? undefined : this.open.get(key);
    if (existing) {
      existing.reveal();
      return existing;
    }
    const body = tab && this.responses.tableBody(tab);
    if (!tab || !body) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Open as Table works on a response tab whose response is still kept: send the request again, then open it as a table.'));
      return undefined;
    }
    const panel = vscode.window.createWebviewPanel(TABLE_VIEW_TYPE, vscode.l10n.t('Table: {0}', body.title), vscode.ViewColumn.Active, webviewOptions(this.extensionUri));
    this.open.set(tab.toString(), panel);
    panel.onDidDispose(() => this.open.delete(tab.toString()));
    this.fill(panel, tab.toString(), body);
    return panel;
  }

  private fill(panel: vscode.WebviewPanel, source: string, body: KeptBody): void {
    const strings = tableStrings();
    const locale = vscode.env.language;
    const found = tableSourceOf(body);
    if ('problem' in found) {
      const problem =
        found.problem === 'notJson'
          ? vscode.l10n.t('The answer is not JSON: a table shows a list of records (the answer itself or its largest list).')
          : vscode.l10n.t('The answer holds no list: a table shows a list of records (the answer itself or its largest list).');
      panel.webview.html = bundlePage(panel.webview, this.extensionUri, 'table', panel.title, { strings, locale, problem });
      return;
    }
    const model = new TableModel(found, { locale, mask: maskTokens });
    const post = (update: TableUpdate) => void panel.webview.postMessage(update);
    const session = new TableSession(model, post, this.actions(body, source), locale);
    panel.webview.onDidReceiveMessage((message: unknown) => {
      const request = parseTableRequest(message);
      if (request) void session.handle(request);
    });
    panel.webview.html = bundlePage(panel.webview, this.extensionUri, 'table', panel.title, { strings, locale, frame: session.frame() });
  }

  private actions(body: KeptBody, source: string): TableActions {
    return {
      chooseColumns: (all, shown) => chooseColumns(all, shown),
      copy: (text) => Promise.resolve(vscode.env.clipboard.writeText(text)),
      openRow: async (id, record) => {
        await this.responses.showText({
          title: vscode.l10n.t('{0} · row {1}', body.title, id + 1),
          tabKey: `table-row:${source}`,
          text: `${JSON.stringify(record, null, 2) ?? 'null'}\n`,
          languageId: 'json',
        });
      },
    };
  }

  private showGone(panel: vscode.WebviewPanel): void {
    panel.webview.options = webviewOptions(this.extensionUri);
    const problem = vscode.l10n.t('This table\'s response is no longer kept (the window was reloaded). Send the request again, then open it as a table.');
    panel.webview.html = bundlePage(panel.webview, this.extensionUri, 'table', panel.title, { strings: tableStrings(), locale: vscode.env.language, problem });
  }

  dispose(): void {
    this.registration.dispose();
    for (const panel of this.open.values()) panel.dispose();
    this.open.clear();
  }
}

/** The column picker: every column, the shown ones ticked. */
async function chooseColumns(all: readonly ColumnView[], shown: readonly number[]): Promise<number[] | undefined> {
  const items = all.map((column) => ({ label: column.label, index: column.index, picked: shown.includes(column.index) }));
  const picked = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    title: vscode.l10n.t('Columns of the table'),
    placeHolder: vscode.l10n.t('Tick the columns to show (the order stays; move a column with Alt+Left or Alt+Right on its heading)'),
  });
  return picked?.map((item) => item.index);
}
