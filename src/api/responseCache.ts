/**
 * The answers of static resources (spec: aggregated data and dashboards may be cached), in memory only,
 * per environment, tenant, licence organization, method and path with its query. A route rule's
 * `cacheSeconds` says a resource is static and for how long an answer stays good. An error answer is
 * never kept. No `vscode` here.
 */
import type { ApiResponse, RouteRule } from './types';

/** What makes two calls the same for the cache. */
export interface CacheKeyParts {
  environment: string;
  /** The tenant the call selects (User-Tenant), none for a base-URL resource. */
  tenantId?: string;
  /** The organization of the licence key the call carries (whose data a base-URL resource holds). */
  organization?: string;
  method: string;
  /** The path with its query, as sent. */
  pathAndQuery: string;
}

/** Only a GET is cached; undefined for any other method. Query parameters count in order-independent form. */
export function cacheKey(parts: CacheKeyParts): string | undefined {
  if (parts.method.toUpperCase() !== 'GET') return undefined;
  const [path, query = ''] = parts.pathAndQuery.split(/\?(.*)/s);
  const params = new URLSearchParams(query);
  params.sort();
  const sortedQuery = params.toString();
  return JSON.stringify([parts.environment, parts.tenantId ?? '', parts.organization ?? '', 'GET', sortedQuery ? `${path}?${sortedQuery}` : path]);
}

/** A rule's lifetime in ms: a positive `cacheSeconds` marks it static; undefined otherwise. */
export function cacheLifetimeMs(rule: RouteRule | undefined): number | undefined {
  const seconds = rule?.cacheSeconds;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

/** Which answers may be kept: a 2xx; never an error answer (4xx, 5xx) or a redirect that was not followed. */
export function cacheable(response: Pick<ApiResponse, 'status'>): boolean {
  return response.status >= 200 && response.status < 300;
}

interface Entry {
  response: ApiResponse;
  storedAt: number;
  expiresAt: number;
}

export interface CachedAnswer {
  response: ApiResponse;
  /** Wall-clock ms when the answer came. */
  storedAt: number;
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();

  /** The kept answer while its lifetime lasts; an expired one is dropped. */
  get(key: string, now: number): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // A clock set back before the answer came cannot make it younger than it is: it expires.
    if (now >= entry.expiresAt || now < entry.storedAt) {
      this.entries.delete(key);
      return undefined;
    }
    return { response: entry.response, storedAt: entry.storedAt };
  }

  /** Keeps a successful answer for `lifetimeMs`; an error answer is not kept and removes an older one. */
  put(key: string, response: ApiResponse, lifetimeMs: number, now: number): void {
    if (!cacheable(response) || !(lifetimeMs > 0)) {
      this.entries.delete(key);
      return;
    }
    this.entries.set(key, { response, storedAt: now, expiresAt: now + lifetimeMs });
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}
