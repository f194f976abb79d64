/** A request file as the engine reads it, from any front end: its text, and `< ./body.json` read beside it. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as l10n from '../common/l10n';
import { parseDataRows } from './dataRows';
import type { DataRow } from './runContext';
import type { RequestDocument } from './runner';

/** `key` identifies the file (results are kept per file); files it names are read relative to `folder`. */
export function requestDocument(key: string, text: string, folder: string): RequestDocument {
  return {
    key,
    text,
    readBodyFile(relative: string) {
      const file = path.resolve(folder, relative);
      try {
        return fs.readFileSync(file, 'utf8');
      } catch (error) {
        throw new Error(l10n.t('The body file {0} cannot be read: {1}', relative, (error as NodeJS.ErrnoException).code ?? String(error)));
      }
    },
  };
}

/** The rows of a data file (`# @data ./rows.csv` relative to `folder`, `--data` relative to the current one); throws with a sentence. */
export function readDataRows(relative: string, folder: string): DataRow[] {
  const file = path.resolve(folder, relative);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(l10n.t('The data file {0} cannot be read: {1}', relative, (error as NodeJS.ErrnoException).code ?? String(error)));
  }
  return parseDataRows(text, relative);
}
