/**
 * The catalogue's model: OpenAPI descriptions (Swagger 2.0, OpenAPI 3.0 and 3.1) read into the
 * operations the extension offers, checks and writes. Plain data, no library types: the tree,
 * completion and the generator read these without loading the heavy libraries.
 */
import type { RouteHost } from '../api/types';

/** One entry of tenantApi.catalogues: where the description is, which licence module and host serve its paths. */
export interface CatalogueEntry {
  /** A workspace file (relative to the workspace folder, or absolute) or an https address. */
  source: string;
  /** Undefined: its paths need no licence key (the bearer token alone). */
  module?: string;
  host: RouteHost;
}

export type ParameterPlace = 'path' | 'query' | 'header' | 'cookie';

export interface CatalogueParameter {
  name: string;
  in: ParameterPlace;
  required: boolean;
  description?: string;
  /** The documented example, else the schema's example or default, else undefined. */
  example?: unknown;
  /** The schema's type, for the word shown beside the name (string, integer, array...). */
  type?: string;
}

export interface CatalogueBody {
  required: boolean;
  /** The media type written (the JSON one when there is one). */
  mediaType: string;
  /** Whether a request file can send it: a JSON media type. */
  json: boolean;
  description?: string;
  /** JSON pointer of its schema in the document, when it has one. */
  schemaPointer?: string;
  /** The documented example (of the media type, or of the schema), when there is one. */
  example?: unknown;
}

export interface CatalogueResponse {
  /** `200`, `2XX` or `default`, as documented. */
  status: string;
  description?: string;
  /** JSON pointer of the JSON body's schema, when the answer has one. */
  schemaPointer?: string;
}

export interface CatalogueOperation {
  /** `GET /efat/api/v1/ditte/{id}`: unique in its catalogue. */
  key: string;
  method: string;
  /** The whole path the platform serves: the server's (or basePath's) path, then the documented path. */
  path: string;
  operationId?: string;
  summary?: string;
  description?: string;
  /** Its group in the tree: its first tag, else its path's first segment. */
  group: string;
  deprecated: boolean;
  parameters: CatalogueParameter[];
  body?: CatalogueBody;
  responses: CatalogueResponse[];
}

/** Something the reader could not carry over (a remote reference, an unreadable operation), one sentence each. */
export interface CatalogueNote {
  message: string;
  /** Where in the description: `paths./pets.get`, a file. */
  where?: string;
}

export interface CatalogueDocument {
  /** `2.0`, `3.0` or `3.1`: which JSON Schema dialect its schemas follow. */
  version: '2.0' | '3.0' | '3.1';
  title: string;
  apiVersion?: string;
  /** The description with every file reference bundled in: its schemas are read by JSON pointer. */
  document: Record<string, unknown>;
  operations: CatalogueOperation[];
  notes: CatalogueNote[];
  /** Bytes of the main file, for the log. */
  bytes: number;
}

/**
 * What the editor holds of a read description: everything but the description itself, which stays
 * with the reader (a worker thread in the editor) that checks bodies and samples schemas against it.
 */
export type CatalogueDescription = Omit<CatalogueDocument, 'document'>;

/** A description that cannot be used: one sentence, with the file, line and column where known. */
export class CatalogueError extends Error {
  override readonly name = 'CatalogueError';

  constructor(
    message: string,
    readonly where?: { file?: string; line?: number; column?: number },
  ) {
    super(message);
  }
}

/**
 * Whether an error is a CatalogueError: by its name, since dist/catalog.js has its own copy of the
 * class (instanceof fails across the two bundles).
 */
export function isCatalogueError(error: unknown): error is CatalogueError {
  return error instanceof Error && error.name === 'CatalogueError';
}

/** The first place a body breaks its schema: where (JSON pointer and path) and which rule. */
export interface SchemaViolation {
  /** JSON pointer into the body: `/elementi/0/id` ('' for the whole body). */
  pointer: string;
  /** The same place as the assertions write it: `$.elementi[0].id`. */
  path: string;
  /** The schema keyword that failed: `type`, `required`, `enum`... */
  rule: string;
  /** What the rule wants, as the validator says it: `must be integer`. */
  message: string;
}

/** A violation of a request body, at its place in the body's text (what a warning underlines). */
export interface LocatedViolation extends SchemaViolation {
  /** Offset in the body's text of the value (or, for a property that is not documented, of the property). */
  offset: number;
  /** Characters to underline: the value's, 1 for an object or array. */
  length: number;
}

/** What the catalogues say of an answer: which operation, which documented status, where the body breaks its schema. */
export type ContractVerdict =
  | { kind: 'undocumented'; request: string }
  | { kind: 'status'; operation: string; status: number; documented: string[] }
  | { kind: 'checked'; operation: string; status: string; violations: readonly SchemaViolation[] }
  | { kind: 'unchecked'; operation: string; status: string; reason: string };

