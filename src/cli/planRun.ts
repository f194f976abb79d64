/**
 * What a run will send before it sends anything: each file's matrix (engine/matrix.ts) from --tenant,
 * --data (else the file's `# @data`), --tag and --name, and the calls it makes by organization (what the
 * quota guard weighs before the start). A run that selects nothing, or whose data file is unreadable,
 * is a usage error.
 */
import * as path from 'node:path';
import type { TenantRecord } from '../api/types';
import * as l10n from '../common/l10n';
import { readDataRows } from '../engine/documents';
import { matrixCalls, planMatrix, selectRequests, type RequestFilter } from '../engine/matrix';
import type { DataRow, RunCell } from '../engine/runContext';
import { dependencyNames, plannedCalls } from '../engine/testing/testPlan';
import type { VariableSources } from '../engine/variables';
import { callsByOrganization } from '../engine/runPlan';
import type { LoadedFile, PlannedFile } from './fileRun';
import type { RouteRule } from '../api/types';
import { UsageError } from './options';

export interface RunChoice {
  /** The tenants of requests that name none, when the run is a matrix of them (--tenant A,B or *). */
  tenants?: string[];
  /** --data's rows: every file runs once per row (else a file's own `# @data`). */
  rows?: DataRow[];
  filter: RequestFilter;
}

export interface PlanDeps {
  sources(file: LoadedFile, cell: RunCell): VariableSources;
  listTenants(): Promise<readonly TenantRecord[]>;
  knownTenants(): readonly TenantRecord[] | undefined;
}

function fileRows(file: LoadedFile, choice: RunChoice): DataRow[] | undefined {
  if (choice.rows) return choice.rows;
  const data = file.parsed.data;
  if (!data) return undefined;
  try {
    return readDataRows(data.path, path.dirname(file.document.key));
  } catch (error) {
    throw new UsageError(`${file.file}:${data.line + 1}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Each file's cells, in the order sent; files the filters leave nothing of are left out. */
export async function planFiles(files: readonly LoadedFile[], choice: RunChoice, deps: PlanDeps): Promise<PlannedFile[]> {
  const planned: PlannedFile[] = [];
  for (const file of files) {
    const requests = selectRequests(file.parsed.requests, choice.filter);
    if (requests.length === 0) continue;
    const cells = await planMatrix({
      file: file.parsed,
      requests,
      sources: (cell) => deps.sources(file, cell),
      tenants: choice.tenants,
      rows: fileRows(file, choice),
      listTenants: deps.listTenants,
      knownTenants: deps.knownTenants,
    });
    planned.push({ ...file, cells });
  }
  if (planned.length === 0) throw new UsageError(l10n.t('No request matches {0}.', filterText(choice.filter)));
  return planned;
}

function filterText(filter: RequestFilter): string {
  const parts = [...(filter.tags?.length ? [`--tag ${filter.tags.join(',')}`] : []), ...(filter.name !== undefined ? [`--name ${filter.name}`] : [])];
  return parts.join(' ') || l10n.t('the files');
}

/** The calls the run will make, chained ones included, by the organization each counts against (undefined: none). */
export async function plannedByOrganization(
  planned: readonly PlannedFile[],
  deps: Pick<PlanDeps, 'sources'> & { routeFor(path: string): RouteRule | undefined; organizationOf(module: string | undefined, tenant: string | undefined): Promise<string | undefined> },
): Promise<Map<string | undefined, number>> {
  const calls = planned.flatMap((file) => {
    const sources = { ...deps.sources(file, {}), result: () => undefined };
    return matrixCalls(file.parsed, file.cells, (parsed, requests) => plannedCalls(parsed, requests, (request) => dependencyNames(request, sources)));
  });
  return callsByOrganization(calls, deps.routeFor, deps.organizationOf);
}
