/**
 * A failed assertion as a problem at its line (what the editor shows until the request is sent again),
 * and where such a problem goes when the file is edited. No `vscode` here.
 */
import * as l10n from '../../common/l10n';
import type { AssertionResult } from './evaluateAssertion';

export interface FailedAssertionDiagnostic {
  line: number;
  start: number;
  end: number;
  message: string;
}

/** Values this long are cut in a message: a whole body belongs in the response tab, not in the Problems view. */
export const SHOWN_VALUE_CHARS = 200;

export function shortValue(value: string): string {
  const flat = value.replace(/\s+/g, ' ');
  return flat.length > SHOWN_VALUE_CHARS ? `${flat.slice(0, SHOWN_VALUE_CHARS)}…` : flat;
}

/** "expected 200, found 404", or "found …" for an operator that takes no value (`exists`). */
export function expectedAndActual(result: Pick<AssertionResult, 'expected' | 'actual'>): string {
  return result.expected === ''
    ? l10n.t('found {0}', shortValue(result.actual))
    : l10n.t('expected {0}, found {1}', shortValue(result.expected), shortValue(result.actual));
}

/**
 * The failed results whose line still reads the assertion as it was checked (a line edited since says
 * nothing about it), each over the assertion's text, saying which value was expected and found (the
 * words of the test result, shortened).
 */
export function failedAssertionDiagnostics(results: readonly AssertionResult[], lineText: (line: number) => string | undefined): FailedAssertionDiagnostic[] {
  return results.flatMap((result) => {
    const text = lineText(result.line);
    if (result.passed || text === undefined || text.trim() !== result.text) return [];
    const start = text.length - text.trimStart().length;
    const message = shortValue(result.message);
    return [{ line: result.line, start, end: start + result.text.length, message }];
  });
}

/**
 * Where a problem at `line` goes after an edit that replaced lines `startLine`..`endLine` with text
 * holding `insertedLines` line breaks: gone when the edit touched its line, moved when lines were
 * added or removed above it.
 */
export function lineAfterEdit(line: number, edit: { startLine: number; endLine: number; insertedLines: number }): number | undefined {
  if (line >= edit.startLine && line <= edit.endLine) return undefined;
  if (line < edit.startLine) return line;
  return line + edit.insertedLines - (edit.endLine - edit.startLine);
}
