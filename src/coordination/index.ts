import type { RateLimit } from '../api/limits';
import type { QuotaTracker } from '../api/quotaTracker';
import { systemClock } from '../common/clock';
import type { Logger } from '../common/logger';
import { ApplicationLedger } from './applicationLedger';
import { fileLock, type CrossWindowLock } from './refreshLock';
import { openRuntimeDir, type RuntimeDir } from './runtimeDir';

export { ApplicationLedger } from './applicationLedger';
export type { CrossWindowLock } from './refreshLock';

/** What the client hands over to get a ledger shared with the other windows (see createTenantApi). */
export interface LedgerParts {
  quota: QuotaTracker;
  limits: readonly RateLimit[];
  safetyMarginMs: () => number;
  logger: Logger;
}

export interface WindowCoordination {
  /** Held around each token refresh by every window of this user (SessionManager's refreshLock). */
  refreshLock: CrossWindowLock;
  /** The rate-limit ledger of the configured application, shared with the other windows; started at once. */
  sharedLedger(application: () => { authUrl: string; clientId: string }): (parts: LedgerParts) => ApplicationLedger;
}

/** How this window works with the other windows of the editor on this machine (issue 12). */
export function windowCoordination(logger: Logger): WindowCoordination {
  let dir: Promise<RuntimeDir> | undefined;
  const runtimeDir = () => (dir ??= openRuntimeDir());
  return {
    refreshLock: fileLock(runtimeDir, logger),
    sharedLedger: (application) => (parts) => {
      const ledger = new ApplicationLedger({ clock: systemClock, ...parts, application, runtimeDir });
      void ledger.ready();
      return ledger;
    },
  };
}
