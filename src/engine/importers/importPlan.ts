/**
 * What an import will write, decided before anything is written (the command line and the editor's
 * commands share it): imports of several inputs made one (a collection and its environments), and an
 * environment file that exists already taking the imported environments in. No `vscode` here.
 */
import * as l10n from '../../common/l10n';
import { EnvironmentFileError, isEnvironmentFileName, mergeEnvironmentFiles } from '../../settings/environmentFiles';
import { ImportError, type ImportedFile, type ImportResult } from './types';

export interface PlannedFile extends ImportedFile {
  /** A file of that path exists and is not an environment file: it would be replaced. */
  replaces: boolean;
}

const isEnvironmentFile = (file: { path: string }) => isEnvironmentFileName(file.path.split('/').pop() ?? '');

/** Several imports as one: their files in order, environment files of the same path merged. */
export function combineImports(results: readonly ImportResult[]): ImportResult {
  const files: ImportedFile[] = [];
  for (const file of results.flatMap((result) => result.files)) {
    const same = files.findIndex((candidate) => candidate.path.toLowerCase() === file.path.toLowerCase());
    if (same < 0) files.push(file);
    else if (isEnvironmentFile(file)) files[same] = { ...file, text: mergeEnvironmentFiles(files[same].text, file.text, file.path) };
    else throw new ImportError(l10n.t('Two inputs would both write {0}: import them one at a time, into different folders.', file.path));
  }
  return { format: results[0]?.format ?? 'postman', files, notes: results.flatMap((result) => result.notes) };
}

/**
 * The files as they will be written: an existing environment file (read through `existing`) with the
 * imported environments merged in, any other existing file marked as replaced. Throws ImportError when
 * an existing environment file cannot be read.
 */
export function planImport(files: readonly ImportedFile[], existing: (path: string) => string | undefined): PlannedFile[] {
  return files.map((file) => {
    const current = existing(file.path);
    if (current === undefined) return { ...file, replaces: false };
    if (!isEnvironmentFile(file)) return { ...file, replaces: true };
    try {
      return { ...file, text: mergeEnvironmentFiles(current, file.text, file.path), replaces: false };
    } catch (error) {
      if (error instanceof EnvironmentFileError) throw new ImportError(l10n.t('{0}: nothing was written.', error.message));
      throw error;
    }
  });
}
