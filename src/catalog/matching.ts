/**
 * Which documented operation a request is: its method, and its path against each path template
 * (`/ditte/{id}` matches `/ditte/42` and `/ditte/{{id}}`), the template with the most literal text first.
 */
import type { CatalogueOperation } from './types';

interface Template {
  operation: CatalogueOperation;
  pattern: RegExp;
  literal: number;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function templateOf(operation: CatalogueOperation): Template {
  const parts = operation.path.split(/(\{[^{}/]+\})/);
  const source = parts.map((part) => (/^\{[^{}/]+\}$/.test(part) ? '[^/]+' : escape(part))).join('');
  return { operation, pattern: new RegExp(`^${source}/?$`), literal: parts.filter((part) => !part.startsWith('{')).join('').length };
}

export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{([^{}/]+)\}/g)].map((match) => match[1]);
}

export class OperationIndex {
  private readonly byMethod = new Map<string, Template[]>();
  private sorted = true;

  constructor(operations: readonly CatalogueOperation[]) {
    this.add(operations);
  }

  /** More operations (a reader gives them a few dozen at a time); the lists are sorted when next matched. */
  add(operations: readonly CatalogueOperation[]): void {
    for (const operation of operations) {
      const list = this.byMethod.get(operation.method) ?? [];
      list.push(templateOf(operation));
      this.byMethod.set(operation.method, list);
    }
    if (operations.length > 0) this.sorted = false;
  }

  /** The operation a request line names (query ignored), or undefined. */
  match(method: string, path: string): CatalogueOperation | undefined {
    if (!this.sorted) {
      // Stable: of two templates with as much literal text, the one documented first.
      for (const list of this.byMethod.values()) list.sort((a, b) => b.literal - a.literal);
      this.sorted = true;
    }
    const list = this.byMethod.get(method.toUpperCase());
    if (!list) return undefined;
    // A `{{variable}}` stands for one segment's value.
    const plain = path.split('?')[0].replace(/\{\{[^{}]*\}\}/g, 'x');
    return list.find((template) => template.pattern.test(plain))?.operation;
  }
}
