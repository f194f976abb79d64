import { createHash } from 'node:crypto';
import type { RateLimit } from '../../api/limits';

/**
 * The names of one application's keys in Redis. The application is known only by a hash of its
 * authUrl and client id (nothing that signs in is stored): its keys share one hash tag, so that one
 * script may touch them all on a Redis Cluster too.
 */
export interface LedgerKeys {
  /** Calls granted and not ended: member = call id, score = when its lease ends (server ms). */
  flight: string;
  /** Until when (server ms) a 429 pauses every process. */
  pause: string;
  /** One sliding log per limit (ended calls: member = call id, score = when counted, server ms), in the order of the limits. */
  logs: string[];
  /** The organizations whose quota state is shared (their hash ids). */
  quotas: string;
  /** Gives every quota write its order. */
  quotaOrder: string;
  quota(organizationId: string): string;
  /** Pub/sub channel: 'done', 'pause', 'quota:<organization id>'. */
  events: string;
}

const PREFIX = 'tenant-api:ledger:v1';

/** The application's identity, hashed: the authUrl without its trailing slashes (origin + path) and the client id. */
export function applicationHash(authUrl: string, clientId: string): string {
  let normalized = authUrl.trim().replace(/\/+$/, '');
  try {
    const url = new URL(normalized);
    normalized = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    normalized = normalized.toLowerCase();
  }
  return createHash('sha256').update(`${normalized}\n${clientId.trim()}`).digest('hex').slice(0, 32);
}

/** An organization's name, hashed for its key (names are not secret, but keys stay short and plain). */
export const organizationId = (organization: string) => createHash('sha256').update(organization).digest('hex').slice(0, 16);

export function ledgerKeys(authUrl: string, clientId: string, limits: readonly RateLimit[]): LedgerKeys {
  const base = `${PREFIX}:{${applicationHash(authUrl, clientId)}}`;
  return {
    flight: `${base}:flight`,
    pause: `${base}:pause`,
    logs: limits.map((limit) => `${base}:log:${limit.windowMs}`),
    quotas: `${base}:quotas`,
    quotaOrder: `${base}:quota-order`,
    quota: (id) => `${base}:quota:${id}`,
    events: `${base}:events`,
  };
}
