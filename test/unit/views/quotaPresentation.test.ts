import * as assert from 'node:assert/strict';
import type { QuotaReading } from '../../../src/api/types';
import {
  formatSeen,
  presentQuota,
  selectReading,
  severityFor,
  usageRows,
} from '../../../src/views/quotaPresentation';
import { sanitizeThresholds } from '../../../src/settings/quotaThresholds';

const now = Date.UTC(2026, 10, 22, 10, 0, 0);

function reading(overrides: Partial<QuotaReading> = {}): QuotaReading {
  return { organization: 'Rossi S.p.A.', keyLabel: 'Chiave EFAT', module: 'efat', used: 1234, limit: 10000, seenAt: now - 120_000, ...overrides };
}

describe('quotaPresentation', () => {
  it('shows used/limit with thousands separators', () => {
    assert.equal(presentQuota(reading(), { now }).text, '$(pulse) 1,234/10,000');
  });

  it('uses the locale for the numbers', () => {
    assert.equal(presentQuota(reading({ used: 12345, limit: 100000 }), { now, locale: 'it' }).text, '$(pulse) 12.345/100.000');
  });

  it('puts organization, used, limit, percent and when it was seen in the tooltip; no one key of the organization is named', () => {
    const tooltip = presentQuota(reading(), { now }).tooltip.join('\n');
    assert.match(tooltip, /\*\*Organization:\*\* Rossi S\.p\.A\. \(one weekly quota for all its licence keys\)/);
    assert.doesNotMatch(tooltip, /Chiave EFAT|efat/, 'the quota is the organization\'s, not the key\'s the last call carried');
    assert.match(tooltip, /1,234 of 10,000 \(12\.3 %\)/);
    assert.match(tooltip, /2 min ago/);
  });

  it('switches severity at the thresholds', () => {
    const thresholds = { warningPercent: 80, errorPercent: 95 };
    assert.equal(presentQuota(reading({ used: 7999 }), { now, thresholds }).severity, 'normal');
    assert.equal(presentQuota(reading({ used: 8000 }), { now, thresholds }).severity, 'warning');
    assert.equal(presentQuota(reading({ used: 9499 }), { now, thresholds }).severity, 'warning');
    assert.equal(presentQuota(reading({ used: 9500 }), { now, thresholds }).severity, 'error');
    assert.equal(presentQuota(reading({ used: 10 }), { now, thresholds: { warningPercent: 1, errorPercent: 50 } }).severity, 'normal');
    assert.equal(presentQuota(reading({ used: 100 }), { now, thresholds: { warningPercent: 1, errorPercent: 50 } }).severity, 'warning');
  });

  it('shows an error when the organization is blocked, whatever the count', () => {
    const shown = presentQuota(reading({ used: 1 }), { now, blocked: true });
    assert.equal(shown.severity, 'error');
    assert.match(shown.tooltip.join('\n'), /stopped/);
  });

  it('handles a zero limit without dividing by zero', () => {
    const shown = presentQuota(reading({ used: 5, limit: 0 }), { now });
    assert.equal(shown.percent, undefined);
    assert.equal(shown.severity, 'normal');
    assert.equal(severityFor(undefined, { warningPercent: 80, errorPercent: 95 }), 'normal');
  });

  it('shows a dash before any reading', () => {
    const shown = presentQuota(undefined, { now });
    assert.equal(shown.text, '$(pulse) —');
    assert.equal(shown.severity, 'normal');
  });

  it('repairs thresholds from bad settings', () => {
    assert.deepEqual(sanitizeThresholds({ warningPercent: 'x' as unknown as number, errorPercent: 500 }), { warningPercent: 80, errorPercent: 100 });
    assert.deepEqual(sanitizeThresholds({ warningPercent: 90, errorPercent: 70 }), { warningPercent: 70, errorPercent: 70 });
    assert.deepEqual(sanitizeThresholds(undefined), { warningPercent: 80, errorPercent: 95 });
  });

  it('selects the preferred organization, else the last changed, else the newest', () => {
    const a = reading({ organization: 'A', seenAt: 1 });
    const b = reading({ organization: 'B', seenAt: 3 });
    const c = reading({ organization: 'C', seenAt: 2 });
    assert.equal(selectReading([a, b, c], 'C', 'A')?.organization, 'C');
    assert.equal(selectReading([a, b, c], 'Z', 'A')?.organization, 'A');
    assert.equal(selectReading([a, b, c], undefined, undefined)?.organization, 'B');
    assert.equal(selectReading([], 'A', 'A'), undefined);
  });

  it('lists organizations fullest first with their severity', () => {
    const rows = usageRows(
      [reading({ organization: 'A', used: 10 }), reading({ organization: 'B', used: 9600 })],
      { now, isBlocked: (organization) => organization === 'A' },
    );
    assert.deepEqual(rows.map((row) => row.organization), ['B', 'A']);
    assert.equal(rows[0].severity, 'error');
    assert.equal(rows[0].description, '9,600/10,000 · 96 %');
    assert.equal(rows[1].severity, 'error');
    assert.match(rows[1].detail, /calls stopped/);
    assert.doesNotMatch(rows.map((row) => row.detail).join('\n'), /Chiave EFAT|efat/, 'no one key of the organization is named');
  });

  it('says when a reading was seen in the editor\'s locale, with its hour cycle', () => {
    const seenAt = new Date(2026, 10, 22, 15, 4, 5).getTime();
    assert.equal(formatSeen(seenAt, seenAt + 90_000, 'en'), '03:04:05 PM (2 min ago)');
    assert.equal(formatSeen(seenAt, seenAt + 90_000, 'it'), '15:04:05 (2 min ago)');
    assert.equal(formatSeen(seenAt, seenAt + 3 * 3600_000, 'it'), '22 nov 2026, 15:04:05');
  });
});
