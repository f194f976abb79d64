/**
 * The run as one HTML file that is read offline: no script, no style, font or image from anywhere (a
 * Content-Security-Policy that allows none, the style inline), the run's figures and quota first, then
 * every request x tenant x data row, failures first, each failure with its assertions' expected and
 * found values. Filtered by result and by tenant without JavaScript: radio buttons and CSS selectors. Pure.
 */
import * as l10n from '../common/l10n';
import { EXIT_CODES, type ExitReason } from './exitCodes';
import { detailOf, VERDICT_ORDER } from './markdownReport';
import { caseName, counts, type RequestReport, type RunReport } from './report';
import { runFigures } from './runFigures';

export const HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; form-action 'none'; base-uri 'none'";

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

type Group = 'failed' | 'skipped' | 'passed';
const RESULT_WORD: Record<RequestReport['verdict'], () => string> = {
  assertionFailed: () => l10n.t('failed'),
  requestFailed: () => l10n.t('failed'),
  skipped: () => l10n.t('skipped'),
  notRun: () => l10n.t('not run'),
  passed: () => l10n.t('passed'),
};
const GROUP: Record<RequestReport['verdict'], Group> = { assertionFailed: 'failed', requestFailed: 'failed', skipped: 'skipped', notRun: 'skipped', passed: 'passed' };

const STYLE = `
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5em;color:#1f2328;background:#fff}
h1{font-size:1.4em}table{border-collapse:collapse;margin:.5em 0 1em}th,td{border:1px solid #d0d7de;padding:.25em .5em;text-align:left;vertical-align:top}
th{background:#f6f8fa}.figures td:first-child{font-weight:600}pre{white-space:pre-wrap;margin:.25em 0;font:12px/1.3 ui-monospace,monospace}
input.filter{position:absolute;opacity:0;pointer-events:none}nav{margin:.5em 0}nav label{display:inline-block;margin:0 .25em .25em 0;padding:.15em .6em;border:1px solid #d0d7de;border-radius:1em;cursor:pointer}
tr.failed td:first-child{color:#cf222e;font-weight:600}tr.skipped td:first-child{color:#9a6700}tr.passed td:first-child{color:#1a7f37}
@media (prefers-color-scheme:dark){body{color:#e6edf3;background:#0d1117}th{background:#161b22}th,td,nav label{border-color:#30363d}}
`;

function filterStyle(tenants: readonly string[]): string {
  const groups = ['failed', 'skipped', 'passed'];
  const hide = [...groups.map((group) => `#v-${group}:checked~table.cases tbody tr:not(.${group})`), ...tenants.map((_, index) => `#t-${index}:checked~table.cases tbody tr:not(.t-${index})`)];
  const ids = ['v-all', ...groups.map((group) => `v-${group}`), 't-all', ...tenants.map((_, index) => `t-${index}`)];
  const chosen = ids.map((id) => `#${id}:checked~nav label[for=${id}]`);
  return `${hide.join(',')}{display:none}${chosen.join(',')}{background:#0969da;color:#fff;border-color:#0969da}`;
}

function row(file: string, request: RequestReport, tenants: readonly string[]): string {
  const group = GROUP[request.verdict];
  const tenantClass = request.tenant === undefined ? 't-none' : `t-${tenants.indexOf(request.tenant)}`;
  const detail = detailOf(request);
  const rowText = request.row ? (request.row.label === undefined ? `${request.row.number}` : `${request.row.number} ${request.row.label}`) : '';
  const cells = [
    escapeHtml(RESULT_WORD[request.verdict]()),
    `${escapeHtml(request.name)}<br><small>${escapeHtml(`${request.method} ${request.url}`)}</small>`,
    escapeHtml(request.tenant ?? ''),
    escapeHtml(rowText),
    request.status === undefined ? '' : String(request.status),
    `${request.timeMs} ms`,
    escapeHtml(`${file}:${request.line}`),
    detail ? `<pre>${escapeHtml(detail)}</pre>` : '',
  ];
  return `<tr class="${group} ${tenantClass}" title="${escapeHtml(caseName(request))}">${cells.map((text) => `<td>${text}</td>`).join('')}</tr>`;
}

function filters(all: readonly RequestReport[], tenants: readonly string[]): string {
  const c = counts(all);
  const inputs = [
    '<input class="filter" type="radio" name="v" id="v-all" checked>',
    ...(['failed', 'skipped', 'passed'] as const).map((group) => `<input class="filter" type="radio" name="v" id="v-${group}">`),
    '<input class="filter" type="radio" name="t" id="t-all" checked>',
    ...tenants.map((_, index) => `<input class="filter" type="radio" name="t" id="t-${index}">`),
  ];
  const groupCounts: Record<Group, number> = { failed: c.failed, skipped: c.skipped + c.notRun, passed: c.passed };
  const groupLabel: Record<Group, string> = { failed: l10n.t('Failed ({0})', groupCounts.failed), skipped: l10n.t('Skipped ({0})', groupCounts.skipped), passed: l10n.t('Passed ({0})', groupCounts.passed) };
  const nav = [
    `<nav aria-label="${escapeHtml(l10n.t('Result'))}"><label for="v-all">${escapeHtml(l10n.t('All ({0})', c.total))}</label>${(['failed', 'skipped', 'passed'] as const).map((group) => `<label for="v-${group}">${escapeHtml(groupLabel[group])}</label>`).join('')}</nav>`,
    tenants.length > 0
      ? `<nav aria-label="${escapeHtml(l10n.t('Tenant'))}"><label for="t-all">${escapeHtml(l10n.t('Every tenant'))}</label>${tenants.map((tenant, index) => `<label for="t-${index}">${escapeHtml(tenant)}</label>`).join('')}</nav>`
      : '',
  ];
  return [...inputs, ...nav].join('\n');
}

export function htmlReport(report: RunReport, reason: ExitReason): string {
  const entries = report.files.flatMap((file) => file.requests.map((request) => ({ file: file.file, request })));
  const all = entries.map((entry) => entry.request);
  const tenants = [...new Set(all.flatMap((request) => (request.tenant === undefined ? [] : [request.tenant])))];
  const c = counts(all);
  const exit = EXIT_CODES.find((entry) => entry.reason === reason)!;
  const title = l10n.t('Tenant API run: {0} passed, {1} failed, {2} skipped, {3} not run', c.passed, c.failed, c.skipped, c.notRun);
  const sorted = [...entries].sort((a, b) => VERDICT_ORDER[a.request.verdict] - VERDICT_ORDER[b.request.verdict]);
  const headings = [l10n.t('Result'), l10n.t('Request'), l10n.t('Tenant'), l10n.t('Row'), l10n.t('Status'), l10n.t('Time'), l10n.t('File'), l10n.t('Details')];
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${HTML_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}${filterStyle(tenants)}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(l10n.t('Exit code {0}: {1}', exit.code, exit.meaning()))}</p>
<table class="figures"><tbody>
${runFigures(report).map(([name, value]) => `<tr><td>${escapeHtml(name)}</td><td>${escapeHtml(value)}</td></tr>`).join('\n')}
</tbody></table>
${filters(all, tenants)}
<table class="cases"><thead><tr>${headings.map((heading) => `<th>${escapeHtml(heading)}</th>`).join('')}</tr></thead><tbody>
${sorted.map(({ file, request }) => row(file, request, tenants)).join('\n')}
</tbody></table>
</body>
</html>
`;
}
