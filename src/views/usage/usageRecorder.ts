/**
 * Feeds an application's usage record from what the extension already hears: the quota tracker's
 * readings and weekly stops (this window's, and the other windows' it adopts), the scheduler's pauses
 * after a 429 (every window's, through the shared ledger), and the scheduler's own calls with their
 * waits (this window's: the other windows' calls show here as waiting). No `vscode` here.
 */
import type { MeteredCall } from '../../api/countedSlot';
import type { QueueState, QuotaView } from '../../api/types';
import type { Clock } from '../../common/clock';
import type { Disposable, Event } from '../../common/event';
import type { UsageRecord } from './usageRecord';

export interface UsageSources {
  quota: Pick<QuotaView, 'onDidChange' | 'usageSamples'>;
  calls: Event<MeteredCall>;
  queue: { readonly onDidChange: Event<QueueState>; readonly state: QueueState };
  clock: Pick<Clock, 'now' | 'monotonic'>;
}

/** The newest readings looked at on each change: those relayed out of order arrive among them. */
const NEWEST = 5;

export function recordUsage(record: UsageRecord, sources: UsageSources): Disposable {
  const blocked = new Set<string>();
  let pausedUntil = sources.queue.state.pausedUntil;
  const subscriptions = [
    sources.quota.onDidChange((event) => {
      if (event.reading) record.addReadings(event.organization, sources.quota.usageSamples(event.organization).slice(-NEWEST));
      if (event.blocked && !blocked.has(event.organization)) record.addStop(event.organization, sources.clock.now());
      if (event.blocked) blocked.add(event.organization);
      else blocked.delete(event.organization);
    }),
    sources.calls((call) => record.addCall(call.at, call.waitedMs)),
    sources.queue.onDidChange((state) => {
      const until = state.pausedUntil;
      // A later end is a new pause (or one made longer by another 429): each is marked once.
      if (until !== undefined && (pausedUntil === undefined || until > pausedUntil + 1)) {
        record.addPause(sources.clock.now(), Math.max(0, until - sources.clock.monotonic()));
      }
      pausedUntil = until ?? pausedUntil;
    }),
  ];
  return { dispose: () => subscriptions.forEach((subscription) => subscription.dispose()) };
}
