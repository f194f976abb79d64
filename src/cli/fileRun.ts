/**
 * Runs the request files one after the other, each request in file order through the engine's
 * runner (the same client, throttle and quota as the editor), with the guards between requests:
 * --bail, --max-calls, --keep-quota, and a stop on the weekly limit.
 */
import { isApiError } from '../api/errors';
import type { QuotaReading, RouteRule } from '../api/types';
import { LICENCE_KEY_PREFIX } from './credentials';
import * as l10n from '../common/l10n';
import type { ParsedFile } from '../engine/parser';
import { labelOf, type RequestDocument, type RequestFileRunner, type RunOutcome } from '../engine/runner';
import type { GuardLimits } from './quotaGuard';
import { nextCallRefusal } from './quotaGuard';
import { requestReport, type FileReport, type RequestReport, type RunReport } from './report';

export interface LoadedFile {
  /** As shown (relative to the current folder). */
  file: string;
  document: RequestDocument;
  parsed: ParsedFile;
}

export interface RunProgress {
  fileStarted(file: string, requests: number): void;
  requestStarted(file: string, name: string): void;
  requestDone(file: string, report: RequestReport, calls: number): void;
}

export interface FileRunDeps {
  runner: Pick<RequestFileRunner, 'send'>;
  readings(): readonly QuotaReading[];
  routeFor(path: string): RouteRule | undefined;
  progress: RunProgress;
  /** Added to a failure of a request that needs a tenant when the grant gives no user. */
  tenantHint?: string;
  now(): number;
}

export interface FileRunLimits extends GuardLimits {
  bail: boolean;
}

const QUOTA_KINDS = new Set(['weeklyQuota', 'quotaReached']);

function moduleOf(url: string, routeFor: FileRunDeps['routeFor']): string | undefined {
  return url.startsWith('/') ? routeFor(url.split('?')[0])?.module : undefined;
}

function notRun(file: LoadedFile, from: number): RequestReport[] {
  return file.parsed.requests.slice(from).map((request) => ({
    name: labelOf(request),
    line: request.requestLine + 1,
    method: request.method,
    url: request.url,
    timeMs: 0,
    startedAt: 0,
    verdict: 'notRun' as const,
    assertions: [],
    calls: 0,
  }));
}

function withHint(outcome: RunOutcome, hint: string | undefined): RunOutcome {
  const error = outcome.error;
  // The client's sentence names the editor's command: the runner's keys come from its variables.
  if (error?.kind === 'licenceMissing' && isApiError(error.cause) && error.cause.details.module) {
    const module = error.cause.details.module;
    return { ...outcome, error: { ...error, message: l10n.t('No licence key is set for the module "{0}": set {1} (or answer the runner\'s question at a terminal).', module, `${LICENCE_KEY_PREFIX}${module.toUpperCase()}`) } };
  }
  if (!hint || error?.kind !== 'tenant') return outcome;
  return { ...outcome, error: { ...error, message: `${error.message} ${hint}` } };
}

export async function runFiles(files: readonly LoadedFile[], deps: FileRunDeps, limits: FileRunLimits, environment: string): Promise<RunReport> {
  const report: RunReport = { environment, startedAt: deps.now(), timeMs: 0, files: [], calls: 0 };
  for (const file of files) {
    const fileReport: FileReport = { file: file.file, requests: [], timeMs: 0 };
    report.files.push(fileReport);
    const fileStarted = deps.now();
    deps.progress.fileStarted(file.file, file.parsed.requests.length);
    // A request that failed is not sent again for a later one that reads it (SendOptions.attempted).
    const attempted = new Map<number, RunOutcome>();
    for (const [index, request] of file.parsed.requests.entries()) {
      const refusal = report.stopped ? report.stopped.message : nextCallRefusal(deps.readings(), moduleOf(request.url, deps.routeFor), report.calls, limits);
      if (refusal) {
        report.stopped ??= { reason: limits.maxCalls !== undefined && report.calls >= limits.maxCalls ? 'maxCalls' : 'quota', message: refusal };
        fileReport.requests.push(...notRun(file, index));
        break;
      }
      const name = labelOf(request);
      deps.progress.requestStarted(file.file, name);
      const started = deps.now();
      const outcome = withHint(await deps.runner.send(file.document, index, { attempted }), deps.tenantHint);
      const result = requestReport(outcome, started, deps.now() - started);
      fileReport.requests.push(result);
      report.calls += result.calls;
      deps.progress.requestDone(file.file, result, report.calls);
      if (outcome.error && QUOTA_KINDS.has(outcome.error.kind)) report.stopped = { reason: 'quota', message: result.error ?? outcome.error.kind };
      else if (limits.bail && result.verdict !== 'passed') report.stopped = { reason: 'bail', message: l10n.t('Stopped after the first failure (--bail).') };
      if (report.stopped) {
        fileReport.requests.push(...notRun(file, index + 1));
        break;
      }
    }
    fileReport.timeMs = Math.round(deps.now() - fileStarted);
    if (report.stopped) {
      for (const rest of files.slice(files.indexOf(file) + 1)) report.files.push({ file: rest.file, requests: notRun(rest, 0), timeMs: 0 });
      break;
    }
  }
  report.timeMs = Math.round(deps.now() - report.startedAt);
  return report;
}
