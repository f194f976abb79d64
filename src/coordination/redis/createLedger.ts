import type { RateLimit } from '../../api/limits';
import type { QuotaTracker } from '../../api/quotaTracker';
import type { RateLedger } from '../../api/rateLedger';
import { systemClock, type Clock } from '../../common/clock';
import * as l10n from '../../common/l10n';
import type { Logger } from '../../common/logger';
import { DEFAULT_EXPECTED_PROCESSES } from './fallbackShare';
import { LedgerError } from './ledgerErrors';
import { ledgerKeys } from './ledgerKeys';
import { ledgerFromUrl, type LedgerEndpoint } from './ledgerUrl';
import { connectOrFail, openConnection } from './redisConnection';
import { RedisRateLedger } from './redisRateLedger';

/** 'fail': Redis unreachable at start is an error (LedgerError 'unreachable'); 'local': a warning and the local ledger. */
export type LedgerFallback = 'fail' | 'local';

export interface CreateLedgerOptions {
  /**
   * Where Redis is: a URL from a command-line flag or a setting (redis:// or rediss://, no user name
   * or password in it: the password comes from TENANT_API_LEDGER_PASSWORD), or `endpoint`.
   */
  url?: string;
  /** Instead of `url`: from ledgerFromEnvironment() (TENANT_API_LEDGER, whose userinfo may carry the password) or ledgerFromUrl(). */
  endpoint?: LedgerEndpoint;
  fallback: LedgerFallback;
  /** The application whose limits are shared (its identity is hashed into the keys). */
  application: { authUrl: string; clientId: string };
  limits: readonly RateLimit[];
  safetyMarginMs: () => number;
  logger: Logger;
  /** The ledger to use when Redis cannot be reached at start and `fallback` is 'local' (the local broker, or a scheduler's own log). */
  local: () => RateLedger;
  /** Quota readings, stops and resumes to share with the other processes. */
  quota?: QuotaTracker;
  /** Processes sharing the application, for each one's share of the limits while Redis is lost. Default 3. */
  expectedProcesses?: number;
  /** Default 2000. */
  connectTimeoutMs?: number;
  /** Default 1000: a command without an answer by then has failed (the call is not acquired). */
  commandTimeoutMs?: number;
  /** A call's lease in Redis, renewed while it is in flight. Default 15 s. */
  leaseMs?: number;
  clock?: Clock;
}

/**
 * The rate-limit ledger of one application in Redis (RedisRateLedger), connected and ready; or, when
 * Redis cannot be reached, a LedgerError ('fail') or the local ledger with a warning ('local').
 * Dispose it at the end: its connections keep a process alive.
 */
export async function createLedger(options: CreateLedgerOptions): Promise<RateLedger> {
  const { logger } = options;
  // A URL that is not one is a mistake to correct, whatever the fallback (LedgerError 'badUrl' or 'passwordInSetting').
  const endpoint = options.endpoint ?? ledgerFromUrl(options.url ?? '', 'flag');
  const times = { connectTimeoutMs: options.connectTimeoutMs ?? 2000, commandTimeoutMs: options.commandTimeoutMs ?? 1000 };
  const connection = openConnection(endpoint, times);
  const subscriber = openConnection(endpoint, times);
  try {
    await connectOrFail(connection, endpoint, times.connectTimeoutMs);
    await connectOrFail(subscriber, endpoint, times.connectTimeoutMs);
  } catch (error) {
    connection.disconnect();
    subscriber.disconnect();
    if (options.fallback === 'fail' || !(error instanceof LedgerError)) throw error;
    logger.warn(l10n.t('{0} Going on with the local ledger.', error.message));
    return options.local();
  }
  const ledger = new RedisRateLedger({
    connection,
    subscriber,
    keys: ledgerKeys(options.application.authUrl, options.application.clientId, options.limits),
    clock: options.clock ?? systemClock,
    limits: options.limits,
    safetyMarginMs: options.safetyMarginMs,
    logger,
    quota: options.quota,
    expectedProcesses: options.expectedProcesses ?? DEFAULT_EXPECTED_PROCESSES,
    leaseMs: options.leaseMs,
  });
  try {
    await ledger.start();
  } catch (error) {
    ledger.dispose();
    throw error;
  }
  logger.info(`Rate-limit ledger: shared through Redis at ${endpoint.display}`);
  return ledger;
}
