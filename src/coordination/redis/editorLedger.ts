import type { SharedLedgerFactory, SharedLedgerParts } from '../../api';
import type { RateLedger } from '../../api/rateLedger';
import { StartingLedger } from '../../api/startingLedger';
import { createLedger } from './createLedger';
import { LedgerError } from './ledgerErrors';
import { ledgerFromUrl } from './ledgerUrl';

/**
 * The editor's ledger when tenantApi.ledger.url is set: Redis, with the local broker's ledger (made at
 * once: it also relays refreshed sessions between windows) as the fallback when Redis cannot be
 * reached at start. A URL the setting may not hold (a password) is said to the user, and the local
 * ledger is used.
 */
export function redisLedgerFactory(
  url: string,
  application: () => { authUrl: string; clientId: string },
  local: SharedLedgerFactory,
  tellUser: (message: string) => void,
): SharedLedgerFactory {
  return (parts) => new DeferredLedger(local(parts), (fallback) => start(url, application(), parts, fallback, tellUser));
}

async function start(
  url: string,
  application: { authUrl: string; clientId: string },
  parts: SharedLedgerParts,
  local: RateLedger,
  tellUser: (message: string) => void,
): Promise<RateLedger> {
  try {
    return await createLedger({ endpoint: ledgerFromUrl(url, 'setting'), fallback: 'local', application, ...parts, local: () => local });
  } catch (error) {
    const message = error instanceof LedgerError ? error.message : String(error);
    parts.logger.warn(`Rate-limit ledger: ${message}`);
    if (error instanceof LedgerError) tellUser(message);
    return local;
  }
}

/** A ledger that is Redis once connected; calls asked for before then wait for it. */
class DeferredLedger extends StartingLedger {
  constructor(
    local: RateLedger,
    private readonly open: (local: RateLedger) => Promise<RateLedger>,
  ) {
    super(local);
    void this.ready();
  }

  protected start(): Promise<RateLedger> {
    return this.open(this.meanwhile);
  }
}
