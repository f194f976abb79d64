// Times two calls interleaved, so that drift in the machine's load affects both alike.

export interface InterleavedTimes {
  /** Single-call times of `a` and `b`, in ms, after the warm-up. */
  a: number[];
  b: number[];
}

/** Runs `a` then `b`, `warmUp` times untimed, then `calls` times timed. */
export async function interleavedTimes(a: () => Promise<unknown>, b: () => Promise<unknown>, warmUp: number, calls: number): Promise<InterleavedTimes> {
  const times: InterleavedTimes = { a: [], b: [] };
  const timed = async (call: () => Promise<unknown>, into?: number[]) => {
    const started = performance.now();
    await call();
    into?.push(performance.now() - started);
  };
  for (let i = 0; i < warmUp; i++) {
    await timed(a);
    await timed(b);
  }
  for (let i = 0; i < calls; i++) {
    await timed(a, times.a);
    await timed(b, times.b);
  }
  return times;
}

export const median = (values: number[]): number => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
export const mean = (values: number[]): number => values.reduce((sum, v) => sum + v, 0) / values.length;
