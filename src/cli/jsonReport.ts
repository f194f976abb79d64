/** The run as a JSON report: the run's data, its counts and its exit code. Pure. */
import { EXIT_CODES, type ExitReason } from './exitCodes';
import { counts, type RunReport } from './report';

export const JSON_REPORT_VERSION = 1;

export function jsonReport(report: RunReport, reason: ExitReason): string {
  const all = report.files.flatMap((file) => file.requests);
  const exit = EXIT_CODES.find((entry) => entry.reason === reason)!;
  const body = {
    version: JSON_REPORT_VERSION,
    exitCode: exit.code,
    exitReason: reason,
    ...counts(all),
    ...report,
    startedAt: new Date(report.startedAt).toISOString(),
    files: report.files.map((file) => ({ ...file, ...counts(file.requests) })),
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
