// What every RateLedger keeps (src/api/rateLedger.ts), run against each of them as the extension and the
// runner use them: this process's own log, the windows' broker over a real Unix socket (its own window
// and a window that joined it), and Redis (a real redis-server). One suite, the same assertions for all.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { ApiError } from '../../../src/api/errors';
import type { RateLimit } from '../../../src/api/limits';
import { LocalLedger } from '../../../src/api/localLedger';
import type { RateLedger, Slot } from '../../../src/api/rateLedger';
import { systemClock } from '../../../src/common/clock';
import { silentLogger } from '../../../src/common/logger';
import { createLedger } from '../../../src/coordination/redis/createLedger';
import { takeSlot } from '../../helpers/ledgerSlots';
import { RedisServer } from '../../helpers/redisServer';
import { openDir, startWindow, tempBase } from '../../unit/coordination/helpers';

const WINDOW_MS = 200;
const MAX = 3;
const LIMITS: RateLimit[] = [{ unit: 'second', windowMs: WINDOW_MS, max: MAX }];
const MARGIN_MS = 1;

/** A ledger under test and what to stop after it. */
interface Made {
  ledger: RateLedger;
  stop(): Promise<void> | void;
}

interface Kind {
  name: string;
  /** The clock the ledger decides on, to time its grants with: a step of the wall clock moves Redis's TIME and Date.now alike. */
  clock: () => number;
  before?(): Promise<void>;
  after?(): Promise<void>;
  make(): Promise<Made>;
}

let redis: RedisServer | undefined;

const KINDS: Kind[] = [
  {
    name: 'the local log (LocalLedger)',
    clock: () => performance.now(),
    make: async () => {
      const ledger = new LocalLedger({ clock: systemClock, limits: LIMITS, safetyMarginMs: () => MARGIN_MS });
      return { ledger, stop: () => ledger.dispose() };
    },
  },
  {
    name: "the windows' broker, from the broker's own window (SharedRateLedger)",
    clock: () => performance.now(),
    make: async () => {
      const temp = tempBase();
      const channel = await startWindow(await openDir(temp.base), { limits: LIMITS });
      assert.ok(channel.isBroker);
      return { ledger: channel.rate, stop: () => (channel.dispose(), temp.cleanup()) };
    },
  },
  {
    name: "the windows' broker, from a window that joined it over the socket (SharedRateLedger)",
    clock: () => performance.now(),
    make: async () => {
      const temp = tempBase();
      const dir = await openDir(temp.base);
      const broker = await startWindow(dir, { limits: LIMITS });
      const channel = await startWindow(dir, { limits: LIMITS });
      assert.ok(broker.isBroker && !channel.isBroker);
      return { ledger: channel.rate, stop: () => (channel.dispose(), broker.dispose(), temp.cleanup()) };
    },
  },
  {
    name: 'Redis (RedisRateLedger, real redis-server)',
    clock: () => Date.now(),
    before: async () => {
      redis = await RedisServer.start();
    },
    after: async () => {
      await redis?.stop();
    },
    make: async () => {
      const ledger = await createLedger({
        url: redis!.url,
        fallback: 'fail',
        application: { authUrl: `https://id.example/${randomBytes(6).toString('hex')}`, clientId: 'contract' },
        limits: LIMITS,
        safetyMarginMs: () => MARGIN_MS,
        logger: silentLogger,
        local: () => assert.fail('Redis is there'),
      });
      return { ledger, stop: () => ledger.dispose() };
    },
  },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks for a slot; records when (and in which order) it was granted. */
function asked(ledger: RateLedger, label: string, order: string[], front = false) {
  const call = { granted: undefined as number | undefined, slot: undefined as Slot | undefined };
  const withdraw = ledger.ask({
    front,
    granted: (slot) => {
      call.granted = performance.now();
      call.slot = slot;
      order.push(label);
    },
    refused: (error) => order.push(`${label} refused (${(error as ApiError).kind})`),
  });
  return Object.assign(call, { withdraw });
}

async function until(condition: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

const answer = (slot: Slot) => {
  slot.markSent('http://127.0.0.1:1');
  slot.markAnswered();
};

for (const kind of KINDS) {
  describe(`the RateLedger contract: ${kind.name}`, function () {
    this.timeout(20_000);
    let made: Made;
    if (kind.before) before(() => kind.before!());
    if (kind.after) after(() => kind.after!());
    beforeEach(async () => {
      made = await kind.make();
    });
    afterEach(() => made.stop());

    it(`grants ${MAX} at once, and the next only a window after the first answer`, async () => {
      const slots = await Promise.all(Array.from({ length: MAX }, () => takeSlot(made.ledger)));
      const answeredAt = kind.clock();
      for (const slot of slots) answer(slot);
      const next = await takeSlot(made.ledger);
      const grantedAfter = kind.clock() - answeredAt;
      answer(next);
      assert.ok(grantedAfter >= WINDOW_MS - 1, `granted ${grantedAfter.toFixed(1)} ms after the answers, within the window`);
    });

    it('counts a call in flight in every window until it ends; a slot given back unsent is free at once', async () => {
      const held = await Promise.all(Array.from({ length: MAX }, () => takeSlot(made.ledger)));
      const order: string[] = [];
      const next = asked(made.ledger, 'next', order);
      await sleep(WINDOW_MS * 2);
      assert.deepEqual(order, [], `${MAX} calls in flight: no slot, however long they take`);
      held[0].release(); // never sent
      await until(() => next.granted !== undefined, 'the slot given back');
      for (const slot of [...held.slice(1), next.slot!]) answer(slot);
    });

    it('grants in the order asked, a retry (front) ahead of the calls waiting', async () => {
      const held = await Promise.all(Array.from({ length: MAX }, () => takeSlot(made.ledger)));
      const order: string[] = [];
      const calls = [asked(made.ledger, 'first', order), asked(made.ledger, 'second', order)];
      await sleep(20);
      calls.push(asked(made.ledger, 'retry', order, true));
      await sleep(20);
      for (const slot of held) {
        slot.release();
        await sleep(20); // one at a time, so that each free slot goes to the head of the queue
      }
      await until(() => order.length === 3, 'three grants');
      assert.deepEqual(order, ['retry', 'first', 'second']);
      for (const call of calls) answer(call.slot!);
    });

    it('a withdrawn ask takes no slot and is never granted: the next one gets its place', async () => {
      const held = await Promise.all(Array.from({ length: MAX }, () => takeSlot(made.ledger)));
      const order: string[] = [];
      const withdrawn = asked(made.ledger, 'withdrawn', order);
      const next = asked(made.ledger, 'next', order);
      await sleep(20);
      withdrawn.withdraw();
      held[0].release();
      await until(() => next.granted !== undefined, 'the next ask');
      await sleep(WINDOW_MS);
      assert.deepEqual(order, ['next']);
      for (const slot of [...held.slice(1), next.slot!]) answer(slot);
    });

    it('a 429 pause holds every grant until it ends, and shows while it runs', async () => {
      let changes = 0;
      made.ledger.onDidChange(() => changes++);
      const paused = kind.clock();
      made.ledger.pause(WINDOW_MS);
      await until(() => made.ledger.pausedUntil !== undefined, 'the pause to show');
      assert.ok(changes > 0, 'onDidChange fired');
      const slot = await takeSlot(made.ledger);
      const grantedAfter = kind.clock() - paused;
      answer(slot);
      assert.ok(grantedAfter >= WINDOW_MS - 10, `granted ${grantedAfter.toFixed(1)} ms after a pause of ${WINDOW_MS} ms`);
      await until(() => made.ledger.pausedUntil === undefined, 'the pause to end');
    });

    it('refuses the asks still waiting when disposed (cancelled)', async () => {
      await Promise.all(Array.from({ length: MAX }, () => takeSlot(made.ledger)));
      const order: string[] = [];
      asked(made.ledger, 'waiting', order);
      await sleep(20);
      made.ledger.dispose();
      assert.deepEqual(order, ['waiting refused (cancelled)']);
    });
  });
}
