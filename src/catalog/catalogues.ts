/**
 * The catalogues in force: the entries of the setting, each loaded once, when a catalogue is first
 * needed (the tree, a request file, Send Request, a schema assertion), never at activation. What the
 * layers above read: the operations, the routes they imply, the operation a request is, the schema check.
 */
import type { RouteRule } from '../api/types';
import { Emitter, type Event } from '../common/event';
import * as l10n from '../common/l10n';
import { silentLogger, type Logger } from '../common/logger';
import { sameEntries } from './entries';
import { OperationIndex } from './matching';
import type { DescriptionReader, ReadCatalogue } from './readers';
import { catalogueRoutes } from './routes';
import type { DescriptionSource } from './sources';
import { CatalogueError, isCatalogueError, type CatalogueDescription, type CatalogueEntry, type CatalogueOperation, type LocatedViolation, type SchemaViolation } from './types';

export type CatalogueState =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'loaded'; document: CatalogueDescription; index: OperationIndex; routes: RouteRule[] }
  | { kind: 'failed'; error: CatalogueError };

export interface Catalogue {
  id: string;
  entry: CatalogueEntry;
  /** Its source as the setting names it. */
  name: string;
  state: CatalogueState;
}

export interface CatalogueSetDeps {
  read(entry: CatalogueEntry): Promise<DescriptionSource>;
  /** Reads the descriptions and answers on them (in a worker in the editor); the set disposes it. */
  reader: DescriptionReader;
  logger?: Logger;
  now?(): number;
}

/** A request that a catalogue documents: which catalogue, which operation. */
export interface Documented {
  catalogue: Catalogue & { state: Extract<CatalogueState, { kind: 'loaded' }> };
  operation: CatalogueOperation;
}

export class CatalogueSet {
  private readonly changes = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changes.event;
  private catalogues: Catalogue[] = [];
  private entries: CatalogueEntry[] = [];
  private loading: Promise<void> | undefined;
  private wanted = false;
  private generation = 0;
  private routeList: readonly RouteRule[] = [];
  /** The reader's hold on each loaded catalogue, by its id. */
  private readonly reads = new Map<string, ReadCatalogue>();

  constructor(private readonly deps: CatalogueSetDeps) {}

  /** The entries in force; loaded ones stay when the list is the same, else all are read again (when wanted). */
  setEntries(entries: readonly CatalogueEntry[]): void {
    if (sameEntries(entries, this.entries)) return;
    this.entries = [...entries];
    this.generation++;
    this.loading = undefined;
    this.releaseAll();
    this.catalogues = this.entries.map((entry, index) => ({ id: `catalogue:${index}:${entry.source}`, entry, name: entry.source, state: { kind: 'idle' } }));
    this.routeList = [];
    this.changes.fire();
    if (this.wanted) void this.ready();
  }

  list(): readonly Catalogue[] {
    return this.catalogues;
  }

  /** Whether any catalogue is configured (the tree shows a loading item before the first load). */
  configured(): boolean {
    return this.catalogues.length > 0;
  }

  /** Loads every catalogue not loaded yet; resolves when each is loaded or failed (never rejects). */
  ready(): Promise<void> {
    this.wanted = true;
    this.loading ??= this.loadAll(this.generation);
    return this.loading;
  }

  /** The routes of the loaded catalogues, in the setting's order: the same array until one changes. */
  routes(): readonly RouteRule[] {
    return this.routeList;
  }

  /** The loaded operation a request is, in the first catalogue that documents it. */
  find(method: string, path: string): Documented | undefined {
    for (const catalogue of this.catalogues) {
      if (catalogue.state.kind !== 'loaded') continue;
      const operation = catalogue.state.index.match(method, path);
      if (operation) return { catalogue: catalogue as Documented['catalogue'], operation };
    }
    return undefined;
  }

  /** Where `value` breaks the schema at `pointer` of a loaded catalogue. Rejects when the schema cannot be compiled. */
  check(documented: Documented, pointer: string, value: unknown): Promise<SchemaViolation[]> {
    return this.readOf(documented).then((read) => read.check(pointer, value));
  }

  /** Where a request body's JSON text breaks the schema at `pointer`, each place in the text. */
  checkBody(documented: Documented, pointer: string, text: string): Promise<LocatedViolation[]> {
    return this.readOf(documented).then((read) => read.checkBody(pointer, text));
  }

  /** A body to start from for a loaded operation: its example, else a sample of its schema. */
  async exampleBody(documented: Documented): Promise<unknown> {
    const body = documented.operation.body;
    return body ? (await this.readOf(documented)).exampleBody(body) : undefined;
  }

  dispose(): void {
    this.generation++;
    this.releaseAll();
    this.deps.reader.dispose();
    this.changes.dispose();
  }

  private async readOf(documented: Documented): Promise<ReadCatalogue> {
    const read = this.reads.get(documented.catalogue.id);
    if (!read || documented.catalogue !== this.catalogues.find((each) => each.id === documented.catalogue.id)) {
      throw new CatalogueError(l10n.t('{0} is no longer loaded.', documented.catalogue.name));
    }
    return read;
  }

  private releaseAll(): void {
    for (const read of this.reads.values()) read.release();
    this.reads.clear();
  }

  private async loadAll(generation: number): Promise<void> {
    for (const catalogue of this.catalogues) {
      if (generation !== this.generation) return;
      if (catalogue.state.kind !== 'idle') continue;
      catalogue.state = { kind: 'loading' };
      this.changes.fire();
      const { state, read } = await this.load(catalogue);
      if (generation !== this.generation) {
        read?.release();
        return;
      }
      catalogue.state = state;
      if (read) this.reads.set(catalogue.id, read);
      this.routeList = this.catalogues.flatMap((each) => (each.state.kind === 'loaded' ? each.state.routes : []));
      this.changes.fire();
    }
  }

  private async load(catalogue: Catalogue): Promise<{ state: CatalogueState; read?: ReadCatalogue }> {
    const logger = this.deps.logger ?? silentLogger;
    const now = this.deps.now ?? (() => performance.now());
    const started = now();
    try {
      this.deps.reader.warm?.();
      const source = await this.deps.read(catalogue.entry);
      // Indexed as the operations come: no pass over all of them in one go once they are read.
      const index = new OperationIndex([]);
      const read = await this.deps.reader.read(source, (operations) => index.add(operations));
      const document = read.description;
      for (const note of document.notes) logger.warn(`Catalogue ${catalogue.name}: ${note.where ? `${note.where}: ` : ''}${note.message}`);
      logger.info(`Catalogue ${catalogue.name}: ${document.title}, ${document.operations.length} operations in ${Math.round(now() - started)} ms`);
      return { state: { kind: 'loaded', document, index, routes: catalogueRoutes(document.operations, catalogue.entry) }, read };
    } catch (error) {
      const failure = isCatalogueError(error) ? error : new CatalogueError(l10n.t('{0} could not be read: {1}', catalogue.name, error instanceof Error ? error.message : String(error)));
      logger.error(`Catalogue ${catalogue.name}: ${describeFailure(failure)}`);
      return { state: { kind: 'failed', error: failure } };
    }
  }
}

/** The failure in one line: the sentence, then the line and column when known. */
export function describeFailure(error: CatalogueError): string {
  const at = error.where?.line !== undefined ? l10n.t(' (line {0}, column {1})', error.where.line, error.where.column ?? 1) : '';
  return `${error.message}${at}`;
}
