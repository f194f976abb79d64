import type { Socket } from 'node:net';
import type { RateLimit } from '../api/limits';
import type { Clock } from '../common/clock';
import type { Logger } from '../common/logger';
import { joinBroker, type BrokerLink } from './brokerLink';
import { BrokerServer, type RelayedMessage } from './brokerServer';
import { electBroker, type Elected } from './election';
import { Journal } from './journal';
import { LedgerBroker, logHorizonMs } from './ledgerBroker';
import { brokerName, type BrokerMessage, type ClientMessage, type EndedCall, type QuotaState } from './protocol';
import type { RuntimeDir } from './runtimeDir';

/*
 * A window's role in its application's ledger: the election (election.ts decides who listens on the
 * socket), and then either joining the broker as a window or becoming the broker, which takes over
 * from the journal of the broker before it (see the invariant, 3, in sharedRateLedger.ts).
 */

const RETRY_ELECTION_MS = 20;
/** A journal nobody wrote to for a day belongs to no running broker: it is deleted. */
const JOURNAL_IDLE_MS = 24 * 3600_000;

/** One application's channel between the windows: where its broker lives, and what the broker is given. */
export interface ChannelOptions {
  dir: RuntimeDir;
  appKey: string;
  clock: Clock;
  /** The application's limits (scaled like the scheduler's). */
  limits: readonly RateLimit[];
  safetyMarginMs: () => number;
  logger: Logger;
  /** The quota of every organization, for windows joining while this one is the broker. */
  quotaStates: () => QuotaState[];
}

/** What the election needs of the window (WindowChannel). */
export interface ElectingWindow {
  readonly windowId: string;
  isDisposed(): boolean;
  /** What this window tells a new broker about its calls (the invariant, 3). */
  report(): { inFlight: number[]; ended: EndedCall[] };
  /** A message from the broker, this window's own broker included. */
  deliver(message: BrokerMessage): void;
  /** A quota state or session another window sent to this window while it is the broker. */
  relayed(message: RelayedMessage): void;
  /** The connection to the broker is gone (called once per joined broker). */
  lost(reason: string): void;
  /** The role taken, at once (before any message of the new broker can need the link). */
  joined(role: BrokerRole): void;
}

/** The broker this window runs. */
export interface OwnBroker {
  core: LedgerBroker;
  server: BrokerServer;
  journal: Journal;
}

export type BrokerRole =
  | { role: 'window'; link: BrokerLink; welcome: Extract<BrokerMessage, { t: 'welcome' }> }
  | { role: 'broker'; link: BrokerLink; broker: OwnBroker; tookOver: number };

/**
 * Joins the application's broker or becomes it, trying again (with a growing pause) until one works
 * or the window is disposed; the window hears of the role through `joined`.
 */
export async function takeBrokerRole(options: ChannelOptions, window: ElectingWindow): Promise<void> {
  const { dir, appKey, logger } = options;
  const key = await dir.key();
  for (let failures = 0; !window.isDisposed(); failures++) {
    try {
      const elected = await electBroker(dir.endpoint(brokerName(appKey)), dir.file(`${brokerName(appKey)}.elect`));
      if (window.isDisposed()) {
        if (elected.role === 'client') elected.socket.destroy();
        else elected.server.close();
        return;
      }
      if (elected.role === 'broker') return becomeBroker(options, window, key, elected);
      return await joinAsWindow(window, key, elected.socket);
    } catch (error) {
      if (failures === 0) logger.warn(`Rate-limit ledger: could not reach the other windows (${String(error)}); trying again`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000, RETRY_ELECTION_MS * 2 ** failures)));
    }
  }
}

async function joinAsWindow(window: ElectingWindow, key: Buffer, socket: Socket): Promise<void> {
  const { link, welcome } = await joinBroker(
    socket,
    key,
    { w: window.windowId, ...window.report() },
    (message) => window.deliver(message),
    (reason) => window.lost(reason),
  );
  window.joined({ role: 'window', link, welcome });
}

/** The broker: seeded from the previous broker's journal, this window joined, the others accepted. */
function becomeBroker(options: ChannelOptions, window: ElectingWindow, key: Buffer, elected: Extract<Elected, { role: 'broker' }>): void {
  const { clock, limits, safetyMarginMs, logger, dir, appKey } = options;
  const journalPath = dir.file(`${brokerName(appKey)}.journal`);
  Journal.sweep(dir.path, JOURNAL_IDLE_MS);
  const previous = Journal.read(journalPath, clock.monotonic(), logHorizonMs(limits, safetyMarginMs()));
  const journal = new Journal(journalPath);
  const core = new LedgerBroker({
    clock,
    limits,
    safetyMarginMs,
    logger,
    journal,
    broadcast: (message) => {
      server.broadcast(message);
      window.deliver(message);
    },
    send: (to, message) => (to === window.windowId ? window.deliver(message) : server.sendTo(to, message)),
  });
  const server = new BrokerServer(
    elected.server,
    key,
    () => core,
    {
      welcome: () => ({ pausedForMs: Math.max(0, (core.pausedUntil ?? 0) - clock.monotonic()), quota: options.quotaStates() }),
      relayed: (message) => window.relayed(message),
    },
    logger,
  );
  core.seed(previous);
  const report = window.report();
  core.join(window.windowId, report.inFlight, report.ended);
  const link: BrokerLink = { send: (message) => toOwnBroker(window.windowId, core, server, message), close: () => undefined };
  elected.accept((socket) => server.accept(socket));
  window.joined({ role: 'broker', link, broker: { core, server, journal }, tookOver: previous.length });
}

/** A message of this window to the broker it runs: direct calls. */
function toOwnBroker(windowId: string, core: LedgerBroker, server: BrokerServer, message: Exclude<ClientMessage, { t: 'hello' } | { t: 'join' }>): void {
  switch (message.t) {
    case 'want':
      return core.want(windowId, message.id, message.front);
    case 'cancel':
      return core.cancel(windowId, message.id);
    case 'done':
      return core.done(windowId, message.id, message.how, message.answer);
    case 'pause':
      return core.pause(message.ms);
    case 'quota':
      return server.broadcast(message);
    case 'session':
      return server.shareSession(message);
    case 'sync':
      return; // the broker's own relays reach this window at once
  }
}
