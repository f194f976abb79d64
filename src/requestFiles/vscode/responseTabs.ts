import * as vscode from 'vscode';
import type { ApiResponse } from '../../api/types';
import { formatBytes } from '../../views/responseFormat';
import { formatResponseTab } from '../../views/responsePreview';
import { wholeResponses } from '../../views/wholeResponses';
import { shownHeaderValue } from '../../views/responsePresentation';
import { closeTabs } from '../../views/responseDocuments';

export const FILE_RESPONSE_SCHEME = 'tenant-api-file-response';

/** Response tabs of request files: one per request of a file, updated in place when it is sent again. */
export class FileResponseTabs implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly byRequest = new Map<string, vscode.Uri>();
  private readonly changes = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changes.event;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(FILE_RESPONSE_SCHEME, this);
  private counter = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '// ' + vscode.l10n.t('This response is no longer kept. Send the request again to see it.') + '\n';
  }

  /**
   * Shows `response` in the tab of `requestKey` (the file and the request), beside the file, keeping
   * the focus in the file. A new title (another method or tenant) replaces the old tab.
   */
  async show(requestKey: string, title: string, response: ApiResponse, context: string[], secrets: readonly string[]): Promise<vscode.Uri> {
    const masked = maskResponse(response, secrets);
    const formatted = formatResponseTab(masked, { locale: vscode.env.language, receivedAt: Date.now(), context });
    const extension = formatted.languageId === 'jsonc' ? 'jsonc' : 'txt';
    const name = `${title.replace(/[\\/:*?"<>|#%]+/g, ' ').trim() || 'response'}.${extension}`;
    let uri = this.byRequest.get(requestKey);
    if (!uri || !uri.path.endsWith(`/${name}`)) {
      if (uri) await this.close(uri);
      uri = vscode.Uri.from({ scheme: FILE_RESPONSE_SCHEME, path: `/${++this.counter}/${name}` });
      this.byRequest.set(requestKey, uri);
    }
    this.contents.set(uri.toString(), formatted.text);
    wholeResponses.remember(uri, formatted.preview);
    this.changes.fire(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: false, preserveFocus: true, viewColumn: this.column(uri) });
    return uri;
  }

  /** A plain text tab (the Send All summary). */
  async showText(key: string, name: string, text: string): Promise<vscode.Uri> {
    let uri = this.byRequest.get(key);
    if (!uri || !uri.path.endsWith(`/${name}`)) {
      uri = vscode.Uri.from({ scheme: FILE_RESPONSE_SCHEME, path: `/${++this.counter}/${name}` });
      this.byRequest.set(key, uri);
    }
    this.contents.set(uri.toString(), text);
    this.changes.fire(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: false, preserveFocus: true, viewColumn: this.column(uri) });
    return uri;
  }

  /** The group already showing this tab or another response of ours, else beside the file. */
  private column(uri: vscode.Uri): vscode.ViewColumn {
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        const input = tab.input as { uri?: vscode.Uri } | undefined;
        if (input?.uri?.toString() === uri.toString()) return group.viewColumn;
      }
    }
    const showing = vscode.window.visibleTextEditors.find((editor) => editor.document.uri.scheme === FILE_RESPONSE_SCHEME);
    return showing?.viewColumn ?? vscode.ViewColumn.Beside;
  }

  private async close(uri: vscode.Uri): Promise<void> {
    await closeTabs(uri);
    this.contents.delete(uri.toString());
  }

  dispose(): void {
    this.registration.dispose();
    this.changes.dispose();
    this.contents.clear();
  }
}

function mask(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 3) out = out.split(secret).join('***');
  return out;
}

function maskResponse(response: ApiResponse, secrets: readonly string[]): ApiResponse {
  if (secrets.length === 0) return response;
  return { ...response, url: mask(response.url, secrets) };
}

/** The request part of the header block: method, URL, headers as sent (credentials masked), body size. */
export function requestContextLines(
  response: ApiResponse,
  options: { selectedBy?: string; bodyBytes?: number; source: string; secrets: readonly string[]; locale: string },
): string[] {
  const lines = [vscode.l10n.t('Request: {0}', options.source)];
  // What selected the data (responsePresentation.selectorLine): the tenant, or the licence key's organization.
  if (options.selectedBy) lines.push(options.selectedBy);
  lines.push(vscode.l10n.t('Request headers'));
  for (const name of Object.keys(response.requestHeaders).sort()) {
    // Masked by name (the one isSecretHeader rule, also for a secret header written in the file) and by value.
    lines.push(`  ${name}: ${mask(shownHeaderValue(name, response.requestHeaders[name]), options.secrets)}`);
  }
  lines.push(vscode.l10n.t('Request body: {0}', options.bodyBytes === undefined ? vscode.l10n.t('none') : formatBytes(options.bodyBytes, options.locale)));
  return lines;
}
