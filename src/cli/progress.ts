/**
 * What the run shows while it goes: on a terminal one line that updates (request, status, calls,
 * quota); elsewhere (CI logs) one plain line per request. --quiet shows only failures, --verbose
 * every assertion too.
 */
import type { QuotaReading } from '../api/types';
import * as l10n from '../common/l10n';
import type { RunProgress } from './fileRun';
import type { Verbosity } from './options';
import type { Output } from './output';
import { caseName, type RequestReport } from './report';

const MARK: Record<RequestReport['verdict'], string> = { passed: 'PASS', assertionFailed: 'FAIL', requestFailed: 'FAIL', skipped: 'SKIP', notRun: 'SKIP' };

export function quotaText(readings: readonly QuotaReading[]): string {
  return readings.map((reading) => l10n.t('{0}: {1}/{2} this week', reading.organization, reading.used, reading.limit)).join(', ');
}

/** The lines of one finished request (the first is its result, then its failed, or with --verbose all, assertions). */
export function requestLines(report: RequestReport, verbosity: Verbosity): string[] {
  const status = report.status === undefined ? '---' : String(report.status);
  const head = `${MARK[report.verdict]} ${status} ${report.method} ${report.url} (${caseName(report)}, ${report.timeMs} ms)`;
  const lines = [head];
  if (report.error && (report.verdict !== 'passed' || verbosity === 'verbose')) lines.push(`     ${report.error}`);
  if (report.reason) lines.push(`     ${report.reason}`);
  for (const assertion of report.assertions) {
    if (assertion.passed && verbosity !== 'verbose') continue;
    lines.push(`     ${assertion.passed ? 'ok ' : 'not ok'} ${assertion.message}`);
  }
  return lines;
}

export function progressReporter(output: Output, verbosity: Verbosity, readings: () => readonly QuotaReading[]): RunProgress {
  return {
    fileStarted(file, requests) {
      if (verbosity !== 'quiet') output.out(l10n.byCount(requests, l10n.t('{0} ({1} request)', file, requests), l10n.t('{0} ({1} requests)', file, requests)));
    },
    requestStarted(file, name) {
      output.status(`${file} › ${name} …`);
    },
    requestDone(file, report, calls) {
      // A skipped tenant says what to set even with --quiet: a run that skips silently hides a missing key.
      const failed = report.verdict !== 'passed';
      if (verbosity !== 'quiet' || failed) for (const line of requestLines(report, verbosity)) output.out(`  ${line}`);
      const quota = quotaText(readings());
      output.status(`${file} › ${caseName(report)} ${report.status ?? ''} ${MARK[report.verdict]} | ${l10n.t('{0} calls', calls)}${quota ? ` | ${quota}` : ''}`);
    },
  };
}
