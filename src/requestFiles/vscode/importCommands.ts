import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMAND, INTERNAL_COMMAND, type CommandHandlers } from '../../common/commandIds';
import { ImportError, importRequests, type ImportNote, type ImportResult } from '../../engine/importers';
import { curlAsRequestText, isCurlCommand } from '../../engine/importers/curl';
import { combineImports, planImport, type PlannedFile } from '../../engine/importers/importPlan';
import { parseRequestFile, requestAtLine } from '../../engine/parser';
import { isRequestDocument, REQUEST_LANGUAGE } from './documents';

/**
 * The editor's imports, over the same importers as `tenant-api import`: Import Postman Collection
 * (collections and environment exports, into a folder of the workspace) and Paste cURL as Request (the
 * clipboard's command into the request file being edited, else a new one). What an import dropped is
 * said; a failure is one message and writes nothing.
 */
export function importCommands(): CommandHandlers {
  return {
    [COMMAND.importPostmanCollection]: (args?: { files?: string[]; folder?: string; replace?: boolean }) => importPostman(args ?? {}),
    [COMMAND.pasteCurlAsRequest]: (args?: { text?: string }) => pasteCurl(args ?? {}),
    [INTERNAL_COMMAND.showImportNotes]: (notes: ImportNote[] | string[]) => showNotes(notes.map((note) => (typeof note === 'string' ? { message: note } : note))),
  };
}

function noteLine(note: ImportNote): string {
  return note.where ? `${note.where}: ${note.message}` : note.message;
}

/** A few notes in the notification itself; more in a document the notification opens. */
async function showNotes(notes: readonly ImportNote[], done?: string): Promise<void> {
  if (notes.length === 0) {
    if (done) void vscode.window.showInformationMessage(done);
    return;
  }
  if (notes.length <= 2) {
    void vscode.window.showInformationMessage([done, ...notes.map(noteLine)].filter(Boolean).join(' '));
    return;
  }
  const show = vscode.l10n.t('Show Notes');
  const answer = await vscode.window.showInformationMessage(
    [done, vscode.l10n.t('{0} things were left out or changed.', notes.length)].filter(Boolean).join(' '),
    show,
  );
  if (answer !== show) return;
  const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: `# ${vscode.l10n.t('What the import left out or changed')}\n\n${notes.map((note) => `- ${noteLine(note)}`).join('\n')}\n` });
  await vscode.window.showTextDocument(document, { preview: true });
}

async function chooseFiles(args: { files?: string[] }): Promise<vscode.Uri[] | undefined> {
  if (args.files) return args.files.map((file) => vscode.Uri.file(file));
  return vscode.window.showOpenDialog({
    canSelectMany: true,
    openLabel: vscode.l10n.t('Import'),
    title: vscode.l10n.t('Postman collections and environments to import'),
    filters: { [vscode.l10n.t('Postman exports')]: ['json'] },
  });
}

async function chooseFolder(args: { folder?: string }): Promise<string | undefined> {
  if (args.folder) return args.folder;
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 1) return folders[0].uri.fsPath;
  const picked = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: vscode.l10n.t('Import Here'), title: vscode.l10n.t('Folder for the request files') });
  return picked?.[0]?.fsPath;
}

async function readPlan(files: readonly vscode.Uri[], folder: string): Promise<{ result: ImportResult; planned: PlannedFile[] }> {
  const results: ImportResult[] = [];
  for (const file of files) {
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    results.push(await importRequests({ text, source: path.basename(file.fsPath) }, 'postman'));
  }
  const result = combineImports(results);
  const existing = new Map<string, string | undefined>();
  for (const file of result.files) {
    try {
      existing.set(file.path, new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(path.join(folder, file.path)))));
    } catch {
      existing.set(file.path, undefined);
    }
  }
  return { result, planned: planImport(result.files, (file) => existing.get(file)) };
}

async function importPostman(args: { files?: string[]; folder?: string; replace?: boolean }): Promise<string[] | undefined> {
  const files = await chooseFiles(args);
  if (!files?.length) return undefined;
  const folder = await chooseFolder(args);
  if (!folder) return undefined;
  let plan: Awaited<ReturnType<typeof readPlan>>;
  try {
    plan = await readPlan(files, folder);
  } catch (error) {
    void vscode.window.showErrorMessage(error instanceof ImportError ? error.message : String(error));
    return undefined;
  }
  const replaced = plan.planned.filter((file) => file.replaces).map((file) => file.path);
  if (replaced.length > 0 && args.replace !== true) {
    const replace = vscode.l10n.t('Replace');
    const answer = await vscode.window.showWarningMessage(vscode.l10n.t('{0} exist already. Replace them?', replaced.join(', ')), { modal: true }, replace);
    if (answer !== replace) return undefined;
  }
  const written: string[] = [];
  for (const file of plan.planned) {
    const target = vscode.Uri.file(path.join(folder, file.path));
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(file.text));
    written.push(target.fsPath);
  }
  const first = written.find((file) => /\.http$/.test(file));
  if (first) await vscode.window.showTextDocument(vscode.Uri.file(first), { preview: false });
  const requests = plan.planned.reduce((sum, file) => sum + file.requests, 0);
  await showNotes(plan.result.notes, vscode.l10n.t('Imported {0} requests into {1} files.', requests, written.length));
  return written;
}

/** Where a pasted request goes in the file being edited: after the request under the cursor, else at the end. */
function insertionPoint(document: vscode.TextDocument, line: number): vscode.Position {
  const request = requestAtLine(parseRequestFile(document.getText()), line);
  const end = request ? request.endLine : document.lineCount - 1;
  return document.lineAt(end).range.end;
}

async function pasteCurl(args: { text?: string }): Promise<string | undefined> {
  let text = args.text ?? (await vscode.env.clipboard.readText());
  if (!isCurlCommand(text)) {
    const typed = await vscode.window.showInputBox({
      title: vscode.l10n.t('Paste cURL as Request'),
      prompt: vscode.l10n.t('The clipboard holds no cURL command: paste one here.'),
      placeHolder: "curl 'https://…' -H 'Accept: application/json'",
      validateInput: (value) => (value.trim() === '' || isCurlCommand(value) ? undefined : vscode.l10n.t('A cURL command starts with curl.')),
    });
    if (!typed) return undefined;
    text = typed;
  }
  let converted: ReturnType<typeof curlAsRequestText>;
  try {
    converted = curlAsRequestText(text);
  } catch (error) {
    void vscode.window.showErrorMessage(error instanceof ImportError ? error.message : String(error));
    return undefined;
  }
  const editor = vscode.window.activeTextEditor;
  if (editor && isRequestDocument(editor.document)) {
    const at = insertionPoint(editor.document, editor.selection.active.line);
    const empty = editor.document.getText().trim() === '';
    const inserted = empty ? converted.text : `\n\n###\n${converted.text}`;
    await editor.edit((edit) => (empty ? edit.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), `${inserted}\n`) : edit.insert(at, inserted)));
    const line = empty ? 0 : at.line + 3;
    editor.selection = new vscode.Selection(line, 0, line, 0);
    editor.revealRange(new vscode.Range(line, 0, line, 0));
  } else {
    const document = await vscode.workspace.openTextDocument({ language: REQUEST_LANGUAGE, content: `${converted.text}\n` });
    await vscode.window.showTextDocument(document, { preview: false });
  }
  await showNotes(converted.notes.map((note) => ({ message: note.message })));
  return converted.text;
}
