/** JSON pointers into a description (RFC 6901), and its local `$ref`s followed to what they name. */

export function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointerOf(tokens: readonly string[]): string {
  return tokens.map((token) => `/${escapeToken(token)}`).join('');
}

export function tokensOf(pointer: string): string[] {
  if (pointer === '' || pointer === '#') return [];
  return pointer.replace(/^#/, '').slice(1).split('/').map((token) => decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The parts already looked up in each document: a large one names the same components thousands of times. */
const lookedUp = new WeakMap<object, Map<string, unknown>>();

export function valueAt(document: unknown, pointer: string): unknown {
  const cache = typeof document === 'object' && document !== null ? (lookedUp.get(document) ?? new Map<string, unknown>()) : undefined;
  if (cache?.has(pointer)) return cache.get(pointer);
  const value = walk(document, pointer);
  if (cache) {
    cache.set(pointer, value);
    lookedUp.set(document as object, cache);
  }
  return value;
}

function walk(document: unknown, pointer: string): unknown {
  let current = document;
  for (const token of tokensOf(pointer)) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

/** A part of the description with its pointer: a local `$ref` is followed (a few hops at most, a loop stops). */
export function resolved(document: unknown, value: unknown, pointer: string): { value: unknown; pointer: string } {
  let current = { value, pointer };
  for (let hop = 0; hop < 16; hop++) {
    const ref = (current.value as { $ref?: unknown } | null)?.$ref;
    if (typeof current.value !== 'object' || current.value === null || typeof ref !== 'string' || !ref.startsWith('#')) return current;
    const target = ref.slice(1);
    current = { value: valueAt(document, target), pointer: target };
  }
  return current;
}

/** `/elementi/0/id` -> `$.elementi[0].id`, as assertions write a place in a body. */
export function jsonPathOf(pointer: string): string {
  return tokensOf(pointer).reduce(
    (path, token) => (/^\d+$/.test(token) ? `${path}[${token}]` : /^[A-Za-z_$][\w$]*$/.test(token) ? `${path}.${token}` : `${path}[${JSON.stringify(token)}]`),
    '$',
  );
}
