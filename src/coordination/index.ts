import type { SharedLedgerParts } from '../api';
import { systemClock } from '../common/clock';
import type { SessionPeers } from '../auth/sessionRelay';
import { Emitter } from '../common/event';
import type { Logger } from '../common/logger';
import { ApplicationLedger } from './applicationLedger';
import type { RelayedSession } from './sessionChannel';
import { fileLock, type CrossWindowLock } from './refreshLock';
import { applicationKey, openRuntimeDir, type RuntimeDir } from './runtimeDir';

export { ApplicationLedger } from './applicationLedger';
export type { CrossWindowLock } from './refreshLock';

/** What the client hands over to get a ledger shared with the other windows (see createApplicationScheduler). */
export type LedgerParts = SharedLedgerParts;

type Application = () => { authUrl: string; clientId: string };

export interface WindowCoordination {
  /** Held around each token refresh by every window of this user (SessionManager's refreshLock). */
  refreshLock: CrossWindowLock;
  /** The rate-limit ledger of the configured application, shared with the other windows; started at once. */
  sharedLedger(application: Application): (parts: LedgerParts) => ApplicationLedger;
  /**
   * Refreshed sessions of one secret store (an environment's) exchanged with the other windows of its
   * application, through the sessions part of that application's window channel (memory only, never a file).
   */
  sessionPeers(application: Application, store: string): SessionPeers;
}

/** How this window works with the other windows of the editor on this machine: one refresh per refresh token, one rate-limit ledger per application. */
export function windowCoordination(logger: Logger, options: { base?: string } = {}): WindowCoordination {
  let dir: Promise<RuntimeDir> | undefined;
  const runtimeDir = () => (dir ??= openRuntimeDir(options.base));
  const ledgers = new Map<string, ApplicationLedger>();
  // Every ledger's relayed sessions, with its application: a session manager subscribes once, before its ledger exists.
  const relayed = new Emitter<RelayedSession & { key: string }>();
  const ledgerOf = (application: Application) => {
    const { authUrl, clientId } = application();
    return ledgers.get(applicationKey(authUrl, clientId));
  };
  return {
    refreshLock: fileLock(runtimeDir, logger),
    sharedLedger: (application) => (parts) => {
      const { authUrl, clientId } = application();
      const key = applicationKey(authUrl, clientId);
      const register = (ledger: ApplicationLedger) => {
        ledgers.set(key, ledger);
        const forwarding = ledger.onSession((session) => relayed.fire({ key, ...session }));
        return {
          dispose: () => {
            forwarding.dispose();
            if (ledgers.get(key) === ledger) ledgers.delete(key);
          },
        };
      };
      const ledger = new ApplicationLedger({ clock: systemClock, ...parts, application, runtimeDir, register });
      void ledger.ready();
      return ledger;
    },
    sessionPeers: (application, store) => ({
      publish: async (session) => ledgerOf(application)?.shareSession({ store, session }),
      sync: async () => ledgerOf(application)?.syncSessions(),
      onSession: (listener) =>
        relayed.event((message) => {
          const { authUrl, clientId } = application();
          if (message.key === applicationKey(authUrl, clientId) && message.store === store) listener(message.session);
        }),
    }),
  };
}
