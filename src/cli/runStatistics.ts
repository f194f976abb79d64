/**
 * What the client did for a run, counted where it happens: every call on the wire and every 429 answer
 * (at the fetch the client sends through), each wait for a rate-limit slot and how long it lasted (from
 * the queue positions a call reports), the retries (from the attempts of the answers). Calls are made
 * one at a time, so one wait is open at most. Pure but for the clock it is given.
 */
import type { FetchFunction } from '../api/httpTransport';
import type { RunStatistics } from './report';

export class StatisticsCounter {
  readonly statistics: RunStatistics = { calls: 0, retries: 0, rateLimitWaits: 0, rateLimitWaitMs: 0, answers429: 0 };
  private waitingSince: number | undefined;

  constructor(private readonly now: () => number) {}

  /** The fetch to hand the client: counts each call and each 429. */
  counting(fetch: FetchFunction): FetchFunction {
    return async (input, init) => {
      this.statistics.calls++;
      const response = await fetch(input, init);
      if (response.status === 429) this.statistics.answers429++;
      return response;
    };
  }

  /** A call's place in the rate-limit queue: 1 or more while it waits, 0 when it leaves. */
  queuePosition(position: number): void {
    if (position > 0 && this.waitingSince === undefined) {
      this.statistics.rateLimitWaits++;
      this.waitingSince = this.now();
    } else if (position === 0 && this.waitingSince !== undefined) {
      this.statistics.rateLimitWaitMs += Math.round(this.now() - this.waitingSince);
      this.waitingSince = undefined;
    }
  }

  /** Attempts beyond the first of one answer. */
  attempts(attempts: number): void {
    this.statistics.retries += Math.max(0, attempts - 1);
  }
}
