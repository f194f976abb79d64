/** The lines at the end of a run: per file and in all, how it stopped, the exit code's meaning. Pure. */
import * as l10n from '../common/l10n';
import { EXIT_CODES, type ExitReason } from './exitCodes';
import { counts, type RunReport } from './report';

function countsText(c: ReturnType<typeof counts>): string {
  const parts = [l10n.t('{0} passed', c.passed), l10n.t('{0} failed', c.failed)];
  if (c.skipped > 0) parts.push(l10n.t('{0} skipped', c.skipped));
  if (c.notRun > 0) parts.push(l10n.t('{0} not run', c.notRun));
  return parts.join(', ');
}

export function summaryLines(report: RunReport, reason: ExitReason): string[] {
  const all = report.files.flatMap((file) => file.requests);
  const lines = [''];
  if (report.files.length > 1) for (const file of report.files) lines.push(`${file.file}: ${countsText(counts(file.requests))}`);
  const seconds = (report.timeMs / 1000).toFixed(1);
  const requests = l10n.byCount(all.length, l10n.t('{0} request', all.length), l10n.t('{0} requests', all.length));
  const calls = l10n.byCount(report.calls, l10n.t('{0} call', report.calls), l10n.t('{0} calls', report.calls));
  const head = l10n.t('{0}: {1}; {2} in {3} s ({4})', requests, countsText(counts(all)), calls, seconds, report.environment);
  lines.push(head);
  if (report.tenants && report.tenants.length > 0) lines.push(l10n.t('Tenants: {0}', report.tenants.join(', ')));
  const quota = (report.quota ?? []).map((spent) => (spent.used !== undefined ? l10n.t('{0}: {1} calls, {2}/{3} this week', spent.organization, spent.calls, spent.used, spent.limit ?? '?') : l10n.t('{0}: {1} calls', spent.organization, spent.calls)));
  if (quota.length > 0) lines.push(l10n.t('Quota spent: {0}', quota.join('; ')));
  if (report.stopped) lines.push(report.stopped.message);
  const exit = EXIT_CODES.find((entry) => entry.reason === reason)!;
  lines.push(l10n.t('Exit code {0}: {1}', exit.code, exit.meaning()));
  return lines;
}
