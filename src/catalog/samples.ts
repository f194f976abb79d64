/** A body to start from: the documented example, else a sample of the schema (openapi-sampler, circular schemas cut short). */
import { sample } from 'openapi-sampler';
import type { CatalogueBody, CatalogueDocument } from './types';

export function sampleOf(document: CatalogueDocument, schemaPointer: string): unknown {
  try {
    return sample({ $ref: `#${schemaPointer}` } as never, { skipReadOnly: true, skipNonRequired: false, maxSampleDepth: 4, quiet: true } as never, document.document as never);
  } catch {
    return {};
  }
}

export function exampleBody(document: CatalogueDocument, body: CatalogueBody): unknown {
  if (body.example !== undefined) return body.example;
  return body.schemaPointer ? sampleOf(document, body.schemaPointer) : {};
}
