/**
 * Sends the cells of a matrix through the one runner, in order, with the front end's guards between
 * them (a quota guard, --bail, Cancel). A tenant whose organization has no licence key for the module is
 * skipped in a matrix, with the sentence that names what to set, and the run goes on; a data row's
 * answers are forgotten once the row is done (10,000 rows keep one row's in memory). No `vscode` here.
 */
import { isApiError } from '../api/errors';
import type { MatrixCell } from './matrix';
import { contextKeys } from './runContext';
import type { RequestDocument, RequestFileRunner, RunOutcome } from './runner';

export type CellResult =
  | { cell: MatrixCell; kind: 'ran'; outcome: RunOutcome }
  /** Not sent: no licence key covers this tenant (the reason names what to set). */
  | { cell: MatrixCell; kind: 'skipped'; reason: string; outcome: RunOutcome }
  /** Not reached: the run stopped before it (the reason says why). */
  | { cell: MatrixCell; kind: 'notRun'; reason: string };

export interface MatrixRunHooks {
  signal?: AbortSignal;
  /** Before a cell: why the run must stop here (a quota guard), or undefined to send it. */
  before?(cell: MatrixCell): string | undefined;
  /** After a cell: why the run must stop now (--bail, the weekly limit), or undefined to go on. */
  after?(result: Exclude<CellResult, { kind: 'notRun' }>): string | undefined;
  onQueuePosition?(position: number): void;
}

/** The licence kinds that make a tenant of a matrix skipped rather than failed. */
const UNCOVERED = 'licenceMissing';

/** Whether an outcome failed (itself, or through a request it read) for want of a licence key. */
export function missingLicence(outcome: RunOutcome): boolean {
  if (outcome.error?.kind === UNCOVERED) return true;
  const cause = outcome.error?.cause;
  return outcome.error?.kind === 'dependency' && isApiError(cause) && cause.kind === UNCOVERED;
}

/** Runs the cells of one file; every cell gets a result, in order (those after a stop are notRun). */
export async function runMatrix(runner: Pick<RequestFileRunner, 'send' | 'forget'>, document: RequestDocument, cells: readonly MatrixCell[], hooks: MatrixRunHooks = {}): Promise<{ results: CellResult[]; stopped?: string }> {
  const results: CellResult[] = [];
  const attempted = new Map<string, RunOutcome>();
  let stopped: string | undefined;
  for (const [index, cell] of cells.entries()) {
    stopped ??= hooks.signal?.aborted ? 'cancelled' : hooks.before?.(cell);
    if (stopped !== undefined) {
      results.push(...cells.slice(index).map((rest) => ({ cell: rest, kind: 'notRun' as const, reason: stopped! })));
      break;
    }
    const outcome = await runner.send(document, cell.request.index, { signal: hooks.signal, attempted, cell: cell.run, onQueuePosition: hooks.onQueuePosition });
    const result: Exclude<CellResult, { kind: 'notRun' }> = cell.multiTenant && missingLicence(outcome) ? { cell, kind: 'skipped', reason: outcome.error!.message, outcome } : { cell, kind: 'ran', outcome };
    results.push(result);
    stopped = hooks.after?.(result);
    const next = cells[index + 1];
    if (cell.row && next?.row !== cell.row) runner.forget(contextKeys(document.key, { row: cell.row }).shared);
  }
  return { results, stopped };
}
