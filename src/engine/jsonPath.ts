/**
 * The JSONPath subset request variables use (`{{login.response.body.$.items[0].id}}`): the root `$`,
 * member names `.name` and `['name']`, array indexes `[0]` (negative counts from the end), and the
 * wildcard `[*]` / `.*` (which yields every element). Filters, slices and recursive descent are not
 * supported: parseJsonPath says so in a sentence-sized reason instead of guessing.
 */
import * as l10n from '../common/l10n';

export type PathStep = { kind: 'member'; name: string } | { kind: 'index'; index: number } | { kind: 'wildcard' };

export type ParsedPath = { ok: true; steps: PathStep[] } | { ok: false; reason: string };

export function parseJsonPath(path: string): ParsedPath {
  const text = path.trim();
  if (!text.startsWith('$')) return { ok: false, reason: l10n.t('a JSONPath starts with $') };
  const steps: PathStep[] = [];
  let i = 1;
  while (i < text.length) {
    const char = text[i];
    if (char === '.') {
      if (text[i + 1] === '.') return { ok: false, reason: l10n.t('recursive descent (..) is not supported') };
      const match = /^[^.[\]]+/.exec(text.slice(i + 1));
      if (!match) return { ok: false, reason: l10n.t('a name is missing after "." at {0}', i) };
      steps.push(match[0] === '*' ? { kind: 'wildcard' } : { kind: 'member', name: match[0] });
      i += 1 + match[0].length;
    } else if (char === '[') {
      const close = text.indexOf(']', i);
      if (close < 0) return { ok: false, reason: l10n.t('a "[" is not closed') };
      const inner = text.slice(i + 1, close).trim();
      const quoted = /^(['"])(.*)\1$/.exec(inner);
      if (quoted) steps.push({ kind: 'member', name: quoted[2] });
      else if (inner === '*') steps.push({ kind: 'wildcard' });
      else if (/^-?\d+$/.test(inner)) steps.push({ kind: 'index', index: Number(inner) });
      else return { ok: false, reason: l10n.t('[{0}] is not supported (only names, indexes and *)', inner) };
      i = close + 1;
    } else {
      return { ok: false, reason: l10n.t('unexpected "{0}" at {1}', char, i) };
    }
  }
  return { ok: true, steps };
}

/** The values the path selects (none when a step finds nothing). */
export function evaluateJsonPath(value: unknown, steps: readonly PathStep[]): unknown[] {
  let current: unknown[] = [value];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const node of current) {
      if (node === null || typeof node !== 'object') continue;
      if (step.kind === 'wildcard') {
        next.push(...(Array.isArray(node) ? node : Object.values(node)));
      } else if (step.kind === 'index') {
        if (!Array.isArray(node)) continue;
        const index = step.index < 0 ? node.length + step.index : step.index;
        if (index >= 0 && index < node.length) next.push(node[index]);
      } else if (Object.prototype.hasOwnProperty.call(node, step.name)) {
        next.push((node as Record<string, unknown>)[step.name]);
      }
    }
    current = next;
  }
  return current;
}

/** How a selected value is written into a request: strings as they are, anything else as JSON. */
export function valueAsText(values: readonly unknown[]): string | undefined {
  if (values.length === 0) return undefined;
  const value = values.length === 1 ? values[0] : values;
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}
