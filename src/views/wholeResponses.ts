import * as vscode from 'vscode';
import { INTERNAL_COMMAND, type CommandHandlers } from '../common/commandIds';
import type { ResponsePreview } from './responsePreview';

export const WHOLE_RESPONSE_SCHEME = 'tenant-api-whole-response';
/** Internal: the CodeLens of a preview runs it (not in the palette). */
export const OPEN_WHOLE_RESPONSE_COMMAND = INTERNAL_COMMAND.openWholeResponse;

/** How many previews can still open their whole response: each keeps its response (text and parsed JSON). */
const KEPT = 5;

/**
 * "Open the whole response" of the response tabs that show a preview (responsePreview.ts): a
 * CodeLens on the preview's notices, and a read-only tab with the whole response, formatted only then.
 * One for the extension: both kinds of response tab hand it their previews (see `remember`).
 */
class WholeResponses implements vscode.TextDocumentContentProvider, vscode.CodeLensProvider {
  private readonly previews = new Map<string, ResponsePreview>();
  private readonly wholes = new Map<string, string>();
  private readonly lensChanges = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensChanges.event;
  private registration: vscode.Disposable | undefined;
  private counter = 0;

  /** The preview shown at `uri`, or none (a response that was not cut): called where a tab gets its text. */
  remember(uri: vscode.Uri, preview: ResponsePreview | undefined): void {
    const key = uri.toString();
    this.previews.delete(key);
    if (preview) this.previews.set(key, preview);
    while (this.previews.size > KEPT) this.previews.delete(this.previews.keys().next().value as string);
    this.lensChanges.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const preview = this.previews.get(document.uri.toString());
    if (!preview) return [];
    return preview.noticeLines.map(
      (line) =>
        new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
          title: `$(go-to-file) ${vscode.l10n.t('Open the whole response ({0} items)', preview.totalItems.toLocaleString(vscode.env.language))}`,
          tooltip: vscode.l10n.t('Opens every item in a tab of its own; a large document takes seconds to open'),
          command: OPEN_WHOLE_RESPONSE_COMMAND,
          arguments: [document.uri],
        }),
    );
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.wholes.get(uri.toString()) ?? '// ' + vscode.l10n.t('This response is no longer kept. Send the request again to see it.') + '\n';
  }

  /** Formats the whole response of the preview at `previewUri` and opens it beside; its URI, or undefined when not kept. */
  async open(previewUri: vscode.Uri | undefined): Promise<vscode.Uri | undefined> {
    const key = (previewUri ?? vscode.window.activeTextEditor?.document.uri)?.toString();
    const preview = key === undefined ? undefined : this.previews.get(key);
    if (!key || !preview) {
      void vscode.window.showWarningMessage(vscode.l10n.t('This response is no longer kept. Send the request again to see it.'));
      return undefined;
    }
    const whole = preview.whole();
    // A response tab's name has no extension: a dot in it belongs to the title ("Rossi S.r.l.").
    const name = decodeURIComponent(key.slice(key.lastIndexOf('/') + 1));
    const uri = vscode.Uri.from({ scheme: WHOLE_RESPONSE_SCHEME, path: `/${++this.counter}/${name} (${vscode.l10n.t('whole')}).${whole.languageId === 'jsonc' ? 'jsonc' : 'txt'}` });
    this.wholes.clear(); // One whole response at a time: they are the largest texts of the extension.
    this.wholes.set(uri.toString(), whole.text);
    let document = await vscode.workspace.openTextDocument(uri);
    if (document.languageId !== whole.languageId) document = await vscode.languages.setTextDocumentLanguage(document, whole.languageId);
    await vscode.window.showTextDocument(document, { preview: false });
    return uri;
  }

  /**
   * Registers the providers (once, at activation: the response tabs' provider does it). Registering a
   * CodeLens provider makes every open editor drop its CodeLens and ask again, so it is never done later.
   */
  register(): vscode.Disposable {
    this.registration ??= vscode.Disposable.from(
      vscode.workspace.registerTextDocumentContentProvider(WHOLE_RESPONSE_SCHEME, this),
      vscode.languages.registerCodeLensProvider({ language: 'jsonc' }, this),
    );
    return {
      dispose: () => {
        this.registration?.dispose();
        this.registration = undefined;
      },
    };
  }

  /** The handler of "Open the whole response", for the registrar (src/commands/registrar.ts). */
  commands(): CommandHandlers {
    return {
      [OPEN_WHOLE_RESPONSE_COMMAND]: (uri?: vscode.Uri) =>
        vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Opening the whole response…') },
          () => this.open(uri instanceof vscode.Uri ? uri : undefined),
        ),
    };
  }
}

/** The one instance; the response tabs' provider registers its providers at activation. */
export const wholeResponses = new WholeResponses();
