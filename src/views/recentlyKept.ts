/**
 * How many documents (responses and Send All summaries) stay available to reopen; older ones are
 * dropped (their tabs show a notice). Enough for the links of a Send All summary of 50 requests.
 */
export const KEPT_RESPONSES = 50;

/**
 * The documents the response tabs keep in memory: at most `limit`, the one set longest ago dropped
 * first (its tab then shows a notice). No `vscode` here.
 */
export class RecentlyKept<V> {
  private readonly items = new Map<string, V>();

  constructor(readonly limit: number) {}

  get(key: string): V | undefined {
    return this.items.get(key);
  }

  /** Keeps `value` as the newest; drops the oldest beyond the limit. */
  set(key: string, value: V): void {
    // Re-inserted, so the oldest is the one sent longest ago.
    this.items.delete(key);
    this.items.set(key, value);
    while (this.items.size > this.limit) this.items.delete(this.items.keys().next().value as string);
  }

  get size(): number {
    return this.items.size;
  }

  clear(): void {
    this.items.clear();
  }
}
