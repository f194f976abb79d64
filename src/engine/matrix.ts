/**
 * A run as a matrix: each selected request once per tenant (its `@tenant` list, `*`, or the run's
 * tenants for requests that name none) and per data row, in order (row by row, each request in file
 * order, each tenant in the order named), through the one runner and so the one throttle. The same
 * plan serves Send All, the Testing view and `tenant-api run`. No `vscode` here.
 */
import { findTenant } from '../api/tenantResolver';
import type { TenantRecord } from '../api/types';
import { tenantOf, type ParsedFile, type ParsedRequest } from './parser';
import { requestTenants } from './prepare';
import { labelOf } from './runner';
import type { DataRow, RunCell } from './runContext';
import { EVERY_TENANT } from './tenantList';
import type { VariableSources } from './variables';

export interface MatrixCell {
  request: ParsedRequest;
  /** What the runner gets: the matrix tenant (undefined for a request pinned to one tenant, or run for the active one) and the row. */
  run: RunCell;
  /** The tenant it is sent for, as its code when the tenant is known: undefined for the active one. */
  tenant?: string;
  row?: DataRow;
  /** The request runs for several tenants (a list or `*`): a tenant without a licence key is skipped, not failed. */
  multiTenant: boolean;
}

export interface MatrixInput {
  file: ParsedFile;
  /** The requests to run, in file order. */
  requests: readonly ParsedRequest[];
  /** The variables a request's `@tenant` is filled from, in a row (RequestFileRunner.sources). */
  sources(cell: RunCell): VariableSources;
  /** The tenants of requests that name none (`--tenant A,B`, `--tenant '*'`, the "every tenant" profile); undefined: the active one. */
  tenants?: readonly string[];
  rows?: readonly DataRow[];
  /** The signed-in user's tenants (listed when `*` needs them, else those already known to name tenants by code). */
  listTenants(): Promise<readonly TenantRecord[]>;
  knownTenants?(): readonly TenantRecord[] | undefined;
}

/** Every cell of the run, in the order sent. */
export async function planMatrix(input: MatrixInput): Promise<MatrixCell[]> {
  let every: Promise<readonly TenantRecord[]> | undefined;
  const listed = () => (every ??= input.listTenants());
  const codeOf = (reference: string) => {
    const tenant = findTenant(reference, input.knownTenants?.() ?? []);
    return tenant ? tenant.codiceAmbienteDati || tenant.id : reference;
  };
  // What a request is sent for: its tenants, and whether it runs for several.
  const targetsOf = async (named: string[]): Promise<Targets> => {
    const written = named.length > 0 ? named : [...(input.tenants ?? [])];
    const multiTenant = written.length > 1 || written.includes(EVERY_TENANT);
    const tenants = written.includes(EVERY_TENANT) ? expandEvery(written, (await listed()).filter((tenant) => tenant.usable)) : written;
    return { tenants, multiTenant, pinned: named.length === 1 && !multiTenant };
  };
  // A `@tenant` without variables names the same tenants in every row: worked out once, at its first row (10,000 rows start at once).
  const fixed = new Map<number, Targets>();
  const rowIndependent = new Set(input.requests.filter((request) => !tenantOf(input.file, request)?.includes('{{')).map((request) => request.index));
  const cells: MatrixCell[] = [];
  for (const row of input.rows ?? [undefined]) {
    const rowCell: RunCell = row ? { row } : {};
    for (const request of input.requests) {
      let targets = fixed.get(request.index);
      if (!targets) {
        targets = await targetsOf(requestTenants(input.file, request, input.sources(rowCell)));
        if (rowIndependent.has(request.index)) fixed.set(request.index, targets);
      }
      const { tenants, multiTenant, pinned } = targets;
      if (tenants.length === 0 && !multiTenant) {
        cells.push({ request, run: rowCell, row, multiTenant });
        continue;
      }
      for (const tenant of tenants) {
        cells.push({ request, run: pinned ? rowCell : { ...rowCell, tenant }, tenant: codeOf(tenant), row, multiTenant });
      }
    }
  }
  return cells;
}

interface Targets {
  tenants: readonly string[];
  multiTenant: boolean;
  /** One tenant named by the request itself: the runner resolves it, the cell carries no matrix tenant. */
  pinned: boolean;
}

/** `*` in place: every tenant's code, the others named as written, each once. */
function expandEvery(written: readonly string[], tenants: readonly TenantRecord[]): string[] {
  const expanded = written.flatMap((name) => (name === EVERY_TENANT ? tenants.map((tenant) => tenant.codiceAmbienteDati || tenant.id) : [name]));
  return [...new Map(expanded.map((name) => [name.toLowerCase(), name])).values()];
}

/** A cell's name in results: the request's, its tenant's code, its row ("conf [RC-MI] #2 Alice"). */
export function cellLabel(cell: Pick<MatrixCell, 'request' | 'tenant' | 'row'>): string {
  return [labelOf(cell.request), cellSuffix(cell)].filter((part) => part !== '').join(' ');
}

/** "[RC-MI] #2 Alice": what tells a cell from the other cells of its request. */
export function cellSuffix(cell: Pick<MatrixCell, 'tenant' | 'row'>): string {
  const parts: string[] = [];
  if (cell.tenant !== undefined) parts.push(`[${cell.tenant}]`);
  if (cell.row) parts.push(cell.row.label === undefined ? `#${cell.row.number}` : `#${cell.row.number} ${cell.row.label}`);
  return parts.join(' ');
}

/** Tells a matrix (more than one cell per request) from a plain run. */
export function isMatrix(cells: readonly MatrixCell[]): boolean {
  return cells.some((cell) => cell.multiTenant || cell.row !== undefined || (cell.run.tenant !== undefined));
}


/** What a run is narrowed to: `# @tag`s (any of them) and a pattern of names (a regular expression, any case). */
export interface RequestFilter {
  tags?: readonly string[];
  name?: string;
}

/** The requests a filter keeps, in file order (all of them without one). */
export function selectRequests(requests: readonly ParsedRequest[], filter: RequestFilter = {}): ParsedRequest[] {
  const tags = new Set((filter.tags ?? []).map((tag) => tag.toLowerCase()));
  const name = filter.name === undefined ? undefined : new RegExp(filter.name, 'i');
  return requests.filter((request) => (tags.size === 0 || request.tags.some((tag) => tags.has(tag.toLowerCase()))) && (!name || name.test(labelOf(request))));
}

/** One call a run makes: the request and the tenant it is sent for (what its cost is counted by). */
export interface PlannedCall {
  request: ParsedRequest;
  tenant?: string;
}

/**
 * Every call the cells make, in order: per context (a row and a tenant), each cell's request preceded by
 * the requests it reads that the context has not sent yet (testPlan.plannedCalls' rule), for that tenant.
 */
export function matrixCalls(
  file: ParsedFile,
  cells: readonly MatrixCell[],
  plan: (file: ParsedFile, requests: readonly ParsedRequest[]) => readonly ParsedRequest[],
): PlannedCall[] {
  const contexts = new Map<string, { tenant?: string; requests: ParsedRequest[] }>();
  // Contexts that send the same requests plan the same calls: planned once (a data file's rows).
  const planned = new Map<string, readonly ParsedRequest[]>();
  const planOnce = (requests: ParsedRequest[]) => {
    const key = requests.map((request) => request.index).join(',');
    let calls = planned.get(key);
    if (!calls) planned.set(key, (calls = plan(file, requests)));
    return calls;
  };
  for (const cell of cells) {
    const key = `${cell.row?.number ?? ''}\u0000${(cell.run.tenant ?? cell.tenant ?? '').toLowerCase()}`;
    const context = contexts.get(key) ?? { tenant: cell.tenant, requests: [] };
    contexts.set(key, context);
    context.requests.push(cell.request);
  }
  return [...contexts.values()].flatMap((context) => planOnce(context.requests).map((request) => ({ request, tenant: context.tenant })));
}
