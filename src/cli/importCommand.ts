/**
 * `tenant-api import <file or -> [--format F] [--out FOLDER] [--force]`: request files from another
 * tool's format. All or nothing: every file is checked before the first is written, so a failed import
 * leaves the folder as it was. An environment file that exists already takes the imported
 * environments in (a collection, then its environments, into one folder).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as l10n from '../common/l10n';
import { ImportError, IMPORTERS, importRequests, type Importer, type ImportResult } from '../engine/importers';
import { planImport } from '../engine/importers/importPlan';
import { isEnvironmentFileName } from '../settings/environmentFiles';
import type { Arguments } from './options';
import type { Output } from './output';

export interface ImportDeps {
  cwd: string;
  output: Output;
  readStdin(): Promise<string>;
  /** The importers' table (a test's own; default: every importer). */
  importers?: readonly Importer[];
}

/** The reason an import failed, as the one line the command prints (exit 2). */
export class ImportFailed extends Error {}

async function readInput(input: string, deps: ImportDeps): Promise<{ text: string; source?: string }> {
  if (input === '-') return { text: await deps.readStdin() };
  const file = path.resolve(deps.cwd, input);
  try {
    return { text: fs.readFileSync(file, 'utf8'), source: input };
  } catch (error) {
    throw new ImportFailed(l10n.t('Cannot read {0}: {1}', input, (error as NodeJS.ErrnoException).code ?? String(error)));
  }
}

/** The files' absolute paths, refused whole when one would leave the folder or replace a file without --force. */
function targets(result: ImportResult, folder: string): string[] {
  return result.files.map((file) => {
    const target = path.resolve(folder, file.path);
    if (path.relative(folder, target).startsWith('..') || path.isAbsolute(path.relative(folder, target))) throw new ImportFailed(l10n.t('The import named a file outside {0}: {1}', folder, file.path));
    return target;
  });
}

export async function importCommand(args: Arguments, deps: ImportDeps): Promise<void> {
  const input = await readInput(args.files[0], deps);
  const folder = path.resolve(deps.cwd, args.out ?? '.');
  const baseDir = input.source ? path.dirname(path.resolve(deps.cwd, input.source)) : deps.cwd;
  let result: ImportResult;
  try {
    result = await importRequests({ ...input, readFile: async (file) => fs.promises.readFile(path.resolve(baseDir, file), 'utf8') }, args.format, deps.importers ?? IMPORTERS);
  } catch (error) {
    if (error instanceof ImportError) throw new ImportFailed(error.message);
    throw error;
  }
  const files = targets(result, folder);
  let planned: ReturnType<typeof planImport>;
  try {
    planned = planImport(result.files, (file) => (fs.existsSync(path.resolve(folder, file)) ? fs.readFileSync(path.resolve(folder, file), 'utf8') : undefined));
  } catch (error) {
    if (error instanceof ImportError) throw new ImportFailed(error.message);
    throw error;
  }
  const replaced = planned.findIndex((file) => file.replaces);
  if (!args.force && replaced >= 0) throw new ImportFailed(l10n.t('{0} exists: nothing was written (--force replaces it).', path.relative(process.cwd(), files[replaced]) || files[replaced]));
  planned.forEach((file, index) => {
    fs.mkdirSync(path.dirname(files[index]), { recursive: true });
    fs.writeFileSync(files[index], file.text);
    const what = file.requests === 0 && isEnvironmentFileName(path.basename(file.path)) ? l10n.t('environment variables') : l10n.byCount(file.requests, l10n.t('{0} request', file.requests), l10n.t('{0} requests', file.requests));
    deps.output.out(l10n.t('Wrote {0} ({1})', path.relative(deps.cwd, files[index]) || files[index], what));
  });
  for (const note of result.notes) deps.output.err(note.where ? `${note.where}: ${note.message}` : note.message);
}
