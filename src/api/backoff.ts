import type { Clock } from '../common/clock';

export interface BackoffOptions {
  clock: Clock;
  /** First wait, doubled each retry, at most 8 s. */
  baseMs: number;
  random: () => number;
  signal?: AbortSignal;
  /** The error to reject with when the wait is cancelled. */
  cancelled: () => unknown;
}

/** Waits before retry number `retry` (1-based): exponential, with jitter between half and all of it. */
export function backoff(retry: number, options: BackoffOptions): Promise<void> {
  const { clock, signal } = options;
  const delay = Math.min(options.baseMs * 2 ** (retry - 1), 8000) * (0.5 + options.random() / 2);
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(options.cancelled());
    const onAbort = () => {
      clock.clearTimeout(timer);
      reject(options.cancelled());
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, delay);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
