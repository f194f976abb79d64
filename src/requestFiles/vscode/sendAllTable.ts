/**
 * The Send All summary as a Markdown table: status, time and size of each request, its assertions'
 * counts when the file has any, and its title, which links to that request's response. No `vscode`
 * here: the links are places in the text.
 */
import * as l10n from '../../common/l10n';
import type { AssertionResult } from '../../engine/assertions/evaluateAssertion';
import { assertionCountCell } from '../../views/assertionSection';
import { formatBytes, formatDuration } from '../../views/responseFormat';

export interface SentRow {
  /** The tab title (responsePresentation.responseTitle), or the request's label. */
  title?: string;
  label: string;
  status?: number;
  timeMs?: number;
  sizeBytes?: number;
  error?: { message: string };
  /** The kept response's URI: the row links to it. */
  document?: string;
  /** The request's assertions as checked (none when it has none or no answer came). */
  assertions?: readonly AssertionResult[];
}

export interface TableLink {
  line: number;
  start: number;
  end: number;
  document: string;
}

export function sendAllTable(heading: string, summary: string, rows: readonly SentRow[], locale: string): { text: string; links: TableLink[] } {
  const asserted = rows.some((row) => (row.assertions?.length ?? 0) > 0);
  const header = [l10n.t('Status'), l10n.t('Time'), l10n.t('Size'), ...(asserted ? [l10n.t('Assertions')] : []), l10n.t('Request')];
  const cells = rows.map((row) => [
    row.status === undefined ? '—' : String(row.status),
    row.timeMs === undefined ? '' : formatDuration(row.timeMs),
    row.sizeBytes === undefined ? '' : formatBytes(row.sizeBytes, locale),
    ...(asserted ? [assertionCountCell(row.assertions)] : []),
  ]);
  const columns = header.length - 1;
  const widths = header.slice(0, columns).map((title, column) => Math.max(title.length, 3, ...cells.map((cell) => cell[column].length)));
  // Numbers right-aligned, the assertions' words left-aligned.
  const pad = (values: string[]) => values.map((value, column) => (column < 3 ? value.padStart(widths[column]) : value.padEnd(widths[column]))).join(' | ');
  const rule = widths.map((width, column) => (column < 3 ? '-'.repeat(width - 1) + ':' : '-'.repeat(width))).join(' | ');
  const lines = [`# ${heading.replace(/[|#]/g, ' ')}`, '', summary, '', `| ${pad(header.slice(0, columns))} | ${header[columns]} |`, `| ${rule} | --- |`];
  const links: TableLink[] = [];
  rows.forEach((row, index) => {
    const prefix = `| ${pad(cells[index])} | `;
    const title = (row.title ?? row.label).replace(/\|/g, '/');
    const error = row.error ? ` — ${row.error.message.replace(/\|/g, '/').replace(/\s+/g, ' ')}` : '';
    if (row.document) links.push({ line: lines.length, start: prefix.length, end: prefix.length + title.length, document: row.document });
    lines.push(`${prefix}${title}${error} |`);
  });
  return { text: lines.join('\n') + '\n', links };
}
