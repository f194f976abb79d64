import type { RateLimit } from '../api/limits';
import { LocalLedger } from '../api/localLedger';
import type { QuotaTracker } from '../api/quotaTracker';
import type { RateLedger } from '../api/rateLedger';
import type { Clock } from '../common/clock';
import { Emitter, type Disposable } from '../common/event';
import type { Logger } from '../common/logger';
import type { QuotaState } from './protocol';
import { applicationKey, openRuntimeDir, type RuntimeDir } from './runtimeDir';
import type { RelayedSession } from './sessionChannel';
import { WindowChannel } from './windowChannel';
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
 * The RateLedger the extension's scheduler uses: the rate part of the configured application's channel
 * to the other windows (WindowChannel), or, where windows cannot share (no private directory, no local
 * sockets), this window's own log (LocalLedger), which also stands in while the windows are joined.
 * Through the same channel it keeps the quota tracker in step with the other windows and relays
 * refreshed sessions.
 */
export class ApplicationLedger extends StartingLedger {
  private channel: WindowChannel | undefined;
  private readonly sessions = new Emitter<RelayedSession>();
  /** Sessions other windows of this application refreshed. */
  readonly onSession = this.sessions.event;
  private applyingRemote = false;

  constructor(private readonly options: ApplicationLedgerOptions) {
    super(new LocalLedger({ clock: options.clock, limits: options.limits, safetyMarginMs: options.safetyMarginMs, logger: options.logger }));
    if (options.register) this.subscriptions.push(options.register(this));
    this.subscriptions.push(
      options.quota.onDidChange(({ organization }) => {
        if (!this.applyingRemote) this.channel?.quota.share(options.quota.state(organization));
      }),
    );
  }

  /** The channel to the other windows, once joined: undefined while alone (for tests and the log). */
  get sharing(): WindowChannel | undefined {
    return this.channel;
  }

  /** Hands a session this window refreshed to the other windows; resolves once the broker relayed it. */
  async shareSession(relayed: RelayedSession): Promise<void> {
    await this.ready();
    if (!this.channel) return;
    this.channel.sessions.publish(relayed);
    await this.channel.sessions.sync();
  }

  /** Resolves once the sessions the other windows relayed before now have reached this window (see SessionChannel.sync). */
  async syncSessions(): Promise<void> {
    await this.ready();
    await this.channel?.sessions.sync();
  }

  override dispose(): void {
    super.dispose();
    this.channel?.dispose();
    this.channel = undefined;
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
    let channel: WindowChannel | undefined;
    try {
      const dir = await (this.options.runtimeDir ?? (() => openRuntimeDir()))();
      channel = new WindowChannel({ ...this.options, dir, appKey: applicationKey(authUrl, clientId), quotaStates: () => this.options.quota.states() });
      channel.quota.onQuota((state) => this.adoptQuota(state));
      channel.sessions.onSession((relayed) => this.sessions.fire(relayed));
      const started = channel.start();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), START_TIMEOUT_MS)));
      await Promise.race([started, timeout]).finally(() => clearTimeout(timer));
    } catch (error) {
      channel?.dispose();
      logger.warn(`Rate limit: this window cannot share its limits with other windows (${String(error)}); it keeps its own log`);
      return this.meanwhile;
    }
    if (this.disposed) {
      channel.dispose();
      return this.meanwhile;
    }
    this.channel = channel;
    for (const state of this.options.quota.states()) channel.quota.share(state);
    return channel.rate;
  }
}
