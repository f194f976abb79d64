/**
 * What the usage panel draws, kept across reloads in the extension's global state (one record per
 * application): each organization's weekly readings and weekly stops (a 429 naming the week), the
 * pauses after a 429 for the second or the minute, and this window's calls per minute with the time
 * they waited for a slot. Nothing is sent for it: it only keeps what answers already said.
 *
 * Bounded: readings of the last eight days, those older than two hours thinned to one per ten minutes
 * (a drop, which is the week starting again, always kept); pauses and stops of eight days; minutes of
 * two hours. Written at most every `saveDelayMs`, merged with what another window wrote meanwhile.
 * No `vscode` here.
 */
import { UsageHistory, type UsageSample } from '../../api/usageHistory';
import type { Clock } from '../../common/clock';
import { Emitter, type Disposable } from '../../common/event';
import type { Memento } from '../../common/memento';

export interface PauseMark {
  /** Wall-clock ms when the pause began, and how long it was. */
  at: number;
  ms: number;
}

export interface MinuteCalls {
  /** The minute's start (wall-clock ms). */
  at: number;
  calls: number;
  /** The time the minute's calls waited for their slots, together and the longest. */
  waitedMs: number;
  longestWaitMs: number;
}

export interface StoredUsage {
  version: 1;
  organizations: Record<string, { samples: UsageSample[]; stops: number[] }>;
  pauses: PauseMark[];
  minutes: MinuteCalls[];
}

export const KEEP_MS = 8 * 24 * 3_600_000;
const MINUTE_MS = 60_000;
const KEEP_MINUTES_MS = 2 * 3_600_000;
const DETAIL_MS = 2 * 3_600_000;
const THIN_MS = 10 * MINUTE_MS;
const MAX_SAMPLES = 4000;
const MAX_MARKS = 500;

/** The state key of an application's record. */
export function usageStateKey(application: string): string {
  return `tenantApi.usage:${application}`;
}

/** One reading per ten minutes before the last two hours, drops and their neighbours kept; none older than KEEP_MS. */
export function thinSamples(samples: readonly UsageSample[], now: number): UsageSample[] {
  const kept: UsageSample[] = [];
  for (let index = 0; index < samples.length; index += 1) {
    const sample = samples[index];
    if (sample.at < now - KEEP_MS) continue;
    const next = samples[index + 1];
    const previous = samples[index - 1];
    const recent = sample.at >= now - DETAIL_MS;
    const dropNear = (next !== undefined && next.used < sample.used) || (previous !== undefined && sample.used < previous.used);
    const lastOfBucket = next === undefined || Math.floor(next.at / THIN_MS) !== Math.floor(sample.at / THIN_MS);
    if (recent || dropNear || lastOfBucket) kept.push(sample);
  }
  return kept;
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

function validSample(value: unknown): value is UsageSample {
  const sample = value as UsageSample;
  return typeof value === 'object' && value !== null && isCount(sample.used) && isCount(sample.limit) && isCount(sample.at);
}

function validMinute(value: unknown): value is MinuteCalls {
  const minute = value as MinuteCalls;
  return typeof value === 'object' && value !== null && [minute.at, minute.calls, minute.waitedMs, minute.longestWaitMs].every(isCount);
}

const validPause = (value: unknown): value is PauseMark => typeof value === 'object' && value !== null && isCount((value as PauseMark).at) && isCount((value as PauseMark).ms);

/** What a state value holds that is well formed (a damaged value loses only its damaged parts). */
export function readStored(value: unknown): StoredUsage {
  const empty: StoredUsage = { version: 1, organizations: {}, pauses: [], minutes: [] };
  if (typeof value !== 'object' || value === null || (value as StoredUsage).version !== 1) return empty;
  const stored = value as Partial<StoredUsage>;
  const organizations: StoredUsage['organizations'] = {};
  for (const [name, entry] of Object.entries(typeof stored.organizations === 'object' && stored.organizations !== null ? stored.organizations : {})) {
    if (typeof entry !== 'object' || entry === null || name.length > 500) continue;
    organizations[name] = {
      samples: Array.isArray(entry.samples) ? entry.samples.filter(validSample) : [],
      stops: Array.isArray(entry.stops) ? entry.stops.filter(isCount) : [],
    };
  }
  return {
    version: 1,
    organizations,
    pauses: Array.isArray(stored.pauses) ? stored.pauses.filter(validPause) : [],
    minutes: Array.isArray(stored.minutes) ? stored.minutes.filter(validMinute) : [],
  };
}

export class UsageRecord implements Disposable {
  private readonly history = new UsageHistory(MAX_SAMPLES);
  private readonly stops = new Map<string, number[]>();
  private pauses: PauseMark[] = [];
  private readonly minutes = new Map<number, MinuteCalls>();
  private readonly changes = new Emitter<void>();
  /** Fired after every change (the panel redraws). */
  readonly onDidChange = this.changes.event;
  private saveTimer: unknown;
  private disposed = false;

  constructor(
    private readonly state: Memento,
    private readonly key: string,
    private readonly clock: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>,
    private readonly saveDelayMs = 2000,
  ) {
    this.merge(readStored(state.get(key)));
  }

  organizations(): string[] {
    return [...new Set([...this.history.organizations(), ...this.stops.keys()])];
  }

  samples(organization: string): readonly UsageSample[] {
    return this.history.samples(organization);
  }

  stopsOf(organization: string): readonly number[] {
    return this.stops.get(organization) ?? [];
  }

  pauseMarks(): readonly PauseMark[] {
    return this.pauses;
  }

  /** The minutes with calls since `since`, oldest first. */
  minutesSince(since: number): MinuteCalls[] {
    return [...this.minutes.values()].filter((minute) => minute.at >= since).sort((a, b) => a.at - b.at);
  }

  addReadings(organization: string, samples: readonly UsageSample[]): void {
    for (const sample of samples) this.history.record({ organization, used: sample.used, limit: sample.limit, seenAt: sample.at });
    this.changed();
  }

  addStop(organization: string, at: number): void {
    this.stops.set(organization, [...this.stopsOf(organization), at].slice(-MAX_MARKS));
    this.changed();
  }

  addPause(at: number, ms: number): void {
    this.pauses = [...this.pauses, { at, ms }].slice(-MAX_MARKS);
    this.changed();
  }

  addCall(at: number, waitedMs: number): void {
    const start = Math.floor(at / MINUTE_MS) * MINUTE_MS;
    const minute = this.minutes.get(start) ?? { at: start, calls: 0, waitedMs: 0, longestWaitMs: 0 };
    this.minutes.set(start, { at: start, calls: minute.calls + 1, waitedMs: minute.waitedMs + waitedMs, longestWaitMs: Math.max(minute.longestWaitMs, waitedMs) });
    this.changed();
  }

  /** Writes now (and stops a pending write): what to call before the window closes. */
  async flush(): Promise<void> {
    if (this.saveTimer !== undefined) this.clock.clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    this.merge(readStored(this.state.get(this.key)));
    this.prune(this.clock.now());
    await this.state.update(this.key, this.stored());
  }

  dispose(): void {
    this.disposed = true;
    void this.flush();
    this.changes.dispose();
  }

  /** Adds a stored record to what is known (readings and marks joined, each minute's larger counts kept). */
  private merge(stored: StoredUsage): void {
    for (const [organization, entry] of Object.entries(stored.organizations)) {
      for (const sample of entry.samples) this.history.record({ organization, used: sample.used, limit: sample.limit, seenAt: sample.at });
      if (entry.stops.length > 0) this.stops.set(organization, [...new Set([...this.stopsOf(organization), ...entry.stops])].sort((a, b) => a - b));
    }
    const pauses = new Map(this.pauses.map((pause) => [pause.at, pause]));
    for (const pause of stored.pauses) pauses.set(pause.at, pause);
    this.pauses = [...pauses.values()].sort((a, b) => a.at - b.at);
    for (const minute of stored.minutes) {
      const mine = this.minutes.get(minute.at);
      this.minutes.set(minute.at, mine && mine.calls >= minute.calls ? mine : minute);
    }
  }

  private prune(now: number): void {
    for (const organization of this.history.organizations()) this.history.replace(organization, thinSamples(this.history.samples(organization), now));
    for (const [organization, stops] of this.stops) this.stops.set(organization, stops.filter((at) => at >= now - KEEP_MS));
    this.pauses = this.pauses.filter((pause) => pause.at >= now - KEEP_MS);
    for (const at of this.minutes.keys()) if (at < now - KEEP_MINUTES_MS) this.minutes.delete(at);
  }

  private stored(): StoredUsage {
    const organizations: StoredUsage['organizations'] = {};
    for (const organization of this.organizations()) organizations[organization] = { samples: [...this.samples(organization)], stops: [...this.stopsOf(organization)] };
    return { version: 1, organizations, pauses: this.pauses, minutes: [...this.minutes.values()] };
  }

  private changed(): void {
    this.changes.fire();
    if (this.saveTimer !== undefined || this.disposed) return;
    this.saveTimer = this.clock.setTimeout(() => {
      this.saveTimer = undefined;
      void this.flush();
    }, this.saveDelayMs);
  }
}
