/**
 * What one request's run means as a test: passed when every assertion passed; failed with a message
 * per failed assertion at its line (expected and actual, bodies as a diff); errored when no answer came
 * (network, sign-in, licence: the error's sentence says what to do); skipped when the run was
 * cancelled or a protected environment's question declined, so nothing half-sent counts as passed.
 * No `vscode` here.
 */
import * as l10n from '../../common/l10n';
import type { ParsedRequest } from '../parser';
import type { RunOutcome } from '../runner';

export interface FailureMessage {
  /** 0-based line of the assertion. */
  line: number;
  message: string;
  expected: string;
  actual: string;
  /** Show expected and actual side by side (a body comparison). */
  diff: boolean;
}

export type TestVerdict =
  | { kind: 'passed'; durationMs?: number }
  | { kind: 'failed'; failures: FailureMessage[]; durationMs?: number }
  | { kind: 'errored'; message: string; line: number; errorKind: string }
  | { kind: 'skipped'; reason?: string };

/** The client's kind for a call cancelled, or one a protected environment's question declined. */
const CANCELLED = 'cancelled';

/**
 * @param cancelled the run's Cancel came before this outcome did: whatever it holds is not counted.
 */
export function verdictOf(outcome: RunOutcome, cancelled: boolean): TestVerdict {
  if (cancelled) return { kind: 'skipped', reason: l10n.t('The run was cancelled.') };
  const error = outcome.error;
  if (error?.kind === CANCELLED && !outcome.assertions) return { kind: 'skipped', reason: error.message };
  const durationMs = (outcome.sent?.response ?? error?.response)?.timeMs;
  if (!outcome.assertions) {
    const message = error?.message ?? l10n.t('No answer came, so the assertions were not checked.');
    return { kind: 'errored', message, line: outcome.request.requestLine, errorKind: error?.kind ?? 'unknown' };
  }
  const failures = outcome.assertions
    .filter((result) => !result.passed)
    .map((result) => {
      const diff = isBodyComparison(outcome.request, result);
      return {
        line: result.line,
        message: result.message,
        expected: diff ? readable(result.expected) : result.expected,
        actual: diff ? readable(result.actual) : result.actual,
        diff,
      };
    });
  return failures.length === 0 ? { kind: 'passed', durationMs } : { kind: 'failed', failures, durationMs };
}

/**
 * A `body` assertion that compares an object or a list: worth a diff of the two. A single value is not:
 * the editor's badge of a diff says only `found != expected`, while the message names the value.
 */
function isBodyComparison(request: ParsedRequest, result: { line: number; expected: string; actual: string }): boolean {
  const assertion = request.assertions.find((candidate) => candidate.line === result.line);
  return assertion !== undefined && assertion.subject.name === 'body' && assertion.operator.takesExpected && (isStructured(result.expected) || isStructured(result.actual));
}

function isStructured(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}

/** A JSON object or array pretty-printed (so the diff shows one difference per line); any other text as it is. */
function readable(text: string): string {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? JSON.stringify(value, null, 2) : text;
  } catch {
    return text;
  }
}

/** The counts a run ends with (for its summary and the in-editor tests). */
export function countVerdicts(verdicts: readonly TestVerdict[]): Record<TestVerdict['kind'], number> {
  const counts = { passed: 0, failed: 0, errored: 0, skipped: 0 };
  for (const verdict of verdicts) counts[verdict.kind] += 1;
  return counts;
}
