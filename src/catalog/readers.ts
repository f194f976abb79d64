/**
 * What reads a catalogue's description and then answers questions on it. The editor's reader works
 * in a worker thread (workerReader.ts: a 12 MB description would hold the extension host for a second);
 * the runner's reads in its own thread (inThreadReader). Both hand over the same plain data.
 */
import type { CatalogueLibrary } from './lazyLibrary';
import type { DescriptionSource } from './sources';
import type { CatalogueBody, CatalogueDescription, CatalogueOperation, LocatedViolation, SchemaViolation } from './types';

/** A read description: its operations and what else the tree and completion show; the rest asked. */
export interface ReadCatalogue {
  description: CatalogueDescription;
  /** Where `value` breaks the schema at `pointer`; rejects when the schema cannot be compiled. */
  check(pointer: string, value: unknown): Promise<SchemaViolation[]>;
  /** The same for a body's JSON text, each violation at its place in the text. */
  checkBody(pointer: string, text: string): Promise<LocatedViolation[]>;
  /** Its documented example, else a sample of its schema. */
  exampleBody(body: CatalogueBody): Promise<unknown>;
  /** Forgets the description (the worker frees it). */
  release(): void;
}

export interface DescriptionReader {
  /** Gets ready to read (starts the worker) while the description is fetched. */
  warm?(): void;
  /** Rejects with a CatalogueError for a description that cannot be used; `onOperations` gets them as they are read. */
  read(source: DescriptionSource, onOperations?: (operations: CatalogueOperation[]) => void): Promise<ReadCatalogue>;
  dispose(): void;
}

const settled = <T>(answer: () => T): Promise<T> => new Promise((resolve) => resolve(answer()));

/** Reads in this thread, with the library loaded on first use: the runner's reader, and the tests'. */
export function inThreadReader(library: () => Promise<CatalogueLibrary>): DescriptionReader {
  return {
    async read(source, onOperations) {
      const loaded = await library();
      const document = await loaded.readDescription({ text: source.text, file: source.file, name: source.name, readFile: source.readFile, onOperations });
      const schemas = new loaded.DescriptionSchemas(document);
      const { document: _document, ...description } = document;
      return {
        description,
        check: (pointer, value) => settled(() => schemas.check(pointer, value)),
        checkBody: (pointer, text) => settled(() => schemas.checkBody(pointer, text)),
        exampleBody: (body) => settled(() => schemas.exampleBody(body)),
        release: () => undefined,
      };
    },
    dispose: () => undefined,
  };
}
