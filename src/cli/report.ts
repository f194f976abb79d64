/**
 * What a run came to, as plain data: the JUnit and JSON writers, the summary and the exit code are
 * made from it. Every text in it has passed through redaction (a server may echo a secret back).
 */
import { maskValues, redact } from '../common/redact';
import type { AssertionResult } from '../engine/assertions/evaluateAssertion';
import type { RunOutcome } from '../engine/runner';
import type { ExitReason } from './exitCodes';

export type Verdict = 'passed' | 'assertionFailed' | 'requestFailed' | 'notRun';

export interface RequestReport {
  /** The request's name, or "line N". */
  name: string;
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

export interface RunReport {
  environment: string;
  startedAt: number;
  timeMs: number;
  files: FileReport[];
  calls: number;
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

export function requestReport(outcome: RunOutcome, startedAt: number, timeMs: number): RequestReport {
  const verdict = verdictOf(outcome);
  const status = outcome.sent?.response.status ?? outcome.error?.response?.status;
  const failedStatus = verdict === 'requestFailed' && !outcome.error && status !== undefined ? `HTTP ${status} ${outcome.sent?.response.statusText ?? ''}`.trim() : undefined;
  const error = outcome.error?.message ?? failedStatus;
  return {
    name: outcome.label,
    line: outcome.request.requestLine + 1,
    method: outcome.request.method,
    url: redact(sentUrl(outcome)),
    ...(status === undefined ? {} : { status }),
    timeMs: Math.round(outcome.sent?.response.timeMs ?? timeMs),
    startedAt,
    verdict,
    ...(error ? { error: redact(error) } : {}),
    assertions: assertionsOf(outcome).map((result) => ({ ...result, actual: redact(result.actual), expected: redact(result.expected), message: redact(result.message), text: redact(result.text) })),
    calls: callsOf(outcome),
  };
}

/** The reasons the run's requests give for its exit code. */
export function exitReasons(report: RunReport): ExitReason[] {
  const reasons: ExitReason[] = report.files.flatMap((file) => file.requests.flatMap((request): ExitReason[] => (request.verdict === 'passed' || request.verdict === 'notRun' ? [] : [request.verdict])));
  if (report.stopped && report.stopped.reason !== 'bail') reasons.push('quotaGuard');
  return reasons;
}

export function counts(requests: readonly RequestReport[]): { total: number; passed: number; failed: number; notRun: number } {
  const passed = requests.filter((request) => request.verdict === 'passed').length;
  const notRun = requests.filter((request) => request.verdict === 'notRun').length;
  return { total: requests.length, passed, failed: requests.length - passed - notRun, notRun };
}
