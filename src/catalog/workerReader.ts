/**
 * The editor's description reader: a worker thread (dist/catalog.js) parses, bundles and reads the
 * description and keeps it; the extension host gets the operations a few dozen per message (no long
 * block to take them in) and asks the worker for checks and example bodies by handle. The worker
 * starts with the first read and stops a while after it holds nothing (a failed read, a setting edited
 * and read again, start no new one); it never keeps a process alive while idle.
 */
import type { Worker } from 'node:worker_threads';
import * as l10n from '../common/l10n';
import type { FailureData, FromWorker, ReadAnswer, ToWorker } from './readerProtocol';
import { WORKER_MARK } from './readerProtocol';
import type { DescriptionReader, ReadCatalogue } from './readers';
import type { DescriptionSource } from './sources';
import { CatalogueError, type CatalogueOperation } from './types';

/** Starts dist/catalog.js (or the sources, in tests) as a worker with this workerData. */
export type StartWorker = (workerData: Record<string, unknown>) => Worker;

type Message = ToWorker extends infer M ? (M extends { id: number } ? Omit<M, 'id'> : never) : never;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** A read's: the source whose reader answers the worker's file requests, the operations so far. */
  read?: { source: DescriptionSource; operations: CatalogueOperation[]; onOperations?(operations: CatalogueOperation[]): void };
}

function errorOf(data: FailureData): Error {
  return data.catalogue ? new CatalogueError(data.message, data.where) : new Error(data.message);
}

/** A description's bytes are moved to the worker when they are the whole of their buffer (a file's are). */
function transferOf(text: string | Uint8Array): ArrayBuffer[] {
  return typeof text !== 'string' && text.buffer instanceof ArrayBuffer && text.byteOffset === 0 && text.byteLength === text.buffer.byteLength ? [text.buffer] : [];
}

export class WorkerReader implements DescriptionReader {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  /** Handles the current worker keeps. */
  private readonly held = new Set<number>();
  private nextId = 1;
  /** Counts the workers that stopped: a handle of an earlier one is gone with it. */
  private lifetime = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly start: StartWorker,
    /** vscode.l10n.bundle: the worker's sentences in the editor's language. */
    private readonly translations?: Readonly<Record<string, string>>,
    /** How long a worker that holds nothing and owes nothing is kept before it is stopped. */
    private readonly idleMs = 30_000,
  ) {}

  async read(source: DescriptionSource, onOperations?: (operations: CatalogueOperation[]) => void): Promise<ReadCatalogue> {
    this.ensureWorker();
    const lifetime = this.lifetime;
    const operations: CatalogueOperation[] = [];
    const message: Message = { kind: 'read', text: source.text, file: source.file, name: source.name, canReadFiles: source.file !== undefined && source.readFile !== undefined };
    const answer = (await this.request(message, { source, operations, onOperations }, transferOf(source.text))) as ReadAnswer;
    return this.readCatalogue(answer, operations, lifetime);
  }

  /** Starts the worker (its bundle loads while the description is fetched); stopped a while later if no read comes. */
  warm(): void {
    this.ensureWorker();
    this.stopWhenIdle();
  }

  dispose(): void {
    this.stop(this.worker, l10n.t('it was closed'));
  }

  private readCatalogue(answer: ReadAnswer, operations: CatalogueOperation[], lifetime: number): ReadCatalogue {
    const { handle } = answer;
    const alive = () => lifetime === this.lifetime && this.held.has(handle);
    const ask = <T>(message: Message): Promise<T> =>
      alive() ? (this.request(message) as Promise<T>) : Promise.reject(new CatalogueError(l10n.t('The catalogue reader stopped: read the catalogue again.')));
    return {
      description: { ...answer.description, operations },
      check: (pointer, value) => ask({ kind: 'check', handle, pointer, value }),
      checkBody: (pointer, text) => ask({ kind: 'checkBody', handle, pointer, text }),
      exampleBody: (body) => ask({ kind: 'example', handle, body }),
      release: () => {
        if (!alive()) return;
        this.held.delete(handle);
        this.worker?.postMessage({ kind: 'release', handle } satisfies ToWorker);
        this.stopWhenIdle();
      },
    };
  }

  private ensureWorker(): Worker {
    clearTimeout(this.idleTimer);
    if (this.worker) return this.worker;
    const worker = this.start({ [WORKER_MARK]: true, ...(this.translations ? { translations: this.translations } : {}) });
    worker.unref();
    worker.on('message', (message: FromWorker) => this.received(worker, message));
    worker.on('error', (error) => this.stop(worker, error.message));
    worker.on('exit', (code) => this.stop(worker, l10n.t('it exited with code {0}', code)));
    this.worker = worker;
    return worker;
  }

  private request(message: Message, read?: Pending['read'], transfer: ArrayBuffer[] = []): Promise<unknown> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, ...(read ? { read } : {}) });
      // Kept alive while it owes an answer (the runner's process must wait for it), not when idle.
      if (this.pending.size === 1) worker.ref();
      try {
        worker.postMessage({ ...message, id } as ToWorker, transfer);
      } catch (error) {
        this.settled(id);
        reject(error);
      }
    });
  }

  private received(worker: Worker, message: FromWorker): void {
    if (worker !== this.worker) return;
    if (message.kind === 'operations') {
      const read = this.pending.get(message.id)?.read;
      for (const operation of message.operations) read?.operations.push(operation);
      read?.onOperations?.(message.operations);
    } else if (message.kind === 'readFile') {
      const readFile = this.pending.get(message.read)?.read?.source.readFile;
      const reply = (answer: { text?: string; code?: string }) => worker.postMessage({ kind: 'file', id: message.id, ...answer } satisfies ToWorker);
      if (!readFile) reply({ code: 'ENOENT' });
      else readFile(message.path).then((text) => reply({ text }), (error: NodeJS.ErrnoException) => reply({ code: error.code ?? String(error.message ?? error) }));
    } else {
      const waiting = this.settled(message.id);
      if (message.kind === 'failure') waiting?.reject(errorOf(message.error));
      else {
        if (waiting?.read) this.held.add((message.value as ReadAnswer).handle);
        waiting?.resolve(message.value);
      }
      this.stopWhenIdle();
    }
  }

  private settled(id: number): Pending | undefined {
    const waiting = this.pending.get(id);
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker?.unref();
    return waiting;
  }

  /** A worker that holds no description and owes no answer is stopped (a while later): its memory goes with it. */
  private stopWhenIdle(): void {
    if (this.pending.size > 0 || this.held.size > 0 || !this.worker) return;
    const worker = this.worker;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.pending.size === 0 && this.held.size === 0) this.stop(worker);
    }, this.idleMs);
    this.idleTimer.unref();
  }

  /** Stops a worker (when it is the current one): what it owed fails with the reason, its handles are gone. */
  private stop(worker: Worker | undefined, reason?: string): void {
    if (!worker || worker !== this.worker) return;
    clearTimeout(this.idleTimer);
    this.worker = undefined;
    this.lifetime++;
    this.held.clear();
    const owed = [...this.pending.values()];
    this.pending.clear();
    for (const waiting of owed) waiting.reject(new CatalogueError(l10n.t('The catalogue reader stopped: {0}', reason ?? l10n.t('it was closed'))));
    void worker.terminate();
  }
}
