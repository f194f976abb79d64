/**
 * An application's usage record, fed from its quota tracker and its scheduler (see usageRecorder.ts),
 * and kept in the extension's global state: made once per application, like its scheduler. No `vscode`.
 */
import type { RequestScheduler } from '../../api/requestScheduler';
import type { QuotaTracker } from '../../api/quotaTracker';
import { systemClock } from '../../common/clock';
import type { Disposable } from '../../common/event';
import type { Memento } from '../../common/memento';
import { UsageRecord, usageStateKey } from './usageRecord';
import { recordUsage } from './usageRecorder';

export interface ApplicationUsage extends Disposable {
  readonly record: UsageRecord;
  readonly quota: QuotaTracker;
}

/** `changed` hears every change of the record and of the quota (a resume changes no record): the panel redraws. */
export function applicationUsage(application: string, state: Memento, quota: QuotaTracker, scheduler: RequestScheduler, changed: () => void): ApplicationUsage {
  const record = new UsageRecord(state, usageStateKey(application), systemClock);
  const recording = recordUsage(record, { quota, calls: scheduler.onDidCall, queue: scheduler, clock: systemClock });
  const forwarding = [record.onDidChange(changed), quota.onDidChange(changed)];
  return {
    record,
    quota,
    dispose() {
      recording.dispose();
      for (const subscription of forwarding) subscription.dispose();
      record.dispose();
    },
  };
}
