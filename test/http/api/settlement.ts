import * as v8 from 'node:v8';
import * as vm from 'node:vm';

/** A forced full garbage collection (node --expose-gc, or the flag set at run time). */
export function forceGc(): void {
  let gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc') as () => void;
  }
  gc();
  gc();
}

export interface Settlement {
  settled: boolean;
  error?: unknown;
  /** ms from `since` to the settlement. */
  afterMs: number;
}

/** How `promise` ends within `limitMs` (settled false when it is still pending then). */
export function settlement(promise: Promise<unknown>, limitMs: number, since = performance.now()): Promise<Settlement> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ settled: false, afterMs: performance.now() - since }), limitMs);
    promise.then(
      () => resolve({ settled: true, afterMs: performance.now() - since }),
      (error: unknown) => resolve({ settled: true, error, afterMs: performance.now() - since }),
    ).finally(() => clearTimeout(timer));
  });
}
