/**
 * Loads the catalogue's heavy half (library.ts) on first use: in the bundles, dist/catalog.js beside
 * dist/extension.js and dist/cli.js (esbuild defines CATALOGUE_BUNDLE); from the sources (tests), the
 * module itself. In this thread (catalogueLibrary) or as a worker thread (startCatalogueWorker).
 */
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type * as Library from './library';

export type CatalogueLibrary = typeof Library;

declare const CATALOGUE_BUNDLE: string | undefined;

let loaded: Promise<CatalogueLibrary> | undefined;

export function catalogueLibrary(): Promise<CatalogueLibrary> {
  loaded ??= new Promise<CatalogueLibrary>((resolve, reject) => {
    try {
      if (typeof CATALOGUE_BUNDLE === 'string') {
        // A name esbuild cannot follow: the library stays out of the bundle that requires it.
        const file = path.join(__dirname, CATALOGUE_BUNDLE);
        resolve(require(file) as CatalogueLibrary);
      } else {
        const source = './library';
        resolve(require(source) as CatalogueLibrary);
      }
    } catch (error) {
      reject(error);
    }
  });
  return loaded;
}

/** dist/catalog.js as a worker thread serving the catalogue reader's messages (readerWorker.ts). */
export function startCatalogueWorker(workerData: Record<string, unknown>): Worker {
  if (typeof CATALOGUE_BUNDLE === 'string') return new Worker(path.join(__dirname, CATALOGUE_BUNDLE), { workerData });
  // From the sources (the unit tests): the worker compiles TypeScript as the tests' own thread does.
  const source = path.join(__dirname, 'library.ts');
  return new Worker(`require('tsx/cjs'); require(${JSON.stringify(source)});`, { eval: true, workerData });
}
