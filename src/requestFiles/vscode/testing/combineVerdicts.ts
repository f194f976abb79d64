import type { MatrixCell } from '../../../engine/matrix';
import { cellSuffix } from '../../../engine/matrix';
import type { TestVerdict } from '../../../engine/testing/testVerdict';

/**
 * One test item's verdict from its cells (a test's, or a tenant's, once per data row): errored if any
 * got no answer, else failed with every row's failures (each named with its row), else skipped when
 * none ran, else passed. No `vscode` here.
 */
export function combineVerdicts(verdicts: ReadonlyArray<{ verdict: TestVerdict; cell: Pick<MatrixCell, 'row'> }>): TestVerdict {
  if (verdicts.length === 1) return verdicts[0].verdict;
  const named = (cell: Pick<MatrixCell, 'row'>, message: string) => (cell.row ? `${cellSuffix({ row: cell.row })}: ${message}` : message);
  const errored = verdicts.find((entry) => entry.verdict.kind === 'errored');
  if (errored && errored.verdict.kind === 'errored') return { ...errored.verdict, message: named(errored.cell, errored.verdict.message) };
  const failures = verdicts.flatMap((entry) => (entry.verdict.kind === 'failed' ? entry.verdict.failures.map((failure) => ({ ...failure, message: named(entry.cell, failure.message) })) : []));
  const durationMs = verdicts.reduce((sum, entry) => sum + ('durationMs' in entry.verdict ? (entry.verdict.durationMs ?? 0) : 0), 0);
  if (failures.length > 0) return { kind: 'failed', failures, durationMs };
  if (verdicts.every((entry) => entry.verdict.kind === 'skipped')) return verdicts[0].verdict;
  return { kind: 'passed', durationMs };
}
