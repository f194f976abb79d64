import * as assert from 'node:assert/strict';
import { QuotaTracker } from '../../../src/api/quotaTracker';
import { systemClock } from '../../../src/common/clock';
import { silentLogger } from '../../../src/common/logger';
import { ApplicationLedger } from '../../../src/coordination/applicationLedger';
import { openRuntimeDir, UnsafeRuntimeDirError } from '../../../src/coordination/runtimeDir';
import { takeSlot } from '../../helpers/ledgerSlots';
import { FAST_LIMITS, sleep, tempBase } from './helpers';

const reading = (used: number, seenAt: number) => ({ organization: 'Rossi', keyLabel: 'k', module: 'core', used, limit: 1000, seenAt });

describe('coordination: the application ledger of a window', function () {
  this.timeout(10_000);
  let base: string;
  let cleanup: () => void;
  const open: ApplicationLedger[] = [];
  beforeEach(() => ({ base, cleanup } = tempBase()));
  afterEach(() => {
    for (const ledger of open.splice(0)) ledger.dispose();
    cleanup();
  });

  const window = async (quota: QuotaTracker, runtimeDir = () => openRuntimeDir(base)) => {
    const ledger = new ApplicationLedger({
      clock: systemClock,
      limits: FAST_LIMITS,
      safetyMarginMs: () => 1,
      logger: silentLogger,
      quota,
      application: () => ({ authUrl: 'http://127.0.0.1/auth', clientId: 'client' }),
      runtimeDir,
    });
    open.push(ledger);
    await ledger.ready();
    return ledger;
  };

  it('every window shows the same usage: readings, weekly stops and resumes reach the others', async () => {
    const [q1, q2, q3] = [new QuotaTracker(), new QuotaTracker(), new QuotaTracker()];
    q1.record(reading(10, 1));
    await window(q1);
    const w2 = await window(q2);
    await window(q3);
    assert.ok(w2.sharing && !w2.sharing.isBroker);
    assert.equal(q2.reading('Rossi')?.used, 10, 'a window that joins gets the readings so far');
    q3.record(reading(42, 2));
    await sleep(50);
    assert.deepEqual([q1, q2, q3].map((q) => q.reading('Rossi')?.used), [42, 42, 42]);
    q2.stop('Rossi');
    await sleep(50);
    assert.deepEqual([q1, q2, q3].map((q) => q.isBlocked('Rossi')), [true, true, true]);
    q1.resume('Rossi');
    await sleep(50);
    assert.deepEqual([q1, q2, q3].map((q) => q.refusal('Rossi')), [undefined, undefined, undefined]);
    q1.record(reading(40, 1.5)); // an older reading does not replace a newer one elsewhere
    await sleep(50);
    assert.deepEqual([q2, q3].map((q) => q.reading('Rossi')?.used), [42, 42]);
  });

  it('works alone, as before, where windows cannot share', async () => {
    const ledger = await window(new QuotaTracker(), () => Promise.reject(new UnsafeRuntimeDirError('not private')));
    assert.equal(ledger.sharing, undefined);
    const slot = await takeSlot(ledger);
    slot.markSent('http://127.0.0.1:1');
    slot.markAnswered();
    assert.equal(ledger.logTimes().length, 1);
  });
});
