/**
 * The catalogue's heavy half, bundled alone into dist/catalog.js and loaded when a catalogue is first
 * needed (lazyLibrary.ts): YAML, the reference bundler, the schema validator and the sample generator.
 * Nothing on the way of a request that is sent loads it.
 */
import * as l10n from '../common/l10n';
import { operationReader, titleOf, versionOf } from './operations';
import { parseDescriptionText } from './parseText';
import { bundleReferences, type ReferenceInput } from './references';
import { CatalogueError, type CatalogueDocument, type CatalogueNote } from './types';

export { SchemaChecker } from './schemaCheck';
export { exampleBody, sampleOf } from './samples';

export interface DescriptionInput extends ReferenceInput {
  text: string;
  /** How the description is named in messages (its path or address). */
  name?: string;
}

const PATHS_PER_TURN = 50;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Reads a description: parsed, its file references bundled, its operations read. Throws CatalogueError. */
export async function readDescription(input: DescriptionInput): Promise<CatalogueDocument> {
  const name = input.name ?? input.file;
  const value = parseDescriptionText(input.text, name);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CatalogueError(l10n.t('{0} is not an OpenAPI or Swagger description: it is not an object.', name ?? l10n.t('The description')), { file: name });
  }
  const version = versionOf(value, name);
  await nextTurn();
  const notes: CatalogueNote[] = [];
  const document = await bundleReferences(value as Record<string, unknown>, input, notes);
  await nextTurn();
  // In turns of a few paths: a catalogue of a thousand operations never holds the event loop long.
  const reader = operationReader(document, version, notes);
  for (let index = 0; index < reader.paths.length; index++) {
    reader.read(reader.paths[index]);
    if (index % PATHS_PER_TURN === PATHS_PER_TURN - 1) await nextTurn();
  }
  const operations = reader.operations;
  return { version, ...titleOf(document), document, operations, notes, bytes: Buffer.byteLength(input.text) };
}
