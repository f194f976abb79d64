/**
 * Before Send: a request whose JSON body is broken (the problem its line shows) asks first, naming the
 * line and column, instead of sending it anyway.
 */
import * as vscode from 'vscode';
import { malformedJsonBody } from '../../engine/jsonBody';
import { splitLines, type ParsedRequest } from '../../engine/parser';

/** True to send: the body is JSON enough, or the user chose Send Anyway. */
export async function confirmBrokenBody(document: vscode.TextDocument, request: ParsedRequest | undefined): Promise<boolean> {
  const problem = request && malformedJsonBody(splitLines(document.getText()), request);
  if (!problem) return true;
  const send = vscode.l10n.t('Send Anyway');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t('The body is not valid JSON (line {0}, column {1}). Send anyway?', problem.line + 1, problem.column + 1),
    { modal: true, detail: problem.message },
    send,
  );
  return answer === send;
}
