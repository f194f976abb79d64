/**
 * A data file's rows (`tenant-api run --data rows.csv`, `# @data ./rows.csv`): CSV with a header row,
 * or JSON, an array of objects. Each row's columns are its variables; a column named `label` (else
 * `name`) labels the row in results. Values are text: a JSON number or boolean is written as JSON
 * writes it; an object or array as JSON. No `vscode` here.
 */
import { parse } from 'csv-parse/sync';
import * as l10n from '../common/l10n';
import type { DataRow } from './runContext';

const LABEL_COLUMNS = ['label', 'name'];
/** A column is a variable name: what `{{name}}` can read. */
const COLUMN = /^[A-Za-z_][\w.-]*$/;

export class DataFileError extends Error {}

/** The rows of a data file's text; `name` says which file in an error. Throws DataFileError with the line or row at fault. */
export function parseDataRows(text: string, name: string): DataRow[] {
  const body = text.replace(/^\uFEFF/, '');
  const records = /\.json$/i.test(name) || /^\s*\[/.test(body) ? jsonRecords(body, name) : csvRecords(body, name);
  if (records.length === 0) throw new DataFileError(l10n.t('{0} has no rows.', name));
  const columns = Object.keys(records[0]);
  const bad = columns.find((column) => !COLUMN.test(column));
  if (bad !== undefined) throw new DataFileError(l10n.t('{0}: the column "{1}" is not a variable name (letters, digits, _ . -, not starting with a digit).', name, bad));
  const labelColumn = LABEL_COLUMNS.find((column) => columns.includes(column));
  return records.map((values, index) => {
    const label = labelColumn === undefined ? undefined : values[labelColumn]?.trim() || undefined;
    return label === undefined ? { number: index + 1, values } : { number: index + 1, label, values };
  });
}

function csvRecords(text: string, name: string): Array<Record<string, string>> {
  const plain = plainCsvRecords(text);
  if (plain) return plain;
  try {
    return parse(text, { columns: (header: string[]) => header.map((column) => column.trim()), skip_empty_lines: true, bom: true, trim: false, relax_column_count: false }) as Array<Record<string, string>>;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new DataFileError(l10n.t('{0} is not CSV with a header row: {1}', name, reason));
  }
}

/**
 * CSV without quotes, split by lines and commas: what the parser reads it as, in a fifth of its time
 * (10,000 rows: 20 ms instead of 90). Anything else (a quote, a lone CR, a blank-looking line, a row
 * of another width) is left to the parser, which reads it or says what is wrong.
 */
function plainCsvRecords(text: string): Array<Record<string, string>> | undefined {
  // includes() first: most files have no CR, and the regular expression need not scan them.
  const crlf = text.includes('\r');
  if (text.includes('"') || (crlf && /\r(?!\n)/.test(text))) return undefined;
  const lines = crlf ? text.split(/\r?\n/) : text.split('\n');
  const header = lines.findIndex((line) => line !== '');
  if (header < 0) return undefined;
  const columns = lines[header].split(',').map((column) => column.trim());
  const width = columns.length;
  const records: Array<Record<string, string>> = [];
  for (let index = header + 1; index < lines.length; index++) {
    const line = lines[index];
    if (line === '') continue;
    const cells = line.split(',');
    if (cells.length !== width || (width === 1 && line.trim() === '')) return undefined;
    const record: Record<string, string> = {};
    for (let at = 0; at < width; at++) record[columns[at]] = cells[at];
    records.push(record);
  }
  return records;
}

function jsonRecords(text: string, name: string): Array<Record<string, string>> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new DataFileError(l10n.t('{0} is not JSON: {1}', name, error instanceof Error ? error.message : String(error)));
  }
  if (!Array.isArray(value)) throw new DataFileError(l10n.t('{0} is not a JSON array of objects.', name));
  return value.map((row, index) => {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) throw new DataFileError(l10n.t('{0}: row {1} is not an object.', name, index + 1));
    return Object.fromEntries(Object.entries(row).map(([column, cell]) => [column, typeof cell === 'string' ? cell : JSON.stringify(cell) ?? '']));
  });
}
