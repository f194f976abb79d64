import * as vscode from 'vscode';
import { COMMAND } from '../common/commandIds';
import { parseRequestFile } from '../engine/parser';
import { historyEntryForResponse } from '../engine/saveBlock';
import { RESPONSE_SCHEME, type ResponseDocuments } from '../views/responseDocuments';
import type { HistoryEntry } from './requestHistory';

/**
 * The request a response tab shows, for the tab's actions (Re-run, Copy as cURL): a request file's
 * request (the file and its index), else the history entry of the tab's first line (`// GET url`).
 * Undefined when `argument` is not one of our tabs (the command was run from the palette).
 */
export async function responseTabRequest(
  argument: unknown,
  responses: Pick<ResponseDocuments, 'originOf'>,
  entries: readonly HistoryEntry[],
): Promise<{ file: vscode.Uri; index: number } | { entry: HistoryEntry; index: number } | undefined> {
  if (!(argument instanceof vscode.Uri) || argument.scheme !== RESPONSE_SCHEME) return undefined;
  const origin = responses.originOf(argument);
  if (origin) {
    const file = vscode.Uri.parse(origin.file);
    // A named request is found by its name, wherever edits to the file moved it.
    const named = origin.name ? parseRequestFile((await vscode.workspace.openTextDocument(file)).getText()).requests.find((request) => request.name === origin.name) : undefined;
    return { file, index: named?.index ?? origin.index };
  }
  const document = await vscode.workspace.openTextDocument(argument);
  const entry = historyEntryForResponse(document.lineAt(0).text, entries);
  return entry ? { entry, index: entries.indexOf(entry) } : undefined;
}

/** Runs a request file's command (send, copy as cURL) on the request a tab came from. */
export function runFileCommand(command: typeof COMMAND.requestFileSend | typeof COMMAND.requestFileCopyAsCurl | typeof COMMAND.requestFileCopyAsCode, file: vscode.Uri, index: number): Thenable<unknown> {
  return vscode.commands.executeCommand(command, file, index);
}
