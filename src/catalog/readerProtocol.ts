/**
 * The messages between the extension host and the catalogue's worker thread: plain data only (what
 * structured clone carries), a description's bytes moved rather than copied. The description itself
 * stays in the worker; the host gets its operations, a few dozen per message, and asks by handle.
 */
import type { CatalogueBody, CatalogueDescription, CatalogueOperation } from './types';

/** workerData's key that makes dist/catalog.js serve these messages when it is a worker's script. */
export const WORKER_MARK = 'tenantApiCatalogueReader';

export type ToWorker =
  | { kind: 'read'; id: number; text: string | Uint8Array; file?: string; name?: string; canReadFiles: boolean }
  | { kind: 'check'; id: number; handle: number; pointer: string; value: unknown }
  | { kind: 'checkBody'; id: number; handle: number; pointer: string; text: string }
  | { kind: 'example'; id: number; handle: number; body: CatalogueBody }
  | { kind: 'release'; handle: number }
  /** The host's answer to a `readFile`: the text, or the error's code. */
  | { kind: 'file'; id: number; text?: string; code?: string };

export type FromWorker =
  | { kind: 'operations'; id: number; operations: CatalogueOperation[] }
  /** A file a relative `$ref` names, read by the host's reader (the front end's, as in its own thread). */
  | { kind: 'readFile'; id: number; read: number; path: string }
  | { kind: 'answer'; id: number; value: unknown }
  | { kind: 'failure'; id: number; error: FailureData };

/** An error as data: a CatalogueError keeps its place (file, line, column). */
export interface FailureData {
  message: string;
  catalogue: boolean;
  where?: { file?: string; line?: number; column?: number };
}

/** A read's answer: the handle the worker keeps the description under, and the description without its operations (sent before). */
export interface ReadAnswer {
  handle: number;
  description: Omit<CatalogueDescription, 'operations'>;
}
