import * as assert from 'node:assert/strict';
import { SessionRelay, type RelayedSessions } from '../../../src/auth/sessionRelay';
import { compareSessions, laterSession, nextOrder, SessionStore, type StoredSession } from '../../../src/auth/sessionStore';
import { Emitter } from '../../../src/common/event';
import { recordingLogger, session } from './fakes';

/** The relay alone: peers in memory, and a window's sessions as a map with a stored copy. */
function relayOver(held: StoredSession[], options: { peers?: boolean; sync?: () => void } = { peers: true }) {
  const memory = new Map(held.map((value) => [value.account.id, value]));
  const storage = new Map(memory);
  const incoming = new Emitter<StoredSession>();
  const published: StoredSession[] = [];
  const sessions: RelayedSessions = {
    known: (id) => memory.get(id),
    adopt: (value) => void memory.set(value.account.id, value),
    readStored: async (id) => {
      const session = storage.get(id);
      return session ? { kind: 'found', session } : { kind: 'gone' };
    },
    write: async (value) => void storage.set(value.account.id, value),
    logger: recordingLogger(),
  };
  const peers = options.peers === false ? undefined : {
    publish: async (value: StoredSession) => void published.push(value),
    sync: async () => options.sync?.(),
    onSession: incoming.event,
  };
  const relay = new SessionRelay(peers, sessions);
  return { relay, memory, storage, published, deliver: (value: StoredSession) => incoming.fire(value) };
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('session relay (sessions handed between windows)', () => {
  it('adopts a later session of an account signed in here and stores it in this window\'s storage', async () => {
    const { relay, memory, storage, deliver } = relayOver([session('u1', { order: 1 })]);
    deliver(session('u1', { accessToken: 'at-2', refreshToken: 'rt-2', order: 2 }));
    await flush();
    assert.equal(memory.get('u1')?.accessToken, 'at-2');
    assert.equal(storage.get('u1')?.accessToken, 'at-2');
    relay.dispose();
  });

  it('ignores an earlier session (by order, whatever its updatedAt), another server\'s, and an account not signed in here', async () => {
    const { relay, memory, storage, deliver } = relayOver([session('u1', { order: 3 })]);
    deliver(session('u1', { accessToken: 'at-old', order: 2, updatedAt: Date.now() + 60_000 }));
    deliver(session('u1', { accessToken: 'at-other', order: 4, authUrl: 'http://elsewhere.test' }));
    deliver(session('u2', { accessToken: 'at-u2', order: 9 }));
    await flush();
    assert.equal(memory.get('u1')?.accessToken, 'at-u1-0');
    assert.equal(memory.has('u2'), false);
    assert.equal(storage.has('u2'), false, 'a relay signs no one in');
    relay.dispose();
  });

  it('adopts a later order with an earlier updatedAt (a clock stepped back)', async () => {
    const { relay, memory, deliver } = relayOver([session('u1', { order: 1 })]);
    deliver(session('u1', { accessToken: 'at-2', refreshToken: 'rt-2', order: 2, updatedAt: Date.now() - 60_000 }));
    assert.equal(memory.get('u1')?.accessToken, 'at-2');
    relay.dispose();
  });

  it('orders sessions by a hybrid logical clock: a refresh after its predecessor on any clock, unrelated sign-ins by time', () => {
    const now = Date.now();
    const held = session('u1', { order: nextOrder(undefined, now), updatedAt: now });
    const refreshedBehind = session('u1', { accessToken: 'at-2', order: nextOrder(held, now - 60_000), updatedAt: now - 60_000 });
    assert.ok(laterSession(refreshedBehind, held), 'a refresh on a clock a minute behind is still later');
    assert.ok(!laterSession(held, refreshedBehind));
    const signedInElsewhere = session('u1', { accessToken: 'at-3', order: nextOrder(undefined, now + 5000), updatedAt: now + 5000 });
    assert.ok(laterSession(signedInElsewhere, refreshedBehind), 'a sign-in that knew nothing of ours, later in time');
    const legacy = session('u1', { accessToken: 'at-0', updatedAt: now - 1000 });
    assert.ok(laterSession(held, legacy), 'a record without order counts its updatedAt');
  });

  it('says in one rule how a session stands to the one held: the same tokens, newer (other tokens, not earlier), or older', () => {
    const held = session('u1', { order: 5, updatedAt: 5 });
    assert.equal(compareSessions({ ...held, account: { ...held.account, label: 'renamed' } }, held), 'same');
    assert.equal(compareSessions(session('u1', { accessToken: 'at-2', order: 6 }), held), 'newer');
    assert.equal(compareSessions(session('u1', { refreshToken: 'rt-2', order: 5, updatedAt: 5 }), held), 'newer', 'a tie is not earlier');
    assert.equal(compareSessions(session('u1', { accessToken: 'at-0', order: 4 }), held), 'older');
  });

  it('reads a stored session as found, gone or unreadable (a storage error is no sign-out)', async () => {
    const values = new Map<string, string>();
    let failing = false;
    const secrets = {
      get: async (key: string) => {
        if (failing) throw new Error('keychain locked');
        return values.get(key);
      },
      store: async (key: string, value: string) => void values.set(key, value),
      delete: async (key: string) => void values.delete(key),
      onDidChange: new Emitter<{ key: string }>().event,
    };
    const logger = recordingLogger();
    const store = new SessionStore(secrets, logger);
    assert.deepEqual(await store.lookup('u1'), { kind: 'gone' });
    await store.write(session('u1'));
    assert.equal((await store.lookup('u1')).kind, 'found');
    failing = true;
    assert.deepEqual(await store.lookup('u1'), { kind: 'unreadable' });
    assert.match(logger.lines.join('\n'), /keychain locked/);
  });

  it('sync: the session another window handed on before the broker answered, or the one held; none once signed out', async () => {
    let onSync: (() => void) | undefined;
    const held = session('u1', { order: 1 });
    const { relay, memory, deliver } = relayOver([held], { sync: () => onSync?.() });
    assert.equal(await relay.sync('u1', held), held);
    onSync = () => deliver(session('u1', { accessToken: 'at-2', refreshToken: 'rt-2', order: 2 }));
    assert.equal((await relay.sync('u1', held))?.accessToken, 'at-2');
    memory.delete('u1');
    assert.equal(await relay.sync('u1', held), undefined);
    relay.dispose();
  });

  it('publishes to the other windows, and is a no-op without them', async () => {
    const { relay, published } = relayOver([]);
    await relay.publish(session('u1'));
    assert.deepEqual(published.map((value) => value.account.id), ['u1']);
    const held = session('u1');
    const alone = relayOver([held], { peers: false });
    await alone.relay.publish(held);
    assert.equal(await alone.relay.sync('u1', held), held, 'alone, the session held is the latest');
    assert.equal(alone.relay.onSessionOf('u1', () => undefined), undefined);
  });
});
