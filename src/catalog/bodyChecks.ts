/**
 * The request files' body check, for diagnostics that are worked out in one synchronous pass while
 * the catalogue's reader answers asynchronously (from its worker): an answer already given is
 * returned; one not known yet is asked for, and `settled()` says when the asked ones are in, so the
 * pass runs again with them. Answers are kept per loaded catalogue, the most recent few hundred.
 */
import type { Catalogue, CatalogueSet } from './catalogues';
import type { LocatedViolation } from './types';

type Answer = { operation: string; violations: readonly LocatedViolation[] } | undefined;

const KEPT = 300;
/** An answer asked for and not in yet: asked once. */
const ASKING = Symbol('asking');

export class BodyChecks {
  private readonly answers = new WeakMap<Catalogue, Map<string, Answer | typeof ASKING>>();
  private readonly asked = new Set<Promise<void>>();

  constructor(private readonly catalogues: Pick<CatalogueSet, 'find' | 'checkBody'>) {}

  /** DiagnosticContext.bodyCheck: the answer when known; undefined while it is asked. */
  readonly lookup = (method: string, url: string, bodyText: string): Answer => {
    if (!url.startsWith('/')) return undefined;
    const found = this.catalogues.find(method, url.split('?')[0]);
    const pointer = found?.operation.body?.json ? found.operation.body.schemaPointer : undefined;
    if (!found || !pointer) return undefined;
    const answers = this.answers.get(found.catalogue) ?? new Map<string, Answer | typeof ASKING>();
    this.answers.set(found.catalogue, answers);
    const key = `${found.operation.key}\n${pointer}\n${bodyText}`;
    if (answers.has(key)) {
      const known = answers.get(key);
      return known === ASKING ? undefined : known;
    }
    answers.set(key, ASKING);
    const keep = (answer: Answer) => {
      answers.delete(key);
      answers.set(key, answer);
      if (answers.size > KEPT) answers.delete(answers.keys().next().value as string);
    };
    const asking: Promise<void> = this.catalogues.checkBody(found, pointer, bodyText).then(
      (violations) => keep({ operation: found.operation.key, violations }),
      // A schema that cannot be compiled (or a catalogue gone meanwhile) warns of nothing.
      () => keep(undefined),
    );
    const tracked = asking.finally(() => this.asked.delete(tracked));
    this.asked.add(tracked);
    return undefined;
  };

  /** Waits for the answers asked so far; whether there were any (then the pass is worth running again). */
  async settled(): Promise<boolean> {
    if (this.asked.size === 0) return false;
    await Promise.all([...this.asked]);
    return true;
  }
}
