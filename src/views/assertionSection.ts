/**
 * The response tab's section on a request's assertions: a count, then each assertion passed (with the
 * value found) or failed (with what was expected and found, or why). No `vscode` here.
 */
import * as l10n from '../common/l10n';
import type { AssertionResult } from '../engine/assertions/evaluateAssertion';
import { countResults } from '../engine/assertions/checkResponse';
import { expectedAndActual } from '../engine/assertions/resultDiagnostics';

export function assertionSectionLines(results: readonly AssertionResult[] | undefined): string[] {
  if (!results || results.length === 0) return [];
  const { passed, failed } = countResults(results);
  const lines = ['', l10n.t('Assertions: {0} passed, {1} failed', passed, failed)];
  for (const result of results) {
    if (result.passed) lines.push(`  ${l10n.t('passed')} · ${l10n.t('line {0}', result.line + 1)} · ${result.text} · ${expectedAndActual(result)}`);
    // A failure's sentence says what was expected and found, or why the value could not be read.
    else lines.push(`  ${l10n.t('FAILED')} · ${l10n.t('line {0}', result.line + 1)} · ${result.text}`, `      ${result.message}`);
  }
  return lines;
}

/** A Send All row's cell: "2 passed, 1 failed", empty for a request without assertions (or no answer). */
export function assertionCountCell(results: readonly AssertionResult[] | undefined): string {
  if (!results || results.length === 0) return '';
  const { passed, failed } = countResults(results);
  return failed === 0 ? l10n.t('{0} passed', passed) : l10n.t('{0} passed, {1} failed', passed, failed);
}

/** A run's assertions together ("Assertions: 7 passed, 1 failed"), undefined when none was checked. */
export function assertionTotals(runs: ReadonlyArray<readonly AssertionResult[] | undefined>): { text: string; failed: number } | undefined {
  const all = runs.flatMap((results) => results ?? []);
  if (all.length === 0) return undefined;
  const { passed, failed } = countResults(all);
  return { text: l10n.t('Assertions: {0} passed, {1} failed', passed, failed), failed };
}
