import type { RateLimit } from '../api/limits';
import { LocalLedger } from '../api/localLedger';
import type { QuotaTracker } from '../api/quotaTracker';
import type { RateLedger } from '../api/rateLedger';
import type { Clock } from '../common/clock';
import { Emitter, type Disposable } from '../common/event';
import type { Logger } from '../common/logger';
import type { QuotaState } from './protocol';
import { applicationKey, openRuntimeDir, type RuntimeDir } from './runtimeDir';
import { SharedRateLedger, type RelayedSession } from './sharedRateLedger';
import { StartingLedger } from '../api/startingLedger';

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
 * window's own log (LocalLedger), which also stands in while the windows are joined. It also keeps the
 * quota tracker in step with the other windows.
 */
export class ApplicationLedger extends StartingLedger {
  private shared: SharedRateLedger | undefined;
  private readonly sessions = new Emitter<RelayedSession>();
  /** Sessions other windows of this application refreshed. */
  readonly onSession = this.sessions.event;
  private applyingRemote = false;

  constructor(private readonly options: ApplicationLedgerOptions) {
    super(new LocalLedger({ clock: options.clock, limits: options.limits, safetyMarginMs: options.safetyMarginMs, logger: options.logger }));
    if (options.register) this.subscriptions.push(options.register(this));
    this.subscriptions.push(
      options.quota.onDidChange(({ organization }) => {
        if (!this.applyingRemote) this.shared?.shareQuota(options.quota.state(organization));
      }),
    );
  }

  /** Whether this window shares the limits with the others (for tests and the log). */
  get sharing(): SharedRateLedger | undefined {
    return this.shared;
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

  override dispose(): void {
    super.dispose();
    this.shared = undefined;
    this.sessions.dispose();
  }

  private adoptQuota(state: QuotaState): void {
    this.applyingRemote = true;
    try {
      this.options.quota.adopt(state);
    } finally {
      this.applyingRemote = false;
    }
  }

  protected async start(): Promise<RateLedger> {
    const { logger, application } = this.options;
    const { authUrl, clientId } = application();
    let shared: SharedRateLedger | undefined;
    try {
      const dir = await (this.options.runtimeDir ?? (() => openRuntimeDir()))();
      shared = new SharedRateLedger({ ...this.options, dir, appKey: applicationKey(authUrl, clientId), quotaStates: () => this.options.quota.states() });
      shared.onQuota((state) => this.adoptQuota(state));
      shared.onSession((relayed) => this.sessions.fire(relayed));
      const started = shared.start();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), START_TIMEOUT_MS)));
      await Promise.race([started, timeout]).finally(() => clearTimeout(timer));
    } catch (error) {
      shared?.dispose();
      logger.warn(`Rate limit: this window cannot share its limits with other windows (${String(error)}); it keeps its own log`);
      return this.meanwhile;
    }
    if (this.disposed) {
      shared.dispose();
      return this.meanwhile;
    }
    this.shared = shared;
    for (const state of this.options.quota.states()) shared.shareQuota(state);
    return shared;
  }
}
