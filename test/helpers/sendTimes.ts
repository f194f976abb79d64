import type { CountTimeRule, LogEntry } from '../../src/api/countTimeEstimate';

/**
 * Logs every call at its send time: holds only while delays vary less than the safety margin. No
 * product code uses it; the throttling benchmark compares it with the product's rules (the local
 * log takes it through its CountTimeRule seam).
 */
export class SendTimes implements CountTimeRule {
  answered(_origin: string, sentAt: number, _answeredAt: number): LogEntry {
    return { at: sentAt };
  }

  failed(sentAt: number, _endedAt: number): LogEntry {
    return { at: sentAt };
  }

  floor(): number | undefined {
    return undefined;
  }

  countedAt(entry: LogEntry): number {
    return entry.at;
  }

  distrust(): boolean {
    return false;
  }
}
