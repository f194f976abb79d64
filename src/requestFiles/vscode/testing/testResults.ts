import * as vscode from 'vscode';
import type { RunOutcome } from '../../../engine/runner';
import type { TestVerdict } from '../../../engine/testing/testVerdict';

/** What a run ended with, for the in-editor tests' hook (the Testing view shows the same). */
export interface TestRunReport {
  name: string;
  /** What the run was said to cost before it started. */
  cost?: string;
  /** The cost's or the protected environment's question was declined: nothing was sent. */
  declined?: boolean;
  /** One per item reported: a test, or a tenant's child of a test (`test` then names the test). */
  results: Array<{ file: string; id: string; label: string; test?: string; kind: TestVerdict['kind']; messages: Array<{ line: number; message: string; diff: boolean }> }>;
  /** The first test that got no answer, for the next action its error offers. */
  firstError?: { outcome: RunOutcome; item: vscode.TestItem };
}

function lineRange(document: vscode.TextDocument, line: number): vscode.Range {
  return line < document.lineCount ? document.lineAt(line).range : new vscode.Range(line, 0, line, 0);
}

/** A failed assertion as the Testing view shows it: at its line, expected and actual (a diff for bodies). */
function failureMessage(document: vscode.TextDocument, failure: Extract<TestVerdict, { kind: 'failed' }>['failures'][number]): vscode.TestMessage {
  const message = failure.diff
    ? vscode.TestMessage.diff(failure.message, failure.expected, failure.actual)
    : new vscode.TestMessage(failure.message);
  message.location = new vscode.Location(document.uri, lineRange(document, failure.line));
  return message;
}

/** Tells the run (and the report) what one test came to. */
export function reportVerdict(run: vscode.TestRun, item: vscode.TestItem, document: vscode.TextDocument, verdict: TestVerdict, report: TestRunReport): void {
  const test = item.parent?.parent ? item.parent.label : undefined;
  const entry = { file: document.uri.toString(), id: item.id, label: item.label, ...(test ? { test } : {}), kind: verdict.kind, messages: [] as TestRunReport['results'][number]['messages'] };
  report.results.push(entry);
  const location = item.range && new vscode.Location(document.uri, item.range);
  switch (verdict.kind) {
    case 'passed':
      run.passed(item, verdict.durationMs);
      run.appendOutput(`${vscode.l10n.t('passed: {0}', item.label)}\r\n`, location, item);
      return;
    case 'failed': {
      const messages = verdict.failures.map((failure) => failureMessage(document, failure));
      entry.messages = verdict.failures.map((failure) => ({ line: failure.line, message: failure.message, diff: failure.diff }));
      run.failed(item, messages, verdict.durationMs);
      run.appendOutput(`${vscode.l10n.t('failed: {0}', item.label)}\r\n`, location, item);
      return;
    }
    case 'errored': {
      const message = new vscode.TestMessage(verdict.message);
      message.location = new vscode.Location(document.uri, lineRange(document, verdict.line));
      entry.messages = [{ line: verdict.line, message: verdict.message, diff: false }];
      run.errored(item, message);
      run.appendOutput(`${vscode.l10n.t('not answered: {0}: {1}', item.label, verdict.message)}\r\n`, location, item);
      return;
    }
    case 'skipped':
      run.skipped(item);
      if (verdict.reason) entry.messages = [{ line: item.range?.start.line ?? 0, message: verdict.reason, diff: false }];
      if (verdict.reason) run.appendOutput(`${vscode.l10n.t('skipped: {0}: {1}', test ? `${test} [${item.label}]` : item.label, verdict.reason)}\r\n`, location, item);
  }
}
