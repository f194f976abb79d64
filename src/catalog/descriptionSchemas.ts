/**
 * The questions asked of a read description's schemas: does an answer match, where does a request
 * body break its schema (at its place in the text), what body to start from. The validator is built
 * on the first check.
 */
import { locateViolations } from './bodyPositions';
import { exampleBody } from './samples';
import { SchemaChecker } from './schemaCheck';
import type { CatalogueBody, CatalogueDocument, LocatedViolation, SchemaViolation } from './types';

export class DescriptionSchemas {
  private checker: SchemaChecker | undefined;

  constructor(private readonly document: CatalogueDocument) {}

  /** Where `value` breaks the schema at `pointer`; throws when the schema cannot be compiled. */
  check(pointer: string, value: unknown): SchemaViolation[] {
    this.checker ??= new SchemaChecker(this.document.document, this.document.version);
    return this.checker.check(pointer, value);
  }

  /** The same for a body's JSON text, each violation at its place in the text. */
  checkBody(pointer: string, text: string): LocatedViolation[] {
    const violations = this.check(pointer, JSON.parse(text));
    return violations.length === 0 ? [] : locateViolations(text, violations);
  }

  exampleBody(body: CatalogueBody): unknown {
    return exampleBody(this.document, body);
  }
}
