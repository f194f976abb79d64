/**
 * The `openapi` importer: an OpenAPI 3.0/3.1 or Swagger 2.0 description (JSON or YAML, its relative
 * `$ref` files read beside it) becomes one request file per group of operations (tag, else first path
 * segment), one request per operation. Built on the catalogue's reader and request text.
 */
import * as path from 'node:path';
import { catalogueLibrary } from '../../catalog/lazyLibrary';
import { requestBlock, requestFileText, uniqueNames } from '../../catalog/requestText';
import { isCatalogueError, type CatalogueOperation } from '../../catalog/types';
import { describeFailure } from '../../catalog/catalogues';
import * as l10n from '../../common/l10n';
import { ImportError, type Importer, type ImportInput, type ImportNote, type ImportResult } from './types';

/** `"openapi": "3.1.0"` or `swagger: '2.0'` near the start, in JSON or YAML. */
const MARK = /(^|[\s{,])["']?(openapi|swagger)["']?\s*:\s*["']?\d/m;

function slug(group: string): string {
  return group.normalize('NFKD').replace(/[^\w\s-]/g, '').trim().replace(/[\s_]+/g, '-').replace(/-+/g, '-').toLowerCase().slice(0, 60) || 'requests';
}

function groups(operations: readonly CatalogueOperation[]): Map<string, CatalogueOperation[]> {
  const byGroup = new Map<string, CatalogueOperation[]>();
  for (const operation of operations) byGroup.set(operation.group, [...(byGroup.get(operation.group) ?? []), operation]);
  return byGroup;
}

async function read(input: ImportInput): Promise<ImportResult> {
  const library = await catalogueLibrary();
  let description;
  try {
    // The input's folder is the front end's to know: references reach its readFile relative to the input.
    const root = path.resolve('/description');
    const file = input.source ? path.join(root, path.basename(input.source)) : undefined;
    const readFile = input.readFile && ((absolute: string) => input.readFile!(path.relative(root, absolute)));
    description = await library.readDescription({ text: input.text, file, name: input.source ?? l10n.t('standard input'), readFile });
  } catch (error) {
    if (isCatalogueError(error)) throw new ImportError(describeFailure(error));
    throw error;
  }
  const notes: ImportNote[] = description.notes.map((note) => ({ message: note.message, ...(note.where ? { where: note.where } : {}) }));
  const files = new Map<string, { text: string; requests: number }>();
  for (const [group, operations] of groups(description.operations)) {
    const names = uniqueNames(operations);
    const blocks = operations.map((operation, index) => {
      const body = operation.body?.json ? library.exampleBody(description, operation.body) : undefined;
      const block = requestBlock(operation, body, names[index]);
      for (const message of block.omitted) notes.push({ message, where: operation.key });
      return block;
    });
    let file = `${slug(group)}.http`;
    for (let n = 2; files.has(file); n++) file = `${slug(group)}-${n}.http`;
    const heading = [l10n.t('{0} {1}: {2}', description.title, description.apiVersion ?? '', group).replace(/\s+:/, ':')];
    files.set(file, { text: requestFileText(blocks, heading), requests: blocks.length });
  }
  return { format: 'openapi', files: [...files].map(([file, { text, requests }]) => ({ path: file, text, requests })), notes };
}

export const openApiImporter: Importer = {
  format: 'openapi',
  detects: (text) => MARK.test(text.slice(0, 4096)),
  read,
};
