/**
 * The importers, one row each: the format is detected from the input (or named), and one importer
 * reads it. A result without a single request (or, for an environment export, an environment file) is
 * an error, so a front end never writes an empty import.
 */
import * as l10n from '../../common/l10n';
import { isEnvironmentFileName } from '../../settings/environmentFiles';
import { curlImporter } from './curl';
import { openApiImporter } from './openapi';
import { postmanImporter } from './postman';
import { ImportError, type ImportFormat, type Importer, type ImportInput, type ImportResult } from './types';

export const IMPORTERS: readonly Importer[] = [openApiImporter, postmanImporter, curlImporter];

export const IMPORT_FORMATS: readonly ImportFormat[] = ['openapi', 'postman', 'curl'];

function nameOf(input: ImportInput): string {
  return input.source ?? l10n.t('standard input');
}

export function detectFormat(input: ImportInput, importers: readonly Importer[] = IMPORTERS): Importer {
  if (input.text.trim() === '') throw new ImportError(l10n.t('{0} is empty: nothing to import.', nameOf(input)));
  const found = importers.find((importer) => importer.detects(input.text, input.source));
  if (!found) throw new ImportError(l10n.t('{0} is not a format tenant-api can import (an OpenAPI or Swagger description, a Postman collection, cURL commands); --format names it.', nameOf(input)));
  return found;
}

/** Reads the input with the importer of `format`, else the one that recognizes it. */
export async function importRequests(input: ImportInput, format?: ImportFormat, importers: readonly Importer[] = IMPORTERS): Promise<ImportResult> {
  const importer = format ? importers.find((candidate) => candidate.format === format) : detectFormat(input, importers);
  if (!importer) throw new ImportError(l10n.t('Importing {0} is not supported yet.', format ?? ''));
  const result = await importer.read(input);
  const environmentOnly = result.files.some((file) => isEnvironmentFileName(file.path.split('/').pop() ?? ''));
  if (result.files.every((file) => file.requests === 0) && !environmentOnly) throw new ImportError(l10n.t('{0} holds no request to import.', nameOf(input)));
  return result;
}

export { ImportError } from './types';
export type { ImportFormat, ImportInput, ImportResult, Importer, ImportedFile, ImportNote } from './types';
