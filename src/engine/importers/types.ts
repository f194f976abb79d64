/**
 * What every importer of another tool's format gives (an OpenAPI description, a Postman collection,
 * cURL commands): request files as text, and notes on what it could not carry over. The command line
 * (`tenant-api import`) and the editor's commands are front ends over the same importers.
 */

export type ImportFormat = 'openapi' | 'postman' | 'curl';

export interface ImportInput {
  text: string;
  /** The input's path (for messages and relative references); undefined for standard input or a paste. */
  source?: string;
  /** Reads another file the input refers to (a relative `$ref`), by absolute path; absent: none is read. */
  readFile?(absolutePath: string): Promise<string>;
}

export interface ImportedFile {
  /** Relative to the output folder, '/'-separated: `pets.http`, `orders/http-client.env.json`. */
  path: string;
  text: string;
  /** How many requests it holds (0 for an environment file). */
  requests: number;
}

export interface ImportNote {
  message: string;
  /** Where in the input it arose, when known: `item "Login" › test script`, `line 3`. */
  where?: string;
}

export interface ImportResult {
  format: ImportFormat;
  files: ImportedFile[];
  /** What was dropped, changed or not supported, one sentence each (credential headers, scripts, ...). */
  notes: ImportNote[];
}

/** The input cannot be imported: unreadable, unsupported, or holding nothing to import. One line, with the place when known. */
export class ImportError extends Error {}

export interface Importer {
  format: ImportFormat;
  /** True when the text looks like this format: a cheap look at its start, no full parse. */
  detects(text: string, source?: string): boolean;
  /** The request files the input becomes; throws ImportError when it cannot. */
  read(input: ImportInput): Promise<ImportResult>;
}
