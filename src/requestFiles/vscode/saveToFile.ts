import * as vscode from 'vscode';
import type { TenantRecord } from '../../api/types';
import type { HistoryEntry } from '../../engine/historyEntry';
import { RESPONSE_SCHEME } from '../../views/responseDocuments';
import { parseRequestFile } from '../../engine/parser';
import { appendText, historyEntryForResponse, requestBlock, suggestedName } from '../../engine/saveBlock';
import { COMMAND, type CommandHandlers } from '../../common/commandIds';

export interface SaveDeps {
  history(): HistoryEntry[];
  knownTenants(): readonly TenantRecord[] | undefined;
}

/** The request to save: the argument (a history entry), the response tab in front, else one picked from the history. */
async function pickEntry(argument: unknown, deps: SaveDeps): Promise<HistoryEntry | undefined> {
  const entries = deps.history();
  if (argument && typeof argument === 'object' && 'method' in argument && 'path' in argument) return argument as HistoryEntry;
  const uri = argument instanceof vscode.Uri ? argument : vscode.window.activeTextEditor?.document.uri;
  if (uri?.scheme === RESPONSE_SCHEME) {
    const document = await vscode.workspace.openTextDocument(uri);
    const entry = historyEntryForResponse(document.lineAt(0).text, entries);
    if (entry) return entry;
  }
  if (entries.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('There is no request in the history yet. Send one first.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    entries.map((entry) => ({ label: `${entry.method} ${entry.path}`, description: entry.tenantLabel, detail: entry.status ? String(entry.status) : undefined, entry })),
    { placeHolder: vscode.l10n.t('Which request should be saved to a request file?') },
  );
  return picked?.entry;
}

export async function pickFile(): Promise<vscode.Uri | undefined> {
  const open = vscode.workspace.textDocuments.filter((document) => /\.(http|rest)$/.test(document.uri.path)).map((document) => document.uri);
  const found = await vscode.workspace.findFiles('**/*.{http,rest}', '**/node_modules/**', 50);
  const unique = new Map([...open, ...found].map((uri) => [uri.toString(), uri]));
  const create = { label: vscode.l10n.t('$(new-file) New request file…'), uri: undefined as vscode.Uri | undefined };
  const picked = await vscode.window.showQuickPick(
    [create, ...[...unique.values()].map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri }))],
    { placeHolder: vscode.l10n.t('Append the request to which file?') },
  );
  if (!picked) return undefined;
  if (picked.uri) return picked.uri;
  return vscode.window.showSaveDialog({ filters: { [vscode.l10n.t('Request files')]: ['http', 'rest'] }, saveLabel: vscode.l10n.t('Create') });
}

export function saveToFileCommands(deps: SaveDeps): CommandHandlers {
  return { [COMMAND.saveRequest]: (argument?: unknown, target?: unknown) => saveRequest(deps, argument, target) };
}

async function saveRequest(deps: SaveDeps, argument: unknown, target: unknown): Promise<string | undefined> {
    const entry = await pickEntry(argument, deps);
    if (!entry) return undefined;
    const uri = target instanceof vscode.Uri ? target : typeof target === 'string' ? vscode.Uri.file(target) : await pickFile();
    if (!uri) return undefined;
    let document: vscode.TextDocument;
    try {
      document = await vscode.workspace.openTextDocument(uri);
    } catch {
      await vscode.workspace.fs.writeFile(uri, new Uint8Array());
      document = await vscode.workspace.openTextDocument(uri);
    }
    const taken = new Set(parseRequestFile(document.getText()).requests.flatMap((request) => (request.name ? [request.name] : [])));
    const tenant = entry.tenantId ? (deps.knownTenants()?.find((candidate) => candidate.id === entry.tenantId)?.codiceAmbienteDati ?? entry.tenantId) : undefined;
    const block = requestBlock({
      method: entry.method,
      target: entry.path,
      query: entry.query,
      headers: entry.headers,
      body: entry.body,
      tenant,
      name: suggestedName(entry.path, taken),
    });
    const end = document.lineAt(document.lineCount - 1).range.end;
    const edit = new vscode.WorkspaceEdit();
    edit.insert(uri, end, appendText(document.getText(), block));
    await vscode.workspace.applyEdit(edit);
    await document.save();
    const editor = await vscode.window.showTextDocument(document, { preview: false });
    const last = document.lineCount - 1;
    editor.revealRange(new vscode.Range(last, 0, last, 0));
    return uri.toString();
}
