/**
 * Loads the catalogue's heavy half (library.ts) on first use: in the bundles, dist/catalog.js beside
 * dist/extension.js and dist/cli.js (esbuild defines CATALOGUE_BUNDLE); from the sources (tests), the module itself.
 */
import * as path from 'node:path';
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
