/**
 * The Send All summary as a Markdown table: status, time and size of each request, and its title,
 * which links to that request's response. No `vscode` here: the links are places in the text.
 */
import * as l10n from '../../common/l10n';
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
}

export interface TableLink {
  line: number;
  start: number;
  end: number;
  document: string;
}

export function sendAllTable(heading: string, summary: string, rows: readonly SentRow[], locale: string): { text: string; links: TableLink[] } {
  const header = [l10n.t('Status'), l10n.t('Time'), l10n.t('Size'), l10n.t('Request')];
  const cells = rows.map((row) => [
    row.status === undefined ? '—' : String(row.status),
    row.timeMs === undefined ? '' : formatDuration(row.timeMs),
    row.sizeBytes === undefined ? '' : formatBytes(row.sizeBytes, locale),
  ]);
  const widths = [0, 1, 2].map((column) => Math.max(header[column].length, 3, ...cells.map((cell) => cell[column].length)));
  const pad = (values: string[]) => values.map((value, column) => value.padStart(widths[column])).join(' | ');
  const lines = [`# ${heading.replace(/[|#]/g, ' ')}`, '', summary, '', `| ${pad(header.slice(0, 3))} | ${header[3]} |`, `| ${widths.map((width) => '-'.repeat(width - 1) + ':').join(' | ')} | --- |`];
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
