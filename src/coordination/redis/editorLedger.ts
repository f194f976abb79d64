import type { SharedLedgerFactory, SharedLedgerParts } from '../../api';
import type { RateLedger, Slot } from '../../api/requestScheduler';
import { Emitter, type Disposable } from '../../common/event';
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
  local: RateLedger & Disposable,
  tellUser: (message: string) => void,
): Promise<RateLedger & Disposable> {
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
class DeferredLedger implements RateLedger, Disposable {
  private current: (RateLedger & Disposable) | undefined;
  private readonly ready: Promise<RateLedger & Disposable>;
  private readonly changes = new Emitter<void>();
  readonly onDidChange = this.changes.event;
  private subscription: Disposable | undefined;
  private disposed = false;

  constructor(
    private readonly local: RateLedger & Disposable,
    open: (local: RateLedger & Disposable) => Promise<RateLedger & Disposable>,
  ) {
    this.ready = open(local).then((ledger) => {
      if (this.disposed) {
        if (ledger !== local) ledger.dispose();
        return ledger;
      }
      this.current = ledger;
      this.subscription = ledger.onDidChange(() => this.changes.fire());
      this.changes.fire();
      return ledger;
    });
  }

  get pausedUntil(): number | undefined {
    return (this.current ?? this.local).pausedUntil;
  }

  async acquire(options: { front?: boolean; signal: AbortSignal }): Promise<Slot> {
    return (await this.ready).acquire(options);
  }

  pause(ms: number): void {
    (this.current ?? this.local).pause(ms);
  }

  roundTripFloor(origin: string): number | undefined {
    return (this.current ?? this.local).roundTripFloor(origin);
  }

  logTimes(): number[] {
    return (this.current ?? this.local).logTimes();
  }

  dispose(): void {
    this.disposed = true;
    this.subscription?.dispose();
    if (this.current && this.current !== this.local) this.current.dispose();
    this.local.dispose();
    this.changes.dispose();
  }
}
