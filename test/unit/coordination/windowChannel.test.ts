import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { createConnection } from 'node:net';
import type { Slot } from '../../../src/api/rateLedger';
import { joinBroker } from '../../../src/coordination/brokerLink';
import { JOIN_GRACE_MS } from '../../../src/coordination/ledgerBroker';
import type { RuntimeDir } from '../../../src/coordination/runtimeDir';
import type { WindowChannel } from '../../../src/coordination/windowChannel';
import { brokerName, PROTOCOL_VERSION, type SessionRecord } from '../../../src/coordination/protocol';
import { takeSlot } from '../../helpers/ledgerSlots';
import { FAST_LIMITS, openDir, sleep, startWindow, tempBase } from './helpers';

const WINDOW_MS = FAST_LIMITS[0].windowMs;

/** Takes a slot of the window's shared rate ledger; resolves with it and the moment it was granted. */
async function take(window: WindowChannel, signal = new AbortController().signal): Promise<{ slot: Slot; at: number }> {
  const slot = await takeSlot(window.rate, { signal });
  return { slot, at: performance.now() };
}

/** Takes a slot, sends and answers at once; resolves with the moment it was granted. */
async function call(window: WindowChannel): Promise<number> {
  const { slot, at } = await take(window);
  slot.markSent('http://127.0.0.1:1');
  slot.markAnswered();
  return at;
}

/** Ends the held calls now (sent, answered); resolves with how long after that `next` was granted. */
async function grantedAfterEnding(held: { slot: Slot }[], next: Promise<number>): Promise<number> {
  const ended = performance.now();
  for (const { slot } of held) {
    slot.markSent('http://127.0.0.1:1');
    slot.markAnswered();
  }
  return (await next) - ended;
}

/** No WINDOW_MS interval holds more than 5 of `times` (each call answered when granted). */
function assertWithinLimit(times: number[]): void {
  const sorted = [...times].sort((a, b) => a - b);
  for (let i = 0; i + 5 < sorted.length; i++) {
    assert.ok(sorted[i + 5] - sorted[i] >= WINDOW_MS, `calls ${i} and ${i + 5} only ${(sorted[i + 5] - sorted[i]).toFixed(1)} ms apart`);
  }
}

describe('the windows\' channel: the shared rate-limit ledger, quota and sessions (windows over a Unix socket, plain Node)', function () {
  this.timeout(20_000);
  let cleanup: () => void;
  let dir: RuntimeDir;
  const open: WindowChannel[] = [];
  const window = async () => {
    const channel = await startWindow(dir);
    open.push(channel);
    return channel;
  };

  beforeEach(async () => {
    const temp = tempBase();
    cleanup = temp.cleanup;
    dir = await openDir(temp.base);
  });
  afterEach(() => {
    for (const ledger of open.splice(0)) ledger.dispose();
    cleanup();
  });

  it('elects one broker; three windows together keep to 5 per window', async () => {
    const [a, b, c] = [await window(), await window(), await window()];
    assert.deepEqual([a.isBroker, b.isBroker, c.isBroker], [true, false, false]);
    const times = await Promise.all([a, b, c].flatMap((w) => Array.from({ length: 7 }, () => call(w))));
    assertWithinLimit(times);
    assert.equal(times.length, 21);
  });

  it('counts a call in flight in every window until its window says how it ended', async () => {
    const [a, b] = [await window(), await window()];
    const held = await Promise.all(Array.from({ length: 5 }, () => take(b)));
    const next = call(a);
    await sleep(WINDOW_MS * 2);
    let granted = false;
    void next.then(() => (granted = true));
    await sleep(10);
    assert.equal(granted, false, 'no slot while five calls of the other window are in flight');
    const after = await grantedAfterEnding(held, next);
    assert.ok(after >= WINDOW_MS - 5, `granted ${after.toFixed(0)} ms after they ended: logged when they ended, they count a window more`);
  });

  it('a 429 pause in one window holds every window', async () => {
    const [a, b] = [await window(), await window()];
    await call(a);
    const paused = performance.now();
    b.rate.pause(150);
    await sleep(20);
    assert.ok(a.rate.pausedUntil !== undefined, 'the broker shows the pause');
    const at = await call(a);
    assert.ok(at - paused >= 140, `granted ${(at - paused).toFixed(0)} ms after the pause`);
  });

  it('drops a window that went away: its calls in flight stop counting one window after', async () => {
    const [a, b] = [await window(), await window()];
    await Promise.all(Array.from({ length: 5 }, () => take(b)));
    const gone = performance.now();
    b.dispose(); // its connection closes with five calls in flight, never reported
    const at = await call(a);
    assert.ok(at - gone >= WINDOW_MS - 5 && at - gone < WINDOW_MS + 500, `granted ${(at - gone).toFixed(0)} ms after the window went away`);
  });

  it('when the broker goes, another window takes over with what the broker had granted, and nothing is lost', async () => {
    const [a, b, c] = [await window(), await window(), await window()];
    await Promise.all(Array.from({ length: 5 }, () => take(a))); // the broker's own calls, in flight forever
    const waiting = [call(b), call(c), call(b)];
    await sleep(20);
    const died = performance.now();
    a.dispose(); // like kill -9 for the others: no report of its calls
    const times = await Promise.all(waiting);
    assert.equal([b, c].filter((w) => w.isBroker).length, 1, 'one new broker');
    const first = Math.min(...times) - died;
    assert.ok(first >= JOIN_GRACE_MS + WINDOW_MS - 20, `the dead broker's calls counted until their window passed (${first.toFixed(0)} ms)`);
    assert.ok(first < 2000, `the others went on within 2 s (${first.toFixed(0)} ms)`);
    assertWithinLimit([...times, ...(await Promise.all(Array.from({ length: 8 }, (_, i) => call(i % 2 ? b : c))))]);
  });

  it('after a takeover, the calls another window still has in flight keep their slots until it reports them', async () => {
    const [a, b, c] = [await window(), await window(), await window()];
    const held = await Promise.all(Array.from({ length: 5 }, () => take(b)));
    a.dispose();
    let granted = false;
    const next = call(c).then((at) => ((granted = true), at));
    await sleep(JOIN_GRACE_MS + WINDOW_MS * 3);
    assert.equal(granted, false, 'five calls of a live window are still in flight: no slot');
    const after = await grantedAfterEnding(held, next);
    assert.ok(after >= WINDOW_MS - 5, `granted ${after.toFixed(0)} ms after they ended, not before their window passed`);
  });

  it('a new broker keeps the calls logged before the old one died', async () => {
    const [a, b] = [await window(), await window()];
    const before = await Promise.all(Array.from({ length: 5 }, () => call(a)));
    a.dispose();
    const after = await call(b);
    assert.ok(after - before[0] >= WINDOW_MS, `the sixth call came ${(after - before[0]).toFixed(0)} ms after the first`);
  });

  it('refuses a connection that cannot prove the key, and one that does not speak the protocol', async () => {
    await window();
    const endpoint = dir.endpoint(brokerName('app'));
    const closedAfter = async (lines: string[]) => {
      const socket = createConnection(endpoint);
      const replies: string[] = [];
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => replies.push(chunk));
      await new Promise((resolve) => socket.once('connect', resolve));
      for (const line of lines) socket.write(`${line}\n`);
      await new Promise((resolve) => socket.once('close', resolve));
      return replies.join('');
    };
    assert.equal(await closedAfter(['{"t":"want","id":1,"front":false}']), '', 'no grant before the handshake');
    const reply = await closedAfter([JSON.stringify({ t: 'hello', v: PROTOCOL_VERSION, nonce: 'ab'.repeat(16) }), JSON.stringify({ t: 'join', proof: 'cd'.repeat(32), w: 'ef'.repeat(16), inFlight: [], ended: [] })]);
    assert.match(reply, /"challenge"/);
    assert.doesNotMatch(reply, /"welcome"/);
    assert.equal(await closedAfter(['garbage']), '');
  });

  it('a window does not trust a broker that cannot prove the key', async () => {
    await window();
    await fs.writeFile(dir.file('other.key'), 'ab'.repeat(32));
    const socket = createConnection(dir.endpoint(brokerName('app')));
    await new Promise((resolve) => socket.once('connect', resolve));
    await assert.rejects(
      joinBroker(socket, Buffer.alloc(32, 7), { w: 'ab'.repeat(16), inFlight: [], ended: [] }, () => undefined, () => undefined),
      /did not prove the key/,
    );
  });

  describe('sessions refreshed in one window', () => {
    const session = (accessToken: string): SessionRecord => ({
      version: 1,
      account: { id: 'mario', label: 'Mario Rossi', roles: [] },
      accessToken,
      refreshToken: `${accessToken}-refresh`,
      expiresAt: 2_000_000_000_000,
      scopes: ['openid'],
      updatedAt: 1_900_000_000_000,
      authUrl: 'http://127.0.0.1:1',
      clientId: 'client',
    });
    const received = (window: WindowChannel) => {
      const seen: string[] = [];
      window.sessions.onSession(({ store, session: s }) => seen.push(`${store}:${s.accessToken}`));
      return seen;
    };

    it('reach every other window, from a window and from the broker, and never the sender', async () => {
      const broker = await window();
      const [a, b] = [await window(), await window()];
      assert.ok(broker.isBroker && !a.isBroker && !b.isBroker);
      const seen = [broker, a, b].map(received);
      a.sessions.publish({ store: 'default', session: session('from-a') });
      assert.equal(await a.sessions.sync(), true);
      broker.sessions.publish({ store: '@sandbox', session: session('from-broker') });
      assert.equal(await b.sessions.sync(), true);
      // (A sync sends the newest sessions again: a window may hear one twice, and ignores what it has.)
      assert.deepEqual(seen.map((heard) => [...new Set(heard)]), [['default:from-a'], ['@sandbox:from-broker'], ['default:from-a', '@sandbox:from-broker']]);
    });

    it('after share + sync in one window, a sync begun in another resolves only once the session has reached it', async () => {
      await window(); // the broker
      const [a, b] = [await window(), await window()];
      const seen = received(b);
      for (let round = 0; round < 20; round++) {
        a.sessions.publish({ store: 'default', session: session(`token-${round}`) });
        await a.sessions.sync(); // the refreshing window releases its lock here
        assert.equal(await b.sessions.sync(), true); // the next window, holding the lock now
        assert.equal(seen.at(-1), `default:token-${round}`, `round ${round}: the session had not reached the other window`);
      }
    });

    it('a window that joins later gets the newest session of each account and store at its first sync', async () => {
      const broker = await window();
      const a = await window();
      a.sessions.publish({ store: 'default', session: { ...session('older'), updatedAt: 1 } });
      a.sessions.publish({ store: 'default', session: session('newest') });
      a.sessions.publish({ store: 'default', session: { ...session('stale'), updatedAt: 2 } }); // arrives last, is older
      broker.sessions.publish({ store: '@sandbox', session: session('sandbox') });
      await a.sessions.sync();
      const late = await window();
      const seen = received(late);
      assert.equal(await late.sessions.sync(), true);
      assert.deepEqual(seen.sort(), ['@sandbox:sandbox', 'default:newest']);
    });

    it('sync answers false when the broker is gone before it answered, and in a window that stopped', async () => {
      const broker = await window();
      const a = await window();
      const pending = a.sessions.sync();
      broker.dispose();
      assert.equal(await pending, false);
      a.dispose();
      assert.equal(await a.sessions.sync(), false);
    });
  });
});
