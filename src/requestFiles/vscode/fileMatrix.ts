/**
 * The editor's side of a matrix run (engine/matrix.ts): the cells of a file's requests, for the
 * tenants they name (or, in the Testing view's "every tenant" profile, every tenant for those that
 * name none) and the rows of the file's `# @data`; and the calls they make, for the run's cost.
 */
import * as path from 'node:path';
import type { TenantResolver } from '../../api/tenantResolver';
import { readDataRows } from '../../engine/documents';
import { matrixCalls, planMatrix, type MatrixCell, type PlannedCall } from '../../engine/matrix';
import type { ParsedFile, ParsedRequest } from '../../engine/parser';
import type { RequestFileRunner } from '../../engine/runner';
import { dependencyNames, plannedCalls } from '../../engine/testing/testPlan';

export interface FileMatrixDeps {
  runner: Pick<RequestFileRunner, 'sources'>;
  tenants: Pick<TenantResolver, 'list' | 'known'>;
}

/** The cells of `requests` of the file at `key` (its URI; its data file read beside it when it is on disk). */
export async function fileMatrix(key: string, fsPath: string | undefined, file: ParsedFile, requests: readonly ParsedRequest[], deps: FileMatrixDeps, tenants?: readonly string[]): Promise<MatrixCell[]> {
  const rows = file.data && fsPath ? readDataRows(file.data.path, path.dirname(fsPath)) : undefined;
  return planMatrix({
    file,
    requests,
    sources: (cell) => deps.runner.sources(key, file, cell),
    tenants,
    rows,
    listTenants: () => deps.tenants.list(),
    knownTenants: () => deps.tenants.known(),
  });
}

/** Every call the cells make, chained requests included, each for its tenant. */
export function fileMatrixCalls(key: string, file: ParsedFile, cells: readonly MatrixCell[], runner: Pick<RequestFileRunner, 'sources'>): PlannedCall[] {
  const sources = { ...runner.sources(key, file), result: () => undefined };
  return matrixCalls(file, cells, (parsed, requests) => plannedCalls(parsed, requests, (request) => dependencyNames(request, sources)));
}
