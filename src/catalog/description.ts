/**
 * Reading a description's text into the catalogue's model: decoded, parsed, its file references
 * bundled, its operations read a few paths at a time. The same on the editor's worker thread and in
 * the runner's own.
 */
import * as l10n from '../common/l10n';
import { MAX_DESCRIPTION_BYTES, megabytes } from './limits';
import { operationReader, titleOf, versionOf } from './operations';
import { parseDescriptionText } from './parseText';
import { bundleReferences, type ReferenceInput } from './references';
import { CatalogueError, type CatalogueDocument, type CatalogueNote, type CatalogueOperation } from './types';

export interface DescriptionInput extends ReferenceInput {
  /** The description's text, or its UTF-8 bytes (decoded here, on the reader's thread). */
  text: string | Uint8Array;
  /** How the description is named in messages (its path or address). */
  name?: string;
  /** Given the operations as they are read, a few dozen at a time (the worker sends them on as they come). */
  onOperations?(operations: CatalogueOperation[]): void;
}

const PATHS_PER_TURN = 50;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function decoded(text: string | Uint8Array, name: string | undefined): string {
  if (typeof text === 'string') return text;
  // Refused before decoding: a 20 MB limit must not first cost a 40 MB string.
  if (text.byteLength > MAX_DESCRIPTION_BYTES) {
    throw new CatalogueError(l10n.t('{0} is {1}, over the limit of {2} for a description.', name ?? l10n.t('The description'), megabytes(text.byteLength), megabytes(MAX_DESCRIPTION_BYTES)), { file: name });
  }
  return Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString('utf8');
}

/** Reads a description: parsed, its file references bundled, its operations read. Throws CatalogueError. */
export async function readDescription(input: DescriptionInput): Promise<CatalogueDocument> {
  const name = input.name ?? input.file;
  const text = decoded(input.text, name);
  const value = parseDescriptionText(text, name);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CatalogueError(l10n.t('{0} is not an OpenAPI or Swagger description: it is not an object.', name ?? l10n.t('The description')), { file: name });
  }
  const version = versionOf(value, name);
  await nextTurn();
  const notes: CatalogueNote[] = [];
  const document = await bundleReferences(value as Record<string, unknown>, { ...input, text }, notes);
  await nextTurn();
  // In turns of a few paths: a catalogue of a thousand operations never holds the event loop long.
  const reader = operationReader(document, version, notes);
  let given = 0;
  for (let index = 0; index < reader.paths.length; index++) {
    reader.read(reader.paths[index]);
    if (index % PATHS_PER_TURN === PATHS_PER_TURN - 1 || index === reader.paths.length - 1) {
      if (input.onOperations && reader.operations.length > given) input.onOperations(reader.operations.slice(given));
      given = reader.operations.length;
      await nextTurn();
    }
  }
  const operations = reader.operations;
  return { version, ...titleOf(document), document, operations, notes, bytes: typeof input.text === 'string' ? Buffer.byteLength(input.text) : input.text.byteLength };
}
