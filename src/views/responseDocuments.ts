import * as vscode from 'vscode';
import { type ResponseFormatOptions, type ResponseLike } from './responseFormat';
import { formatResponseTab } from './responsePreview';
import { wholeResponses } from './wholeResponses';
import { KEPT_RESPONSES, RecentlyKept } from './recentlyKept';
import { tabTitle } from './responsePresentation';
import { cachedAnswerLine } from './watchPresentation';
import { longestList } from './bodyList';
import { COMMAND } from '../common/commandIds';

export const RESPONSE_SCHEME = 'tenant-api-response';

/** Where a response tab's request came from, so the tab's actions (Re-run, Copy as cURL) act on it. */
export interface ResponseOrigin {
  kind: 'requestFile';
  /** The request file's URI. */
  file: string;
  /** The request's index in the file, and its name when it has one (found again by name after edits). */
  index: number;
  name?: string;
}

/** A link in a text document (a Send All summary's row to that request's response). */
export interface DocumentLinkSpec {
  line: number;
  start: number;
  end: number;
  target: vscode.Uri;
  tooltip?: string;
}

export interface OpenedResponse {
  uri: vscode.Uri;
  /** Time spent formatting the text, in ms. */
  formatMs: number;
  /** Time until the editor showed the document, in ms. */
  openMs: number;
  prettyPrinted: boolean;
}

export interface ResponseTabOptions {
  /** The title's parts (see responsePresentation.tabTitle); the environment is added when it is not the default. */
  title: string;
  /** Which tab: the same key reuses its tab (responsePresentation.responseTabKey). */
  tabKey: string;
  /** Keep the focus where it is (a request file keeps it), else the response takes it. */
  preserveFocus?: boolean;
  origin?: ResponseOrigin;
  /** CodeLenses on the tab's first line (a watched tab's Stop Watch); each command gets the tab's URI. */
  actions?: TabAction[];
}

/** A command offered on a response tab's first line. */
export interface TabAction {
  title: string;
  tooltip?: string;
  command: string;
}

/** A response's body as "Open as Table" reads it, and the tab's title. */
export interface KeptBody {
  json?: unknown;
  bodyText: string;
  title: string;
}

/** How many responses keep their body for "Open as Table": the newest tabs (bodies are the largest things kept). */
const KEPT_BODIES = 5;

interface Kept {
  text: string;
  languageId: string;
  origin?: ResponseOrigin;
  links?: DocumentLinkSpec[];
  actions?: TabAction[];
}

/**
 * The one provider of read-only response tabs, for Send Request and request files alike: the text is
 * formatted once when the response arrives and served from memory. Every tab is titled the same way
 * and gets the same editor actions (its scheme is the menus' `resourceScheme`).
 */
export class ResponseDocuments implements vscode.TextDocumentContentProvider, vscode.DocumentLinkProvider, vscode.CodeLensProvider, vscode.Disposable {
  private readonly kept = new RecentlyKept<Kept>(KEPT_RESPONSES);
  private readonly bodies = new RecentlyKept<KeptBody & { rows?: number }>(KEPT_BODIES);
  /** The tab of each key. */
  private readonly byKey = new Map<string, vscode.Uri>();
  /** A tab renamed (its status changed): the old one closes once the new one shows, so their group never empties. */
  private readonly replacing = new Map<string, vscode.Uri>();
  private readonly changes = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changes.event;
  private readonly lensChanges = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensChanges.event;
  private counter = 0;
  private readonly registrations: vscode.Disposable[];

  /** `environmentName`: the active environment's name, undefined for the default one. */
  constructor(private readonly environmentName: () => string | undefined = () => undefined) {
    this.registrations = [
      vscode.workspace.registerTextDocumentContentProvider(RESPONSE_SCHEME, this),
      vscode.languages.registerDocumentLinkProvider({ scheme: RESPONSE_SCHEME }, this),
      vscode.languages.registerCodeLensProvider({ scheme: RESPONSE_SCHEME }, this),
      // A tab reopened or restored by the editor (its name has no extension) gets its language back.
      vscode.workspace.onDidOpenTextDocument((document) => void this.restoreLanguage(document)),
      // Now, not with the first response: a CodeLens provider registered later makes every editor drop
      // its CodeLens and ask again, and a request file's lenses vanished under the user's next click.
      wholeResponses.register(),
    ];
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.kept.get(uri.toString())?.text ?? '// ' + vscode.l10n.t('This response is no longer kept. Send the request again to see it.') + '\n';
  }

  provideDocumentLinks(document: vscode.TextDocument): vscode.DocumentLink[] {
    return (this.kept.get(document.uri.toString())?.links ?? []).map((link) => {
      const made = new vscode.DocumentLink(new vscode.Range(link.line, link.start, link.line, link.end), link.target);
      made.tooltip = link.tooltip;
      return made;
    });
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const actions = this.kept.get(document.uri.toString())?.actions ?? [];
    const rows = this.bodies.get(document.uri.toString())?.rows;
    const table: TabAction[] =
      rows === undefined
        ? []
        : [{ title: `$(table) ${vscode.l10n.t('Open as Table ({0} rows)', rows.toLocaleString(vscode.env.language))}`, tooltip: vscode.l10n.t('Shows the list of the answer as a table: sort, filter, choose columns, copy as CSV or TSV'), command: COMMAND.openAsTable }];
    return [...table, ...actions].map(
      (action) => new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), { title: action.title, tooltip: action.tooltip, command: action.command, arguments: [document.uri] }),
    );
  }

  /** The body of a response tab for "Open as Table", while it is kept (the newest KEPT_BODIES tabs). */
  tableBody(uri: vscode.Uri): KeptBody | undefined {
    const kept = this.bodies.get(uri.toString());
    return kept && { json: kept.json, bodyText: kept.bodyText, title: kept.title };
  }

  /** The request a response tab shows, when it came from a request file. */
  originOf(uri: vscode.Uri): ResponseOrigin | undefined {
    return this.kept.get(uri.toString())?.origin;
  }

  /** Formats the response and shows it in its tab (see ResponseTabOptions). */
  async open(response: ResponseLike, options: ResponseFormatOptions & ResponseTabOptions): Promise<OpenedResponse> {
    const started = performance.now();
    const { uri, formatMs, prettyPrinted } = await this.keepFor(response, options, true);
    await this.reveal(uri, options.preserveFocus ?? false);
    return { uri, formatMs, openMs: performance.now() - started, prettyPrinted };
  }

  /** Formats and keeps the response for its tab without showing it (the responses of a Send All). */
  keep(response: ResponseLike, options: ResponseFormatOptions & ResponseTabOptions): Promise<{ uri: vscode.Uri; formatMs: number; prettyPrinted: boolean }> {
    return this.keepFor(response, options, false);
  }

  private async keepFor(response: ResponseLike, options: ResponseFormatOptions & ResponseTabOptions, revealing: boolean): Promise<{ uri: vscode.Uri; formatMs: number; prettyPrinted: boolean }> {
    const started = performance.now();
    // Two connected apps on the same hosts answer alike: the header block says which environment asked.
    const environment = this.environmentName();
    // A static resource's kept answer says so, with its age, and offers Refresh (src/api/responseCache.ts).
    const cached = response.cachedAt === undefined ? [] : [cachedAnswerLine(Date.now() - response.cachedAt)];
    const context = [...cached, ...(environment ? [vscode.l10n.t('Environment: {0}', environment)] : []), ...(options.context ?? [])];
    // A kept answer's time is when it came, not now.
    const formatted = formatResponseTab(response, { locale: vscode.env.language, ...options, receivedAt: response.cachedAt ?? options.receivedAt, context });
    const formatMs = performance.now() - started;
    const uri = await this.tabFor(options.tabKey, this.titled(options.title), revealing);
    const refresh: TabAction[] =
      response.cachedAt === undefined ? [] : [{ title: `$(refresh) ${vscode.l10n.t('Refresh (send now)')}`, tooltip: vscode.l10n.t('Sends the request for real and keeps the new answer'), command: COMMAND.refreshResponse }];
    // The tab's list, when its body holds one, is offered as a table (the CodeLens counts its rows).
    const list = longestList(response.json);
    // The text only when it was not parsed (the table tries it as JSON): a parsed body is kept once.
    this.bodies.set(uri.toString(), { json: response.json, bodyText: response.json === undefined ? response.bodyText : '', title: this.titled(options.title), rows: list?.items.length });
    this.remember(uri, { text: formatted.text, languageId: formatted.languageId, origin: options.origin, actions: [...refresh, ...(options.actions ?? [])] });
    wholeResponses.remember(uri, formatted.preview);
    return { uri, formatMs, prettyPrinted: formatted.prettyPrinted };
  }

  /** A text tab of ours (a Send All summary), with links. */
  async showText(options: ResponseTabOptions & { text: string; languageId: string; links?: DocumentLinkSpec[] }): Promise<vscode.Uri> {
    const uri = await this.tabFor(options.tabKey, this.titled(options.title), true);
    this.remember(uri, { text: options.text, languageId: options.languageId, links: options.links });
    await this.reveal(uri, options.preserveFocus ?? false);
    return uri;
  }

  /** Shows a kept document in the responses' group, in its language, once it shows its current text. */
  async reveal(uri: vscode.Uri, preserveFocus: boolean): Promise<vscode.TextEditor> {
    const kept = this.kept.get(uri.toString());
    let document = await vscode.workspace.openTextDocument(uri);
    if (kept) {
      await contentShown(document, kept.text);
      if (document.languageId !== kept.languageId) document = await vscode.languages.setTextDocumentLanguage(document, kept.languageId);
    }
    const editor = await vscode.window.showTextDocument(document, { preview: false, preserveFocus, viewColumn: this.responseColumn(uri) });
    const replaced = this.replacing.get(uri.toString());
    if (replaced) {
      this.replacing.delete(uri.toString());
      await closeTabs(replaced);
    }
    return editor;
  }

  /** `GET ditte · RC-MI · 200 · Produzione`: the environment ends the title when it is not the default. */
  private titled(title: string): string {
    return tabTitle([title, this.environmentName()]);
  }

  /**
   * The tab's address: the key's own while its name stays, else a new one. The old tab closes when the
   * new one shows (`revealing`), else at once: a group that emptied and opened again would resize the
   * editor beside it, whose CodeLens the editor then draws again under the user's next click.
   */
  private async tabFor(tabKey: string, name: string, revealing: boolean): Promise<vscode.Uri> {
    const known = this.byKey.get(tabKey);
    if (known && known.path.endsWith(`/${name}`)) return known;
    // No extension in the name (the tab reads as its title): the language is set when the tab shows.
    const uri = vscode.Uri.from({ scheme: RESPONSE_SCHEME, path: `/${++this.counter}/${name}` });
    this.byKey.set(tabKey, uri);
    if (known && revealing) this.replacing.set(uri.toString(), known);
    else if (known) await closeTabs(known);
    return uri;
  }

  /**
   * Responses share one editor group: the one showing this tab, else one showing another response,
   * else beside the current editor (so the request, or the request file, stays visible).
   */
  private responseColumn(uri: vscode.Uri): vscode.ViewColumn {
    const ours = (candidate: vscode.Uri | undefined) => candidate?.scheme === RESPONSE_SCHEME;
    for (const group of vscode.window.tabGroups.all) {
      if (group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === uri.toString())) return group.viewColumn;
    }
    const showing = vscode.window.visibleTextEditors.find((editor) => ours(editor.document.uri));
    if (showing?.viewColumn) return showing.viewColumn;
    return vscode.window.activeTextEditor ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
  }

  private remember(uri: vscode.Uri, kept: Kept): void {
    this.kept.set(uri.toString(), kept);
    this.changes.fire(uri);
    this.lensChanges.fire();
  }

  private async restoreLanguage(document: vscode.TextDocument): Promise<void> {
    const kept = document.uri.scheme === RESPONSE_SCHEME ? this.kept.get(document.uri.toString()) : undefined;
    if (kept && document.languageId !== kept.languageId) await vscode.languages.setTextDocumentLanguage(document, kept.languageId);
  }

  dispose(): void {
    for (const registration of this.registrations) registration.dispose();
    this.changes.dispose();
    this.lensChanges.dispose();
    this.kept.clear();
    this.bodies.clear();
    this.byKey.clear();
    this.replacing.clear();
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
