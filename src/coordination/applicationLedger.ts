import type { RateLimit } from '../api/limits';
import type { QuotaTracker } from '../api/quotaTracker';
import { RequestScheduler, type RateLedger, type Slot } from '../api/requestScheduler';
import type { Clock } from '../common/clock';
import { Emitter, type Disposable } from '../common/event';
import type { Logger } from '../common/logger';
import type { QuotaState } from './protocol';
import { applicationKey, openRuntimeDir, type RuntimeDir } from './runtimeDir';
import { SharedRateLedger, type RelayedSession } from './sharedRateLedger';

export interface ApplicationLedgerOptions {
  clock: Clock;
  limits: readonly RateLimit[];
  safetyMarginMs: () => number;
  logger: Logger;
  /** The quota tracker whose readings, stops and resumes every window shares. */
  quota: QuotaTracker;
  /** The application whose ledger this is (one ledger per application: read once). */
  application: () => { authUrl: string; clientId: string };
  /** The user-only directory; default: openRuntimeDir(). */
  runtimeDir?: () => Promise<RuntimeDir>;
  /** Called once with this ledger; what it returns is disposed with it (the window's list of ledgers). */
  register?: (ledger: ApplicationLedger) => Disposable;
}

/** How long joining the other windows may take before this window goes on alone. */
const START_TIMEOUT_MS = 5000;

/**
 * The RateLedger the extension's scheduler uses: the shared ledger of the configured application
 * (SharedRateLedger), or, where windows cannot share (no private directory, no local sockets), this
 * window's own log as before. It also keeps the quota tracker in step with the other windows.
 */
export class ApplicationLedger implements RateLedger, Disposable {
  private readonly local: RequestScheduler;
  /** This window's own log, as a ledger. */
  private readonly alone: RateLedger;
  private started: Promise<RateLedger> | undefined;
  private shared: SharedRateLedger | undefined;
  private readonly changes = new Emitter<void>();
  readonly onDidChange = this.changes.event;
  private readonly sessions = new Emitter<RelayedSession>();
  /** Sessions other windows of this application refreshed. */
  readonly onSession = this.sessions.event;
  private readonly subscriptions: Disposable[] = [];
  private applyingRemote = false;
  private disposed = false;

  constructor(private readonly options: ApplicationLedgerOptions) {
    this.local = new RequestScheduler({
      clock: options.clock,
      limits: options.limits,
      safetyMarginMs: options.safetyMarginMs,
      maxQueueLength: () => Number.MAX_SAFE_INTEGER,
      logger: options.logger,
    });
    const local = this.local;
    this.alone = {
      acquire: (options) => local.acquire(options),
      pause: (ms) => local.pause(ms),
      get pausedUntil() {
        return local.state.pausedUntil;
      },
      onDidChange: (listener) => local.onDidChange(() => listener()),
      roundTripFloor: (origin) => local.roundTripFloor(origin),
      logTimes: () => local.logTimes(),
    };
    if (options.register) this.subscriptions.push(options.register(this));
    this.subscriptions.push(
      this.local.onDidChange(() => this.changes.fire()),
      options.quota.onDidChange(({ organization }) => {
        if (!this.applyingRemote) this.shared?.shareQuota(options.quota.state(organization));
      }),
    );
  }

  get pausedUntil(): number | undefined {
    return this.shared ? this.shared.pausedUntil : this.local.state.pausedUntil;
  }

  /** Whether this window shares the limits with the others (for tests and the log). */
  get sharing(): SharedRateLedger | undefined {
    return this.shared;
  }

  async acquire(options: { front?: boolean; signal: AbortSignal }): Promise<Slot> {
    return (await this.current()).acquire(options);
  }

  pause(ms: number): void {
    (this.shared ?? this.local).pause(ms);
  }

  roundTripFloor(origin: string): number | undefined {
    return (this.shared ?? this.local).roundTripFloor(origin);
  }

  logTimes(): number[] {
    return (this.shared ?? this.local).logTimes();
  }

  /** Hands a session this window refreshed to the other windows; resolves once the broker relayed it. */
  async shareSession(relayed: RelayedSession): Promise<void> {
    await this.ready();
    if (!this.shared) return;
    this.shared.shareSession(relayed);
    await this.shared.sync();
  }

  /** Resolves once the sessions the other windows relayed before now have reached this window (see SharedRateLedger.sync). */
  async syncSessions(): Promise<void> {
    await this.ready();
    await this.shared?.sync();
  }

  /** Resolves once the ledger of the configured application is ready (or this window goes alone). */
  ready(): Promise<RateLedger> {
    return this.current();
  }

  dispose(): void {
    this.disposed = true;
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
    this.shared?.dispose();
    this.shared = undefined;
    this.local.dispose();
    this.changes.dispose();
    this.sessions.dispose();
  }

  private current(): Promise<RateLedger> {
    if (!this.started) {
      const { authUrl, clientId } = this.options.application();
      this.started = this.start(applicationKey(authUrl, clientId));
    }
    return this.started;
  }

  private adoptQuota(state: QuotaState): void {
    this.applyingRemote = true;
    try {
      this.options.quota.adopt(state);
    } finally {
      this.applyingRemote = false;
    }
  }

  private async start(key: string): Promise<RateLedger> {
    const { logger } = this.options;
    let shared: SharedRateLedger | undefined;
    try {
      const dir = await (this.options.runtimeDir ?? (() => openRuntimeDir()))();
      shared = new SharedRateLedger({ ...this.options, dir, appKey: key, quotaStates: () => this.options.quota.states() });
      shared.onDidChange(() => this.changes.fire());
      shared.onQuota((state) => this.adoptQuota(state));
      shared.onSession((relayed) => this.sessions.fire(relayed));
      const started = shared.start();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), START_TIMEOUT_MS)));
      await Promise.race([started, timeout]).finally(() => clearTimeout(timer));
    } catch (error) {
      shared?.dispose();
      logger.warn(`Rate limit: this window cannot share its limits with other windows (${String(error)}); it keeps its own log`);
      return this.alone;
    }
    if (this.disposed) {
      shared.dispose();
      return this.alone;
    }
    this.shared = shared;
    for (const state of this.options.quota.states()) shared.shareQuota(state);
    this.changes.fire();
    return shared;
  }
}
