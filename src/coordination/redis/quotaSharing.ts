import type { OrganizationQuotaState, QuotaTracker } from '../../api/quotaTracker';
import type { Disposable } from '../../common/event';
import type { Logger } from '../../common/logger';
import { organizationId, type LedgerKeys } from './ledgerKeys';
import { runScript, SCRIPTS, type ScriptConnection } from './ledgerScripts';

/** A week and a day: a quota reading is about the current week. */
const QUOTA_TTL_MS = 8 * 24 * 3600_000;

const isCount = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** A state read from Redis is used only when it has the shape QuotaTracker.state() gives. */
function parseState(json: string | null): OrganizationQuotaState | undefined {
  if (!json) return undefined;
  try {
    const state = JSON.parse(json) as OrganizationQuotaState;
    const reading = state.reading;
    const readingOk =
      reading === undefined ||
      (reading.organization === state.organization && isCount(reading.used) && isCount(reading.limit) && isCount(reading.seenAt));
    return typeof state.organization === 'string' && typeof state.stopped === 'boolean' && typeof state.resumed === 'boolean' && readingOk ? state : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The quota states (readings, weekly stops, resumes) of an application's organizations, shared through
 * Redis: a hash per organization holding the last state written and its order; every process keeps the
 * state with the highest order it has seen. A state this process adopted or wrote is not written again,
 * so two processes never echo one state back and forth.
 */
export class QuotaSharing implements Disposable {
  private readonly orders = new Map<string, number>();
  private readonly written = new Map<string, string>();
  private applying = false;
  private readonly subscription: Disposable;

  constructor(
    private readonly connection: ScriptConnection & { smembers(key: string): Promise<string[]>; hmget(key: string, ...fields: string[]): Promise<Array<string | null>> },
    private readonly keys: LedgerKeys,
    private readonly quota: QuotaTracker,
    private readonly channel: string,
    private readonly online: () => boolean,
    private readonly logger: Logger,
  ) {
    this.subscription = quota.onDidChange(({ organization }) => {
      if (!this.applying) void this.share(quota.state(organization));
    });
  }

  /** Adopts every state the other processes shared, then shares this process's own. */
  async start(): Promise<void> {
    for (const id of await this.connection.smembers(this.keys.quotas)) await this.fetch(id);
    for (const state of this.quota.states()) await this.share(state);
  }

  /** Another process wrote the state of organization `id` (an event on the channel). */
  async fetch(id: string): Promise<void> {
    const [json, order] = await this.connection.hmget(this.keys.quota(id), 'state', 'order');
    const state = parseState(json);
    const n = Number(order);
    if (!state || organizationId(state.organization) !== id || !(n > (this.orders.get(id) ?? 0))) return;
    this.orders.set(id, n);
    this.written.set(state.organization, JSON.stringify(state));
    this.applying = true;
    try {
      this.quota.adopt(state);
    } finally {
      this.applying = false;
    }
  }

  private async share(state: OrganizationQuotaState): Promise<void> {
    const json = JSON.stringify(state);
    if (!this.online() || this.written.get(state.organization) === json) return;
    this.written.set(state.organization, json);
    const id = organizationId(state.organization);
    const keys = [this.keys.quota(id), this.keys.quotas, this.keys.quotaOrder];
    try {
      const order = Number(await runScript(this.connection, SCRIPTS.shareQuota, keys, [json, QUOTA_TTL_MS, this.channel, id]));
      this.orders.set(id, Math.max(order, this.orders.get(id) ?? 0));
    } catch (error) {
      this.written.delete(state.organization);
      this.logger.debug(`Rate-limit ledger (Redis): a quota state was not shared (${String(error)})`);
    }
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
