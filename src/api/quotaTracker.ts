import { Emitter } from '../common/event';
import type { QuotaChangeEvent, QuotaReading, QuotaView } from './types';
import { UsageHistory, type UsageSample } from './usageHistory';

/** Everything the tracker knows of one organization: what another window needs to show the same. */
export interface OrganizationQuotaState {
  organization: string;
  reading?: QuotaReading;
  stopped: boolean;
  resumed: boolean;
}

/**
 * Latest weekly usage per organization (the organization of the licence key a call carried: keys of
 * the same organization share one quota). Calls without a licence key (the tenant listing) cannot be
 * tied to an organization, so their readings stay on the response and are not recorded here.
 */
export class QuotaTracker implements QuotaView {
  private readonly latest = new Map<string, QuotaReading>();
  private readonly stopped = new Set<string>();
  /** Resumed by the user: a reading at the limit does not refuse calls until the next reading. */
  private readonly resumed = new Set<string>();
  private readonly history = new UsageHistory();
  private readonly changes = new Emitter<QuotaChangeEvent>();
  readonly onDidChange = this.changes.event;

  readings(): QuotaReading[] {
    return [...this.latest.values()];
  }

  reading(organization: string): QuotaReading | undefined {
    return this.latest.get(organization);
  }

  usageSamples(organization: string): readonly UsageSample[] {
    return this.history.samples(organization);
  }

  /** Stopped after a weekly 429, until resume() or a reading below the limit. */
  isBlocked(organization: string): boolean {
    return this.stopped.has(organization);
  }

  /** Why a call for this organization should not be sent now, or undefined. */
  refusal(organization: string): { reason: 'stopped' | 'reached'; reading?: QuotaReading } | undefined {
    const reading = this.latest.get(organization);
    if (this.stopped.has(organization)) return { reason: 'stopped', reading };
    if (reading && !this.resumed.has(organization) && reading.limit > 0 && reading.used >= reading.limit) return { reason: 'reached', reading };
    return undefined;
  }

  /** Organizations whose calls are refused locally now (stopped, or usage at the limit). */
  refusedOrganizations(): string[] {
    return [...new Set([...this.stopped, ...this.latest.keys()])].filter((organization) => this.refusal(organization));
  }

  record(reading: QuotaReading): void {
    const { organization } = reading;
    if (reading.used < reading.limit) this.stopped.delete(organization);
    this.resumed.delete(organization);
    this.latest.set(organization, { ...reading });
    this.history.record(reading);
    this.fire(organization);
  }

  /** After a 429 naming the weekly limit. */
  stop(organization: string): void {
    if (this.stopped.has(organization)) return;
    this.stopped.add(organization);
    this.fire(organization);
  }

  /**
   * The user chose to go on (tenantApi.resumeOrganization): lift the stop and forget that the last
   * reading had reached the limit, so the next call is sent; its own reading decides from then on.
   */
  resume(organization: string): void {
    this.stopped.delete(organization);
    this.resumed.add(organization);
    this.fire(organization);
  }

  /** The state of one organization, to hand to other windows (src/coordination). */
  state(organization: string): OrganizationQuotaState {
    const reading = this.latest.get(organization);
    return {
      organization,
      ...(reading ? { reading: { ...reading } } : {}),
      stopped: this.stopped.has(organization),
      resumed: this.resumed.has(organization),
    };
  }

  states(): OrganizationQuotaState[] {
    return [...new Set([...this.latest.keys(), ...this.stopped, ...this.resumed])].map((organization) => this.state(organization));
  }

  /**
   * The state another window reports: its stop or resume applies here too; of two readings, the one
   * seen later stays (usage only grows within a week, and windows read it at different moments).
   */
  adopt(state: OrganizationQuotaState): void {
    const { organization, reading } = state;
    const mine = this.latest.get(organization);
    // Another window's reading is a point of the same organization's usage, older or not.
    if (reading) this.history.record(reading);
    if (!reading) this.latest.delete(organization);
    else if (!mine || mine.seenAt <= reading.seenAt) this.latest.set(organization, { ...reading });
    const set = (into: Set<string>, on: boolean) => (on ? into.add(organization) : into.delete(organization));
    set(this.stopped, state.stopped);
    set(this.resumed, state.resumed);
    this.fire(organization);
  }

  clear(): void {
    const organizations = [...new Set([...this.latest.keys(), ...this.stopped])];
    this.latest.clear();
    this.history.clear();
    this.stopped.clear();
    this.resumed.clear();
    for (const organization of organizations) this.changes.fire({ organization, reading: undefined, blocked: false });
  }

  dispose(): void {
    this.changes.dispose();
  }

  private fire(organization: string): void {
    this.changes.fire({ organization, reading: this.latest.get(organization), blocked: this.isBlocked(organization) });
  }
}
