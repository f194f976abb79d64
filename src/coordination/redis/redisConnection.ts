import Redis from 'ioredis';
import { ledgerErrors } from './ledgerErrors';
import type { LedgerEndpoint } from './ledgerUrl';

/** The last error each connection reported (connect() itself only says the connection closed). */
const lastErrors = new WeakMap<Redis, unknown>();

export interface ConnectionTimes {
  /** How long connecting may take before Redis is taken for unreachable. */
  connectTimeoutMs: number;
  /** How long a command may take: past it the command has failed ("not acquired") and Redis is taken for lost. */
  commandTimeoutMs: number;
}

/**
 * A connection that never queues or resends a command: a command sent while Redis is away fails at
 * once, and one in flight when the connection drops fails too, so a grant is only ever taken from
 * a reply (nothing is acquired twice). ioredis keeps reconnecting in the background.
 */
export function openConnection(endpoint: LedgerEndpoint, times: ConnectionTimes): Redis {
  const client = new Redis(endpoint.url, {
    ...(endpoint.password ? { password: endpoint.password } : {}),
    ...(endpoint.tls && endpoint.url.startsWith('rediss:') ? { tls: endpoint.tls } : {}),
    lazyConnect: true,
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    connectTimeout: times.connectTimeoutMs,
    commandTimeout: times.commandTimeoutMs,
    retryStrategy: (attempt) => Math.min(100 * attempt, 1000),
    // A subscriber's channels are subscribed again after a reconnection.
    autoResubscribe: true,
  });
  // Errors are handled where commands fail and through 'close'; without a listener ioredis prints them.
  // The last one is kept: a refused certificate ends connect() with only "Connection is closed."
  client.on('error', (error) => lastErrors.set(client, error));
  return client;
}

/** Connects, or throws the clear "cannot be reached" error (and stops the client's reconnecting). */
export async function connectOrFail(client: Redis, endpoint: LedgerEndpoint, timeoutMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      client.connect(),
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs))),
    ]);
  } catch (error) {
    client.disconnect();
    throw ledgerErrors.unreachable(endpoint.display, reasonOf(lastErrors.get(client) ?? error));
  } finally {
    clearTimeout(timer);
  }
}

/** The cause in a few words with its code (a certificate's says which check failed), without the URL (which may carry a password). */
export function reasonOf(error: unknown): string {
  const text = String((error as Error)?.message ?? error);
  const code = (error as { code?: unknown })?.code;
  const withCode = typeof code === 'string' && !text.includes(code) ? `${text}, ${code}` : text;
  return withCode.replace(/rediss?:\/\/\S+/g, '<url>').slice(0, 200);
}
