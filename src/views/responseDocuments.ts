import * as vscode from 'vscode';
import { type ResponseFormatOptions, type ResponseLike } from './responseFormat';
import { formatResponseTab } from './responsePreview';
import { wholeResponses } from './wholeResponses';

export const RESPONSE_SCHEME = 'tenant-api-response';

/** How many responses stay available to reopen; older ones are dropped (their tabs show a notice). */
const KEPT_RESPONSES = 20;

export interface OpenedResponse {
  uri: vscode.Uri;
  /** Time spent formatting the text, in ms. */
  formatMs: number;
  /** Time until the editor showed the document, in ms. */
  openMs: number;
  prettyPrinted: boolean;
}

/**
 * Read-only response tabs: the text is formatted once when the response arrives and served from
 * memory, so reopening or re-rendering a tab never formats again.
 */
export class ResponseDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  /** The tab of each request key (responsePresentation.responseTabKey). */
  private readonly byKey = new Map<string, vscode.Uri>();
  private readonly changes = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changes.event;
  private counter = 0;
  private readonly registration: vscode.Disposable;
  private lastColumn: vscode.ViewColumn | undefined;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(RESPONSE_SCHEME, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return (
      this.contents.get(uri.toString()) ??
      '// ' + vscode.l10n.t('This response is no longer kept. Send the request again to see it.') + '\n'
    );
  }

  /**
   * Formats the response and shows it in a read-only tab beside the current editor: the tab of
   * `tabKey` (see responsePresentation.responseTabKey), updated in place, or a new one when the key
   * is new. A new title (another status) replaces that key's tab; other keys' tabs stay open.
   */
  async open(
    response: ResponseLike,
    options: ResponseFormatOptions & { title: string; tabKey: string; preserveFocus?: boolean },
  ): Promise<OpenedResponse> {
    const started = performance.now();
    const formatted = formatResponseTab(response, { locale: vscode.env.language, ...options });
    const formatMs = performance.now() - started;
    const extension = formatted.languageId === 'jsonc' ? 'jsonc' : 'txt';
    const name = `${options.title.replace(/[\\/:*?"<>|#?%]+/g, ' ').trim() || 'response'}.${extension}`;
    const uri = await this.tabFor(options.tabKey, name);
    this.remember(uri.toString(), formatted.text);
    wholeResponses.remember(uri, formatted.preview);
    this.changes.fire(uri);
    let document = await vscode.workspace.openTextDocument(uri);
    await contentShown(document, formatted.text);
    if (document.languageId !== formatted.languageId) {
      document = await vscode.languages.setTextDocumentLanguage(document, formatted.languageId);
    }
    const editor = await vscode.window.showTextDocument(document, {
      preview: false,
      preserveFocus: options.preserveFocus ?? false,
      viewColumn: this.responseColumn(),
    });
    this.lastColumn = editor.viewColumn;
    return { uri, formatMs, openMs: performance.now() - started, prettyPrinted: formatted.prettyPrinted };
  }

  /** The tab's address: the key's own while its name stays, else a new one (its old tab closed). */
  private async tabFor(tabKey: string, name: string): Promise<vscode.Uri> {
    const known = this.byKey.get(tabKey);
    if (known && known.path.endsWith(`/${name}`)) return known;
    if (known) await closeTabs(known);
    const uri = vscode.Uri.from({ scheme: RESPONSE_SCHEME, path: `/${++this.counter}/${name}` });
    this.byKey.set(tabKey, uri);
    return uri;
  }

  /**
   * Responses share one editor group: the one showing a response already, else the last one used
   * while it is still open, else beside the current editor (so the request's context stays visible).
   */
  private responseColumn(): vscode.ViewColumn {
    const showing = vscode.window.visibleTextEditors.find((editor) => editor.document.uri.scheme === RESPONSE_SCHEME);
    if (showing?.viewColumn) return showing.viewColumn;
    const groups = vscode.window.tabGroups.all.map((group) => group.viewColumn);
    if (this.lastColumn && groups.includes(this.lastColumn)) return this.lastColumn;
    return vscode.window.activeTextEditor ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
  }

  private remember(key: string, text: string): void {
    // Re-inserted, so the oldest response is the one sent longest ago.
    this.contents.delete(key);
    this.contents.set(key, text);
    while (this.contents.size > KEPT_RESPONSES) {
      const oldest = this.contents.keys().next().value as string;
      this.contents.delete(oldest);
    }
  }

  dispose(): void {
    this.registration.dispose();
    this.changes.dispose();
    this.contents.clear();
    this.byKey.clear();
  }
}

/** Closes every tab showing `uri` (a response document of this extension). */
export async function closeTabs(uri: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === uri.toString());
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
}

/** Waits (briefly) until an updated document shows its new text, so callers read what was shown. */
async function contentShown(document: vscode.TextDocument, text: string): Promise<void> {
  if (document.getText() === text) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, 2000);
    const subscription = vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.document === document && document.getText() === text) done();
    });
    function done(): void {
      clearTimeout(timer);
      subscription.dispose();
      resolve();
    }
  });
}
