import { apiErrors } from '../../src/api/errors';
import type { RateLedger, Slot } from '../../src/api/rateLedger';

/** A slot from `ledger` as a promise (what a RequestScheduler's waiting call gets); `signal` withdraws the ask. */
export function takeSlot(ledger: Pick<RateLedger, 'ask'>, options: { front?: boolean; signal?: AbortSignal } = {}): Promise<Slot> {
  if (options.signal?.aborted) return Promise.reject(apiErrors.cancelled());
  return new Promise<Slot>((resolve, reject) => {
    const withdraw = ledger.ask({ front: options.front === true, granted: resolve, refused: reject });
    options.signal?.addEventListener(
      'abort',
      () => {
        withdraw();
        reject(apiErrors.cancelled());
      },
      { once: true },
    );
  });
}
