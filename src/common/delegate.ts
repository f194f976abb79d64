/**
 * An object that forwards every property read to whatever `current()` returns at that moment, with
 * methods bound to it: what the extension exports for the active environment's parts, which are
 * replaced when the environment changes (a caller may keep the exported object).
 */
export function delegateTo<T extends object>(current: () => T): T {
  return new Proxy({} as T, {
    get: (_target, property) => {
      const target = current();
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    has: (_target, property) => property in current(),
  });
}
