/**
 * Runs the request files one after the other as matrices (each request once per tenant and data row,
 * engine/matrix.ts) through the engine's runner (the same client, throttle and quota as the editor),
 * with the guards between calls: --bail, --max-calls, --keep-quota per organization, and a stop on the
 * weekly limit.
 */
import type { QuotaReading, RouteRule } from '../api/types';
import * as l10n from '../common/l10n';
import type { MatrixCell } from '../engine/matrix';
import { runMatrix, type CellResult } from '../engine/matrixRun';
import type { ParsedFile } from '../engine/parser';
import { moduleOfRequest } from '../engine/runPlan';
import { labelOf, type RequestDocument, type RequestFileRunner, type RunOutcome } from '../engine/runner';
import type { GuardLimits } from './quotaGuard';
import { nextCallRefusal } from './quotaGuard';
import { caseName, requestReport, type FileReport, type RequestReport, type RunReport } from './report';

export interface LoadedFile {
  /** As shown (relative to the current folder). */
  file: string;
  document: RequestDocument;
  parsed: ParsedFile;
}

/** A file and the cells its run sends, in order. */
export interface PlannedFile extends LoadedFile {
  cells: MatrixCell[];
}

export interface RunProgress {
  fileStarted(file: string, requests: number): void;
  requestStarted(file: string, name: string): void;
  requestDone(file: string, report: RequestReport, calls: number): void;
}

export interface FileRunDeps {
  runner: Pick<RequestFileRunner, 'send' | 'forget'>;
  readings(): readonly QuotaReading[];
  routeFor(path: string): RouteRule | undefined;
  /** Whose weekly quota a call of `module` for `tenant` counts against (the organization of the key it carries). */
  organizationOf(module: string | undefined, tenant: string | undefined): Promise<string | undefined>;
  progress: RunProgress;
  /** Added to a failure of a request that needs a tenant when the grant gives no user. */
  tenantHint?: string;
  now(): number;
  onQueuePosition?(position: number): void;
  /** Each outcome as it comes (the run's statistics), its dependencies' first. */
  observe?(outcome: RunOutcome): void;
}

export interface FileRunLimits extends GuardLimits {
  bail: boolean;
}

const QUOTA_KINDS = new Set(['weeklyQuota', 'quotaReached']);


function notRunReport(cell: MatrixCell, reason?: string): RequestReport {
  return {
    name: labelOf(cell.request),
    ...(cell.tenant === undefined ? {} : { tenant: cell.tenant }),
    ...(cell.row ? { row: cell.row.label === undefined ? { number: cell.row.number } : { number: cell.row.number, label: cell.row.label } } : {}),
    ...(cell.request.tags.length > 0 ? { tags: [...cell.request.tags] } : {}),
    line: cell.request.requestLine + 1,
    method: cell.request.method,
    url: cell.request.url,
    timeMs: 0,
    startedAt: 0,
    verdict: 'notRun' as const,
    ...(reason ? { reason } : {}),
    assertions: [],
    calls: 0,
  };
}

function withHint(outcome: RunOutcome, hint: string | undefined): RunOutcome {
  if (!hint || outcome.error?.kind !== 'tenant') return outcome;
  return { ...outcome, error: { ...outcome.error, message: `${outcome.error.message} ${hint}` } };
}

/** One file's cells through the runner, its reports into `fileReport`, the guards between them. */
async function runFile(planned: PlannedFile, deps: FileRunDeps, limits: FileRunLimits, report: RunReport, fileReport: FileReport): Promise<void> {
  let started = deps.now();
  // The organization of the next cell is read ahead (the guard before it is synchronous), and only for --keep-quota, the one guard that reads it.
  const organizations = limits.keepQuotaPercent === undefined ? [] : await Promise.all(planned.cells.map((cell) => deps.organizationOf(moduleOfRequest(cell.request, deps.routeFor), cell.tenant)));
  let index = 0;
  const { results } = await runMatrix(deps.runner, planned.document, planned.cells, {
    onQueuePosition: deps.onQueuePosition,
    before: (cell) => {
      const refusal = report.stopped?.message ?? nextCallRefusal(deps.readings(), organizations[index++], report.calls, limits);
      if (refusal) {
        report.stopped ??= { reason: limits.maxCalls !== undefined && report.calls >= limits.maxCalls ? 'maxCalls' : 'quota', message: refusal };
        return refusal;
      }
      deps.progress.requestStarted(planned.file, cellName(cell));
      started = deps.now();
      return undefined;
    },
    after: (result) => {
      observeAll(result.outcome, deps);
      const done = cellReport(result, deps, started);
      fileReport.requests.push(done);
      report.calls += done.calls;
      deps.progress.requestDone(planned.file, done, report.calls);
      const error = result.kind === 'ran' ? result.outcome.error : undefined;
      if (error && QUOTA_KINDS.has(error.kind)) report.stopped = { reason: 'quota', message: done.error ?? error.kind };
      else if (limits.bail && (done.verdict === 'assertionFailed' || done.verdict === 'requestFailed')) report.stopped = { reason: 'bail', message: l10n.t('Stopped after the first failure (--bail).') };
      return report.stopped?.message;
    },
  });
  for (const result of results) if (result.kind === 'notRun') fileReport.requests.push(notRunReport(result.cell));
}

function observeAll(outcome: RunOutcome, deps: FileRunDeps): void {
  for (const dependency of outcome.dependencies) observeAll(dependency, deps);
  deps.observe?.(outcome);
}

function cellName(cell: MatrixCell): string {
  return caseName(notRunReport(cell));
}

function cellReport(result: Exclude<CellResult, { kind: 'notRun' }>, deps: FileRunDeps, started: number): RequestReport {
  const { cell } = result;
  const facts = { tenant: cell.tenant, row: cell.row, tags: cell.request.tags, ...(result.kind === 'skipped' ? { skipped: result.reason } : {}) };
  return requestReport(withHint(result.outcome, deps.tenantHint), started, deps.now() - started, facts);
}

export async function runFiles(files: readonly PlannedFile[], deps: FileRunDeps, limits: FileRunLimits, environment: string): Promise<RunReport> {
  const report: RunReport = { environment, startedAt: deps.now(), timeMs: 0, files: [], calls: 0 };
  for (const file of files) {
    const fileReport: FileReport = { file: file.file, requests: [], timeMs: 0 };
    report.files.push(fileReport);
    if (report.stopped) {
      fileReport.requests.push(...file.cells.map((cell) => notRunReport(cell)));
      continue;
    }
    const fileStarted = deps.now();
    deps.progress.fileStarted(file.file, file.cells.length);
    await runFile(file, deps, limits, report, fileReport);
    fileReport.timeMs = Math.round(deps.now() - fileStarted);
  }
  report.timeMs = Math.round(deps.now() - report.startedAt);
  return report;
}
