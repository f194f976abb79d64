/**
 * The run as Markdown (`--reporter markdown=PATH`, and appended to $GITHUB_STEP_SUMMARY when it is
 * set): the run's figures, the quota each organization spent, then one table row per request x tenant
 * x data row, failures first. Cells never break the table (pipes and line breaks escaped). Pure.
 */
import * as l10n from '../common/l10n';
import { EXIT_CODES, type ExitReason } from './exitCodes';
import { caseName, counts, type RequestReport, type RunReport } from './report';
import { runFigures } from './runFigures';

/** Failures first, then skipped and not run, then passed; file order within each. */
export const VERDICT_ORDER: Record<RequestReport['verdict'], number> = { assertionFailed: 0, requestFailed: 0, skipped: 1, notRun: 2, passed: 3 };

const MARK: Record<RequestReport['verdict'], string> = { assertionFailed: '❌ failed', requestFailed: '❌ failed', skipped: '⏭️ skipped', notRun: '⏸️ not run', passed: '✅ passed' };

export function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>').replace(/[<>]/g, (c) => (c === '<' ? '&lt;' : '&gt;')).replace(/&lt;br&gt;/g, '<br>');
}

/** What a failed, skipped or not-run case says: its error, its failed assertions (expected and found), its reason. */
export function detailOf(request: RequestReport): string {
  const failed = request.assertions.filter((assertion) => !assertion.passed).map((assertion) => l10n.t('{0}: expected {1}, found {2}', assertion.text, assertion.expected, assertion.actual));
  return [request.error, ...failed, request.reason].filter((part): part is string => Boolean(part)).join('\n');
}

export function markdownReport(report: RunReport, reason: ExitReason): string {
  const all = report.files.flatMap((file) => file.requests.map((request) => ({ file: file.file, request })));
  const c = counts(all.map((entry) => entry.request));
  const exit = EXIT_CODES.find((entry) => entry.reason === reason)!;
  const lines = [
    `## ${l10n.t('Tenant API run: {0} passed, {1} failed, {2} skipped, {3} not run', c.passed, c.failed, c.skipped, c.notRun)}`,
    '',
    `${l10n.t('Exit code {0}: {1}', exit.code, exit.meaning())}`,
    '',
    `| ${l10n.t('Figure')} | ${l10n.t('Value')} |`,
    '| --- | --- |',
    ...runFigures(report).map(([name, value]) => `| ${cell(name)} | ${cell(value)} |`),
    '',
    `| ${l10n.t('Result')} | ${l10n.t('Request')} | ${l10n.t('Tenant')} | ${l10n.t('Row')} | ${l10n.t('Status')} | ${l10n.t('Time')} | ${l10n.t('File')} | ${l10n.t('Details')} |`,
    '| --- | --- | --- | --- | ---: | ---: | --- | --- |',
  ];
  const sorted = [...all].sort((a, b) => VERDICT_ORDER[a.request.verdict] - VERDICT_ORDER[b.request.verdict]);
  for (const { file, request } of sorted) {
    const row = request.row ? (request.row.label === undefined ? `${request.row.number}` : `${request.row.number} ${request.row.label}`) : '';
    lines.push(
      `| ${MARK[request.verdict]} | ${cell(request.name)} | ${cell(request.tenant ?? '')} | ${cell(row)} | ${request.status ?? ''} | ${request.timeMs} ms | ${cell(`${file}:${request.line}`)} | ${cell(detailOf(request))} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

