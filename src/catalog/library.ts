/**
 * The catalogue's heavy half, bundled alone into dist/catalog.js and loaded when a catalogue is first
 * needed (lazyLibrary.ts), in the editor inside a worker thread (readerWorker.ts): YAML, the reference
 * bundler, the schema validator, the sample generator and the body's JSON positions.
 * Nothing on the way of a request that is sent loads it.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { serveReader, WORKER_MARK } from './readerWorker';

export { readDescription, type DescriptionInput } from './description';
export { SchemaChecker } from './schemaCheck';
export { exampleBody, sampleOf } from './samples';
export { DescriptionSchemas } from './descriptionSchemas';

// Started as the editor's catalogue worker (lazyLibrary.ts): answer the extension host's messages.
if (!isMainThread && parentPort && (workerData as Record<string, unknown> | undefined)?.[WORKER_MARK]) serveReader(parentPort, workerData as Record<string, unknown>);
