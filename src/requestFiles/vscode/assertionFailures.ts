/**
 * Failed assertions as problems at their lines, in a collection of their own ("Tenant API tests"): a
 * request's are replaced when it is sent again, one goes when its line is edited, and the others move
 * with the lines around them.
 */
import * as vscode from 'vscode';
import type { AssertionResult } from '../../engine/assertions/evaluateAssertion';
import { failedAssertionDiagnostics, lineAfterEdit } from '../../engine/assertions/resultDiagnostics';

export const ASSERTION_FAILURE_SOURCE = 'Tenant API tests';

export class AssertionFailures implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('tenant-api-assertion-results');
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.workspace.onDidChangeTextDocument((event) => this.edited(event)),
      vscode.workspace.onDidCloseTextDocument((document) => this.collection.delete(document.uri)),
    ];
  }

  /** After a send of the request on lines `startLine`..`endLine`: its results replace what it showed before. */
  update(document: vscode.TextDocument, request: { startLine: number; endLine: number }, results: readonly AssertionResult[] | undefined): void {
    const others = (this.collection.get(document.uri) ?? []).filter((item) => item.range.start.line < request.startLine || item.range.start.line > request.endLine);
    const failed = failedAssertionDiagnostics(results ?? [], (line) => (line < document.lineCount ? document.lineAt(line).text : undefined)).map((item) => {
      const diagnostic = new vscode.Diagnostic(new vscode.Range(item.line, item.start, item.line, item.end), item.message, vscode.DiagnosticSeverity.Error);
      diagnostic.source = ASSERTION_FAILURE_SOURCE;
      diagnostic.code = 'assertionFailed';
      return diagnostic;
    });
    this.collection.set(document.uri, [...others, ...failed]);
  }

  private edited(event: vscode.TextDocumentChangeEvent): void {
    let items = this.collection.get(event.document.uri);
    if (!items || items.length === 0 || event.contentChanges.length === 0) return;
    for (const change of event.contentChanges) {
      const edit = { startLine: change.range.start.line, endLine: change.range.end.line, insertedLines: change.text.split('\n').length - 1 };
      items = items.flatMap((item) => {
        const line = lineAfterEdit(item.range.start.line, edit);
        if (line === undefined) return [];
        if (line === item.range.start.line) return [item];
        const moved = new vscode.Diagnostic(new vscode.Range(line, item.range.start.character, line, item.range.end.character), item.message, item.severity);
        moved.source = item.source;
        moved.code = item.code;
        return [moved];
      });
    }
    this.collection.set(event.document.uri, items);
  }

  dispose(): void {
    this.subscriptions.forEach((subscription) => subscription.dispose());
    this.collection.dispose();
  }
}
