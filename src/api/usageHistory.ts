/**
 * The weekly usage readings seen per organization, in time order: what a forecast needs and the
 * latest reading alone does not (how fast usage grows, and when it dropped, which is when the week
 * started again). Fed by the quota tracker's events, so readings relayed from other windows count
 * too. Memory only, bounded per organization. No `vscode` here.
 */
import type { QuotaReading, UsageSample } from './types';

export type { UsageSample };

const DEFAULT_MAX_SAMPLES = 512;

export class UsageHistory {
  private readonly byOrganization = new Map<string, UsageSample[]>();

  constructor(private readonly maxSamples = DEFAULT_MAX_SAMPLES) {}

  /** Keeps the samples sorted by time, since windows relay readings out of order; a repeat is dropped. */
  record(reading: Pick<QuotaReading, 'organization' | 'used' | 'limit' | 'seenAt'>): void {
    const samples = this.byOrganization.get(reading.organization) ?? [];
    const sample: UsageSample = { used: reading.used, limit: reading.limit, at: reading.seenAt };
    // From the end (readings mostly arrive in order): where it goes, and a repeat among those of its time.
    let index = samples.length;
    while (index > 0 && samples[index - 1].at > sample.at) index -= 1;
    for (let same = index - 1; same >= 0 && samples[same].at === sample.at; same--) if (samples[same].used === sample.used) return;
    samples.splice(index, 0, sample);
    if (samples.length > this.maxSamples) samples.splice(0, samples.length - this.maxSamples);
    this.byOrganization.set(reading.organization, samples);
  }

  /** Sets an organization's samples (a record kept across reloads, thinned): sorted by time, bounded. */
  replace(organization: string, samples: readonly UsageSample[]): void {
    const sorted = [...samples].sort((a, b) => a.at - b.at);
    this.byOrganization.set(organization, sorted.slice(Math.max(0, sorted.length - this.maxSamples)));
  }

  organizations(): string[] {
    return [...this.byOrganization.keys()];
  }

  samples(organization: string): readonly UsageSample[] {
    return this.byOrganization.get(organization) ?? [];
  }

  clear(): void {
    this.byOrganization.clear();
  }
}
