import { apiErrors } from './errors';
import type { RateLedger, SlotAsk, Withdraw } from './rateLedger';
import { Emitter, type Disposable } from '../common/event';

interface EarlyAsk {
  ask: SlotAsk;
  withdraw?: Withdraw;
  withdrawn: boolean;
}

/**
 * A ledger that is another once that one has started (joined the other windows, connected to Redis):
 * asks made before then wait, in order, and go to it; a pause and the readings go to `meanwhile`
 * until then (the ledger this process falls back on, which `start` may also resolve with).
 * Disposing it disposes both.
 */
export abstract class StartingLedger implements RateLedger {
  private current: RateLedger | undefined;
  private started: Promise<RateLedger> | undefined;
  private readonly early: EarlyAsk[] = [];
  private readonly changes = new Emitter<void>();
  readonly onDidChange = this.changes.event;
  protected readonly subscriptions: Disposable[] = [];
  protected disposed = false;

  constructor(protected readonly meanwhile: RateLedger) {
    this.subscriptions.push(meanwhile.onDidChange(() => this.changes.fire()));
  }

  /** The other ledger, started; or `meanwhile` when it cannot start (it never rejects). */
  protected abstract start(): Promise<RateLedger>;

  /** The ledger in use: `meanwhile` until the other one has started. */
  private get inUse(): RateLedger {
    return this.current ?? this.meanwhile;
  }

  get pausedUntil(): number | undefined {
    return this.inUse.pausedUntil;
  }

  /** Starts the other ledger (once); resolves with the one in use from then on. */
  ready(): Promise<RateLedger> {
    this.started ??= this.start().then((ledger) => this.use(ledger), () => this.use(this.meanwhile));
    return this.started;
  }

  ask(ask: SlotAsk): Withdraw {
    if (this.current) return this.current.ask(ask);
    const early: EarlyAsk = { ask, withdrawn: false };
    this.early.push(early);
    void this.ready();
    return () => {
      early.withdrawn = true;
      early.withdraw?.();
      const index = this.early.indexOf(early);
      if (index >= 0) this.early.splice(index, 1);
    };
  }

  pause(ms: number): void {
    this.inUse.pause(ms);
  }

  roundTripFloor(origin: string): number | undefined {
    return this.inUse.roundTripFloor(origin);
  }

  logTimes(): number[] {
    return this.inUse.logTimes();
  }

  dispose(): void {
    this.disposed = true;
    for (const early of this.early.splice(0)) early.ask.refused(apiErrors.cancelled());
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
    if (this.current && this.current !== this.meanwhile) this.current.dispose();
    this.meanwhile.dispose();
    this.changes.dispose();
  }

  private use(ledger: RateLedger): RateLedger {
    if (this.disposed) {
      if (ledger !== this.meanwhile) ledger.dispose();
      return ledger;
    }
    this.current = ledger;
    if (ledger !== this.meanwhile) {
      this.subscriptions.push(ledger.onDidChange(() => this.changes.fire()));
      this.changes.fire();
    }
    // In the order asked; an ask withdrawn meanwhile has left the list.
    for (const early of this.early.splice(0)) if (!early.withdrawn) early.withdraw = ledger.ask(early.ask);
    return ledger;
  }
}
