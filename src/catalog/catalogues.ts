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
import type { CatalogueLibrary } from './lazyLibrary';
import { OperationIndex } from './matching';
import { catalogueRoutes } from './routes';
import type { DescriptionSource } from './sources';
import { CatalogueError, isCatalogueError, type CatalogueDocument, type CatalogueEntry, type CatalogueOperation, type SchemaViolation } from './types';

export type CatalogueState =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'loaded'; document: CatalogueDocument; index: OperationIndex; routes: RouteRule[] }
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
  library(): Promise<CatalogueLibrary>;
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
  private library: CatalogueLibrary | undefined;
  private readonly checkers = new Map<string, InstanceType<CatalogueLibrary['SchemaChecker']>>();

  constructor(private readonly deps: CatalogueSetDeps) {}

  /** The entries in force; loaded ones stay when the list is the same, else all are read again (when wanted). */
  setEntries(entries: readonly CatalogueEntry[]): void {
    if (sameEntries(entries, this.entries)) return;
    this.entries = [...entries];
    this.generation++;
    this.loading = undefined;
    this.checkers.clear();
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

  /** Where `value` breaks the schema at `pointer` of a loaded catalogue. Throws when the schema cannot be compiled. */
  check(documented: Documented, pointer: string, value: unknown): SchemaViolation[] {
    let checker = this.checkers.get(documented.catalogue.id);
    if (!checker) {
      const { document } = documented.catalogue.state;
      checker = new this.library!.SchemaChecker(document.document, document.version);
      this.checkers.set(documented.catalogue.id, checker);
    }
    return checker.check(pointer, value);
  }

  /** A body to start from for a loaded operation: its example, else a sample of its schema. */
  exampleBody(documented: Documented): unknown {
    const body = documented.operation.body;
    return body && this.library ? this.library.exampleBody(documented.catalogue.state.document, body) : undefined;
  }

  dispose(): void {
    this.changes.dispose();
  }

  private async loadAll(generation: number): Promise<void> {
    for (const catalogue of this.catalogues) {
      if (generation !== this.generation) return;
      if (catalogue.state.kind !== 'idle') continue;
      catalogue.state = { kind: 'loading' };
      this.changes.fire();
      const state = await this.load(catalogue);
      if (generation !== this.generation) return;
      catalogue.state = state;
      this.routeList = this.catalogues.flatMap((each) => (each.state.kind === 'loaded' ? each.state.routes : []));
      this.changes.fire();
    }
  }

  private async load(catalogue: Catalogue): Promise<CatalogueState> {
    const logger = this.deps.logger ?? silentLogger;
    const now = this.deps.now ?? (() => performance.now());
    const started = now();
    try {
      const [library, source] = await Promise.all([this.deps.library(), this.deps.read(catalogue.entry)]);
      this.library = library;
      const document = await library.readDescription({ text: source.text, file: source.file, name: source.name, readFile: source.readFile });
      for (const note of document.notes) logger.warn(`Catalogue ${catalogue.name}: ${note.where ? `${note.where}: ` : ''}${note.message}`);
      logger.info(`Catalogue ${catalogue.name}: ${document.title}, ${document.operations.length} operations in ${Math.round(now() - started)} ms`);
      return { kind: 'loaded', document, index: new OperationIndex(document.operations), routes: catalogueRoutes(document.operations, catalogue.entry) };
    } catch (error) {
      const failure = isCatalogueError(error) ? error : new CatalogueError(l10n.t('{0} could not be read: {1}', catalogue.name, error instanceof Error ? error.message : String(error)));
      logger.error(`Catalogue ${catalogue.name}: ${describeFailure(failure)}`);
      return { kind: 'failed', error: failure };
    }
  }
}

/** The failure in one line: the sentence, then the line and column when known. */
export function describeFailure(error: CatalogueError): string {
  const at = error.where?.line !== undefined ? l10n.t(' (line {0}, column {1})', error.where.line, error.where.column ?? 1) : '';
  return `${error.message}${at}`;
}
