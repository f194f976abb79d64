/**
 * What a run came to, as plain data: the JUnit and JSON writers, the summary and the exit code are
 * made from it. Every text in it has passed through redaction (a server may echo a secret back).
 */
import { maskValues, redact } from '../common/redact';
import type { AssertionResult } from '../engine/assertions/evaluateAssertion';
import type { RunOutcome } from '../engine/runner';
import type { ExitReason } from './exitCodes';

/** `skipped`: not sent, for want of a licence key for its tenant (a matrix goes on); `notRun`: the run stopped before it. */
export type Verdict = 'passed' | 'assertionFailed' | 'requestFailed' | 'skipped' | 'notRun';

export interface RequestReport {
  /** The request's name, or "line N". */
  name: string;
  /** The code of the tenant it ran for (named by the file or --tenant); absent: the active tenant, or none. */
  tenant?: string;
  /** The data row it ran with (--data, # @data): its 1-based number and its label column. */
  row?: { number: number; label?: string };
  /** Its `# @tag`s. */
  tags?: string[];
  /** Whose weekly quota its call counted against (the licence key's organization), when it carried one. */
  organization?: string;
  /** Why it was skipped or not run. */
  reason?: string;
  /** 1-based line of the request line. */
  line: number;
  method: string;
  /** The path or address as written (variables unfilled: the filled one may hold a secret). */
  url: string;
  status?: number;
  timeMs: number;
  /** Epoch ms when the request started (dependencies first). */
  startedAt: number;
  verdict: Verdict;
  /** Why the request failed (redacted). */
  error?: string;
  assertions: AssertionResult[];
  /** Calls this request made: itself and the requests it read that were sent first for it. */
  calls: number;
}

export interface FileReport {
  /** As shown: relative to the current folder. */
  file: string;
  requests: RequestReport[];
  timeMs: number;
}

export type StopReason = 'bail' | 'maxCalls' | 'quota';

/** One organization's weekly quota as the run left it: the calls it counted this run, its last reading. */
export interface OrganizationQuota {
  organization: string;
  calls: number;
  used?: number;
  limit?: number;
}

/** What the client did for the run: calls on the wire, retries, waits for a rate-limit slot, 429 answers. */
export interface RunStatistics {
  calls: number;
  retries: number;
  rateLimitWaits: number;
  rateLimitWaitMs: number;
  answers429: number;
}

export interface RunReport {
  environment: string;
  startedAt: number;
  timeMs: number;
  files: FileReport[];
  /** Calls the requests made (chained ones included). */
  calls: number;
  /** The tenants the run ran for, as codes (empty: the active tenant, or none). */
  tenants?: string[];
  /** The data file and its rows, when the run had one. */
  data?: { file: string; rows: number };
  /** The filters the run was given (--tag, --name). */
  filters?: { tags?: string[]; name?: string };
  quota?: OrganizationQuota[];
  statistics?: RunStatistics;
  stopped?: { reason: StopReason; message: string };
}

function assertionsOf(outcome: RunOutcome): AssertionResult[] {
  return outcome.assertions ?? [];
}

/** A request with assertions is judged by them; one without fails on a network error or a 4xx/5xx. */
export function verdictOf(outcome: RunOutcome): Verdict {
  const assertions = assertionsOf(outcome);
  const status = outcome.sent?.response.status ?? outcome.error?.response?.status;
  if (assertions.length > 0 && status !== undefined) return assertions.every((result) => result.passed) ? 'passed' : 'assertionFailed';
  if (outcome.error || status === undefined || status >= 400) return 'requestFailed';
  return 'passed';
}

function callsOf(outcome: RunOutcome): number {
  const own = outcome.sent || outcome.error?.response ? 1 : 0;
  return own + outcome.dependencies.reduce((sum, dependency) => sum + callsOf(dependency), 0);
}

/** The URL as sent (variables filled, secret values masked), else as written. */
function sentUrl(outcome: RunOutcome): string {
  const prepared = outcome.prepared;
  if (!prepared) return outcome.request.url;
  const url = prepared.target.kind === 'path' ? prepared.target.path : prepared.target.url.href;
  return maskValues(url, prepared.secrets);
}

export function requestReport(outcome: RunOutcome, startedAt: number, timeMs: number, cell?: CellFacts): RequestReport {
  const verdict = cell?.skipped !== undefined ? 'skipped' : verdictOf(outcome);
  const status = outcome.sent?.response.status ?? outcome.error?.response?.status;
  const failedStatus = verdict === 'requestFailed' && !outcome.error && status !== undefined ? `HTTP ${status} ${outcome.sent?.response.statusText ?? ''}`.trim() : undefined;
  const error = verdict === 'skipped' ? undefined : (outcome.error?.message ?? failedStatus);
  const organization = (outcome.sent?.response ?? outcome.error?.response)?.licence?.organization;
  return {
    name: outcome.label,
    ...cellFields(cell),
    line: outcome.request.requestLine + 1,
    method: outcome.request.method,
    url: redact(sentUrl(outcome)),
    ...(status === undefined ? {} : { status }),
    timeMs: Math.round(outcome.sent?.response.timeMs ?? timeMs),
    startedAt,
    verdict,
    ...(error ? { error: redact(error) } : {}),
    ...(cell?.skipped !== undefined ? { reason: redact(cell.skipped) } : {}),
    ...(organization ? { organization } : {}),
    assertions: assertionsOf(outcome).map((result) => ({ ...result, actual: redact(result.actual), expected: redact(result.expected), message: redact(result.message), text: redact(result.text) })),
    calls: callsOf(outcome),
  };
}

/** What a report says of a request's cell: its tenant, row and tags, and why it was skipped. */
export interface CellFacts {
  tenant?: string;
  row?: { number: number; label?: string };
  tags: readonly string[];
  skipped?: string;
}

function cellFields(cell: CellFacts | undefined): Pick<RequestReport, 'tenant' | 'row' | 'tags'> {
  if (!cell) return {};
  return {
    ...(cell.tenant === undefined ? {} : { tenant: cell.tenant }),
    ...(cell.row ? { row: cell.row.label === undefined ? { number: cell.row.number } : { number: cell.row.number, label: cell.row.label } } : {}),
    ...(cell.tags.length > 0 ? { tags: [...cell.tags] } : {}),
  };
}

/** "conf [RC-MI] #2 Alice": the request's name with its tenant and row. */
export function caseName(request: Pick<RequestReport, 'name' | 'tenant' | 'row'>): string {
  const row = request.row && (request.row.label === undefined ? `#${request.row.number}` : `#${request.row.number} ${request.row.label}`);
  return [request.name, request.tenant === undefined ? undefined : `[${request.tenant}]`, row].filter((part) => part !== undefined).join(' ');
}

/** The reasons the run's requests give for its exit code; a run whose every request was skipped ran nothing, and fails. */
export function exitReasons(report: RunReport): ExitReason[] {
  const all = report.files.flatMap((file) => file.requests);
  const reasons: ExitReason[] = all.flatMap((request): ExitReason[] => (request.verdict === 'assertionFailed' || request.verdict === 'requestFailed' ? [request.verdict] : []));
  if (all.length > 0 && all.every((request) => request.verdict === 'skipped')) reasons.push('requestFailed');
  if (report.stopped && report.stopped.reason !== 'bail') reasons.push('quotaGuard');
  return reasons;
}

export function counts(requests: readonly RequestReport[]): { total: number; passed: number; failed: number; skipped: number; notRun: number } {
  const passed = requests.filter((request) => request.verdict === 'passed').length;
  const skipped = requests.filter((request) => request.verdict === 'skipped').length;
  const notRun = requests.filter((request) => request.verdict === 'notRun').length;
  return { total: requests.length, passed, failed: requests.length - passed - skipped - notRun, skipped, notRun };
}
