import * as assert from 'node:assert/strict';
import * as sinon from 'sinon';
import { SignInRequiredError, TokenRefreshError } from '../../../src/auth/errors';
import { AuthNetworkError, OAuthError } from '../../../src/auth/oauthErrors';
import { SessionManager, type SessionManagerOptions } from '../../../src/auth/sessionManager';
import { SESSION_KEY_PREFIX, SESSIONS_INDEX_KEY, SessionStore, SIGNED_OUT_KEY, type StoredSession } from '../../../src/auth/sessionStore';
import { systemClock } from '../../../src/common/clock';
import { Emitter } from '../../../src/common/event';
import { InMemorySecretStore } from '../../helpers/inMemorySecretStore';
import { fakeTokenClient, recordingLogger, session, type FakeTokenClient, type RecordingLogger } from './fakes';

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
/** The timers before the tests fake them. */
const realTimers = { setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout };

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('session manager', () => {
  let clock: sinon.SinonFakeTimers;
  let secrets: InMemorySecretStore;
  let tokens: FakeTokenClient;
  let logger: RecordingLogger;
  let manager: SessionManager;
  let skewSeconds: number;

  const seed = (...sessions: StoredSession[]) => {
    for (const stored of sessions) secrets.values.set(SESSION_KEY_PREFIX + stored.account.id, JSON.stringify(stored));
    secrets.values.set(SESSIONS_INDEX_KEY, JSON.stringify(sessions.map((stored) => stored.account.id)));
  };
  const stored = (id: string) => {
    const raw = secrets.values.get(SESSION_KEY_PREFIX + id);
    return raw ? (JSON.parse(raw) as StoredSession) : undefined;
  };
  /** A manager over this test's secrets, token client and logger (another window, when called twice). */
  const newManager = (options: Partial<SessionManagerOptions> = {}) =>
    new SessionManager({
      store: new SessionStore(secrets, logger),
      tokenClient: () => tokens.client,
      clock: systemClock,
      logger,
      refreshSkewSeconds: () => skewSeconds,
      ...options,
    });

  beforeEach(() => {
    clock = sinon.useFakeTimers({ now: Date.UTC(2026, 0, 1, 12), toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    secrets = new InMemorySecretStore();
    tokens = fakeTokenClient();
    logger = recordingLogger();
    skewSeconds = 60;
    manager = newManager();
  });

  afterEach(() => {
    manager.dispose();
    clock.restore();
  });

  it('has no account and asks for sign-in when nothing is stored', async () => {
    assert.deepEqual(await manager.getAccounts(), []);
    assert.equal(manager.activeAccount(), undefined);
    await assert.rejects(manager.getAccessToken(), SignInRequiredError);
  });

  it('returns the stored access token while it is valid beyond the skew', async () => {
    seed(session('u1'));
    assert.equal(await manager.getAccessToken(), 'at-u1-0');
    clock.tick(239_000); // 61 s before expiry
    assert.equal(await manager.getAccessToken(), 'at-u1-0');
    assert.equal(tokens.refresh.callCount, 0);
  });

  it('refreshes once the token expires within the skew, and stores the rotated tokens', async () => {
    seed(session('u1'));
    const changes = sinon.spy();
    manager.onDidChangeSessions(changes);
    await manager.getAccounts();
    clock.tick(240_001); // 59.999 s before expiry, inside the 60 s skew
    assert.equal(await manager.getAccessToken(), 'at-new-1');
    assert.equal(tokens.refresh.callCount, 1);
    assert.equal(tokens.refresh.firstCall.args[0], 'rt-u1-0');
    assert.equal(stored('u1')?.accessToken, 'at-new-1');
    assert.equal(stored('u1')?.refreshToken, 'rt-new-1');
    assert.equal(stored('u1')?.expiresAt, Date.now() + 300_000);
    assert.equal(changes.callCount, 1);
  });

  it('follows the configured skew', async () => {
    skewSeconds = 120;
    seed(session('u1'));
    clock.tick(180_001);
    assert.equal(await manager.getAccessToken(), 'at-new-1');
  });

  it('shares one refresh among concurrent callers (single-flight per account)', async () => {
    seed(session('u1', { expiresAt: Date.now() - 1 }), session('u2', { expiresAt: Date.now() - 1 }));
    const pending = deferred<{ access_token: string; refresh_token: string; token_type: string; expires_in: number }>();
    tokens.refresh.callsFake(async (refreshToken: string) =>
      refreshToken === 'rt-u1-0' ? pending.promise : { access_token: 'at-u2-1', refresh_token: 'rt-u2-1', token_type: 'Bearer', expires_in: 300 });
    const callers = Array.from({ length: 5 }, () => manager.getAccessToken({ accountId: 'u1' }));
    const other = manager.getAccessToken({ accountId: 'u2' });
    await flush();
    pending.resolve({ access_token: 'at-u1-1', refresh_token: 'rt-u1-1', token_type: 'Bearer', expires_in: 300 });
    assert.deepEqual(await Promise.all(callers), Array(5).fill('at-u1-1'));
    assert.equal(await other, 'at-u2-1');
    assert.equal(tokens.refresh.callCount, 2, 'one refresh per account');
    assert.equal(await manager.getAccessToken({ accountId: 'u1' }), 'at-u1-1');
    assert.equal(tokens.refresh.callCount, 2);
  });

  it('forceRefresh (after a 401) refreshes a token that still looks valid', async () => {
    seed(session('u1'));
    assert.equal(await manager.getAccessToken({ forceRefresh: true }), 'at-new-1');
  });

  it('ends the session when the refresh is refused with invalid_grant', async () => {
    seed(session('u1', { expiresAt: Date.now() - 1 }), session('u2'));
    tokens.refresh.rejects(new OAuthError('invalid_grant', 'grant request is invalid', 400));
    const changes = sinon.spy();
    const details = sinon.spy();
    manager.onDidChangeSessions(changes);
    manager.onDidChange(details);
    const refused = assert.rejects(manager.getAccessToken({ accountId: 'u1' }), SignInRequiredError);
    // It first waits for another window's new tokens (the race grace), then ends the session.
    await clock.tickAsync(1999);
    assert.ok(stored('u1'), 'not ended while another window may still store its tokens');
    await clock.tickAsync(1);
    await refused;
    assert.equal(stored('u1'), undefined);
    assert.deepEqual(JSON.parse(secrets.values.get(SESSIONS_INDEX_KEY)!), ['u2']);
    assert.deepEqual((await manager.getAccounts()).map((account) => account.id), ['u2']);
    assert.ok(changes.called);
    assert.equal(details.firstCall.args[0].removed[0].account.id, 'u1');
  });

  it('keeps the session when the refresh fails on the network, and says so', async () => {
    seed(session('u1', { expiresAt: Date.now() - 1 }));
    tokens.refresh.rejects(new AuthNetworkError('Could not reach the authorization server'));
    await assert.rejects(manager.getAccessToken(), TokenRefreshError);
    assert.ok(stored('u1'));
    assert.equal((await manager.getAccounts()).length, 1);
    tokens.refresh.resetBehavior();
    tokens.refresh.resolves({ access_token: 'at-later', refresh_token: 'rt-later', token_type: 'Bearer', expires_in: 300 });
    assert.equal(await manager.getAccessToken(), 'at-later');
  });

  it('uses the still valid token when a refresh inside the skew fails on the network', async () => {
    seed(session('u1'));
    clock.tick(250_000);
    tokens.refresh.rejects(new AuthNetworkError('offline'));
    assert.equal(await manager.getAccessToken(), 'at-u1-0');
  });

  it('keeps the session when the server fails with another error (5xx)', async () => {
    seed(session('u1', { expiresAt: Date.now() - 1 }));
    tokens.refresh.rejects(new AuthNetworkError('The authorization server answered 503'));
    await assert.rejects(manager.getAccessToken(), TokenRefreshError);
    assert.ok(stored('u1'));
  });

  it('a transient storage error while loading does not sign out: the next call loads', async () => {
    seed(session('u1'));
    secrets.failNext();
    assert.deepEqual(await manager.getAccounts(), []);
    assert.deepEqual((await manager.getAccounts()).map((account) => account.id), ['u1']);
  });

  it('a transient storage error while storing refreshed tokens keeps them in memory', async () => {
    seed(session('u1', { expiresAt: Date.now() - 1 }));
    await manager.getAccounts();
    tokens.refresh.callsFake(async () => {
      secrets.failNext(3);
      return { access_token: 'at-mem', refresh_token: 'rt-mem', token_type: 'Bearer', expires_in: 300 };
    });
    assert.equal(await manager.getAccessToken(), 'at-mem');
    assert.equal(await manager.getAccessToken(), 'at-mem');
    assert.equal((await manager.getAccounts()).length, 1);
    assert.ok(logger.lines.some((line) => line.startsWith('warn')));
  });

  it('a storage error on a change notification keeps the session', async () => {
    seed(session('u1'));
    await manager.getAccounts();
    secrets.failNext();
    secrets.simulateExternalWrite(SESSION_KEY_PREFIX + 'u1', undefined);
    await flush();
    // The read failed: nothing is known, nothing is dropped; the next notification brings the truth.
    assert.equal((await manager.getAccounts()).length, 1);
  });

  it("picks up another window's refresh without refreshing itself", async () => {
    seed(session('u1'));
    await manager.getAccounts();
    const changes = sinon.spy();
    manager.onDidChangeSessions(changes);
    clock.tick(250_000);
    secrets.simulateExternalWrite(SESSION_KEY_PREFIX + 'u1', JSON.stringify(session('u1', {
      accessToken: 'at-other-window', refreshToken: 'rt-other-window', expiresAt: Date.now() + 300_000, updatedAt: Date.now(),
    })));
    await flush();
    assert.equal(changes.callCount, 1);
    assert.equal(await manager.getAccessToken(), 'at-other-window');
    assert.equal(tokens.refresh.callCount, 0);
  });

  it("picks up another window's sign-out and sign-in", async () => {
    seed(session('u1'));
    await manager.getAccounts();
    const details = sinon.spy();
    manager.onDidChange(details);
    secrets.simulateExternalWrite(SESSION_KEY_PREFIX + 'u1', undefined);
    secrets.simulateExternalWrite(SESSIONS_INDEX_KEY, '[]');
    await flush();
    assert.deepEqual(await manager.getAccounts(), []);
    await assert.rejects(manager.getAccessToken(), SignInRequiredError);
    assert.equal(details.firstCall.args[0].removed[0].account.id, 'u1');

    secrets.simulateExternalWrite(SESSION_KEY_PREFIX + 'u3', JSON.stringify(session('u3')));
    secrets.simulateExternalWrite(SESSIONS_INDEX_KEY, '["u3"]');
    await flush();
    assert.deepEqual((await manager.getAccounts()).map((account) => account.id), ['u3']);
    assert.equal(details.lastCall.args[0].added[0].account.id, 'u3');
  });

  it('ignores stale data from storage (older than what it holds)', async () => {
    seed(session('u1', { expiresAt: Date.now() - 1 }));
    assert.equal(await manager.getAccessToken(), 'at-new-1');
    secrets.simulateExternalWrite(SESSION_KEY_PREFIX + 'u1', JSON.stringify(session('u1', {
      accessToken: 'at-stale', refreshToken: 'rt-stale', updatedAt: Date.now() - 10_000,
    })));
    await flush();
    assert.equal(await manager.getAccessToken(), 'at-new-1');
  });

  it('uses tokens another window stored before spending its own refresh token', async () => {
    seed(session('u1', { expiresAt: Date.now() + 30_000 }));
    await manager.getAccounts();
    // Another window refreshed but this window missed the notification.
    clock.tick(1000);
    secrets.values.set(SESSION_KEY_PREFIX + 'u1', JSON.stringify(session('u1', { accessToken: 'at-w2', refreshToken: 'rt-w2' })));
    assert.equal(await manager.getAccessToken(), 'at-w2');
    assert.equal(tokens.refresh.callCount, 0);
  });

  it('invalid_grant after another window rotated the refresh token adopts its tokens instead of signing out', async () => {
    seed(session('u1', { expiresAt: Date.now() - 1 }));
    await manager.getAccounts();
    tokens.refresh.callsFake(async () => {
      clock.tick(10);
      secrets.values.set(SESSION_KEY_PREFIX + 'u1', JSON.stringify(session('u1', { accessToken: 'at-w2', refreshToken: 'rt-w2' })));
      throw new OAuthError('invalid_grant', 'grant request is invalid', 400);
    });
    assert.equal(await manager.getAccessToken(), 'at-w2');
    assert.equal((await manager.getAccounts()).length, 1);
  });

  it('invalid_grant before the window that won the race has stored its tokens: waits for them and stays signed in', async () => {
    seed(session('u1', { expiresAt: Date.now() - 1 }));
    await manager.getAccounts();
    tokens.refresh.rejects(new OAuthError('invalid_grant', 'grant request is invalid', 400));
    const token = manager.getAccessToken();
    await clock.tickAsync(700);
    // The winner stores its refreshed tokens 700 ms after our refusal.
    secrets.simulateExternalWrite(SESSION_KEY_PREFIX + 'u1', JSON.stringify(session('u1', { accessToken: 'at-w2', refreshToken: 'rt-w2', updatedAt: Date.now() })));
    assert.equal(await token, 'at-w2');
    assert.equal(stored('u1')?.refreshToken, 'rt-w2');
    assert.equal((await manager.getAccounts()).length, 1);
  });

  it('refreshes under the cross-window lock, and a window that waited for it adopts the stored tokens without refreshing', async () => {
    seed(session('u1', { expiresAt: Date.now() - 1 }));
    const names: string[] = [];
    let queue = Promise.resolve();
    const refreshLock = <T>(name: string, task: () => Promise<T>): Promise<T> => {
      names.push(name);
      const run = queue.then(task);
      queue = run.then(() => undefined, () => undefined);
      return run;
    };
    const other = newManager({ refreshLock });
    const first = newManager({ refreshLock });
    const [a, b] = await Promise.all([first.getAccessToken(), other.getAccessToken()]);
    assert.equal(tokens.refresh.callCount, 1, 'one refresh for both windows');
    assert.equal(a, b);
    assert.equal(names.length, 2);
    assert.match(names[0], /u1$/);
    first.dispose();
    other.dispose();
  });

  it('never resurrects a session signed out in another window during a refresh', async () => {
    seed(session('u1', { expiresAt: Date.now() - 1 }));
    await manager.getAccounts();
    tokens.refresh.callsFake(async () => {
      secrets.values.delete(SESSION_KEY_PREFIX + 'u1');
      secrets.values.set(SESSIONS_INDEX_KEY, '[]');
      return { access_token: 'at-late', refresh_token: 'rt-late', token_type: 'Bearer', expires_in: 300 };
    });
    await assert.rejects(manager.getAccessToken(), SignInRequiredError);
    assert.equal(stored('u1'), undefined);
    assert.deepEqual(await manager.getAccounts(), []);
    assert.ok(tokens.revoke.calledWith('rt-late', 'refresh_token'), 'the orphan refresh token is revoked');
  });

  it('sign-out deletes the secrets, revokes the refresh token and fires the change', async () => {
    seed(session('u1'), session('u2'));
    const details = sinon.spy();
    manager.onDidChange(details);
    await manager.removeSession('u1');
    assert.equal(stored('u1'), undefined);
    assert.deepEqual(JSON.parse(secrets.values.get(SESSIONS_INDEX_KEY)!), ['u2']);
    assert.ok(tokens.revoke.calledOnceWith('rt-u1-0', 'refresh_token'));
    assert.equal(details.firstCall.args[0].removed[0].account.id, 'u1');
    assert.equal(details.callCount, 1, 'one change, not a second one from its own storage notification');
    assert.deepEqual((await manager.getAccounts()).map((account) => account.id), ['u2']);
    await flush();
    assert.ok(!logger.lines.some((line) => line.includes('another window')), logger.lines.join('\n'));
  });

  it('remembers a sign-out until the next sign-in (so that one shows the login form), not a refused refresh', async () => {
    seed(session('u1', { expiresAt: Date.now() - 1 }), session('u2'));
    assert.equal(await manager.signedOutSinceSignIn(), false);
    tokens.refresh.rejects(new OAuthError('invalid_grant', 'grant request is invalid', 400));
    const ended = assert.rejects(manager.getAccessToken({ accountId: 'u1' }), SignInRequiredError);
    await clock.tickAsync(2000); // no other window stores new tokens within the grace after invalid_grant
    await ended;
    assert.equal(await manager.signedOutSinceSignIn(), false, 'the session ended, nobody signed out');
    await manager.removeSession('u2');
    assert.equal(await manager.signedOutSinceSignIn(), true);
    assert.equal(secrets.values.get(SIGNED_OUT_KEY), '1', 'in SecretStorage, seen by every window');
    await manager.addSession(session('u3'));
    assert.equal(await manager.signedOutSinceSignIn(), false);
    assert.equal(secrets.values.has(SIGNED_OUT_KEY), false);
  });

  it('sign-out succeeds when revocation fails', async () => {
    seed(session('u1'));
    tokens.revoke.rejects(new AuthNetworkError('offline'));
    await manager.removeSession('u1');
    assert.equal(stored('u1'), undefined);
  });

  it('adds a session, makes the first account active, and lets the user pick another', async () => {
    await manager.addSession(session('a'));
    await manager.addSession(session('b'));
    assert.equal(manager.activeAccount()?.id, 'a');
    manager.setActiveAccount('b');
    assert.equal(manager.activeAccount()?.id, 'b');
    assert.equal(await manager.getAccessToken(), 'at-b-0');
    assert.deepEqual(JSON.parse(secrets.values.get(SESSIONS_INDEX_KEY)!), ['a', 'b']);
  });

  it('uses only the sessions of the configured server, and says so when the server changes', async () => {
    let server = { authUrl: 'http://auth.test/', clientId: 'tenant-api-workbench' };
    const scoped = newManager({ refreshSkewSeconds: () => 60, currentServer: () => server });
    seed(session('a'), session('b', { authUrl: 'https://production.example.com' }));
    assert.deepEqual((await scoped.getAccounts()).map((account) => account.id), ['a']);
    scoped.setActiveAccount('b');
    assert.equal(scoped.activeAccount()?.id, 'a', 'a session of another server is never active');
    await assert.rejects(scoped.getAccessToken({ accountId: 'b' }), SignInRequiredError);

    const details = sinon.spy();
    scoped.onDidChange(details);
    server = { authUrl: 'https://production.example.com', clientId: 'tenant-api-workbench' };
    scoped.serverChanged();
    assert.deepEqual(details.firstCall.args[0].added.map((s: StoredSession) => s.account.id), ['b']);
    assert.deepEqual(details.firstCall.args[0].removed.map((s: StoredSession) => s.account.id), ['a']);
    assert.equal(await scoped.getAccessToken(), 'at-b-0');
    assert.ok(stored('a'), 'the other server\'s session stays stored');
    scoped.dispose();
  });

  it('logs no token', async () => {
    seed(session('u1', { expiresAt: Date.now() - 1 }));
    await manager.getAccessToken();
    await manager.removeSession('u1');
    assert.ok(logger.lines.length > 0);
    for (const line of logger.lines) assert.doesNotMatch(line, /at-|rt-/);
  });

  describe('with peers (windows that do not see each other\'s secret storage)', () => {
    /** Peers in memory: what this window published, and a way to deliver another window's session. */
    const fakePeers = () => {
      const incoming = new Emitter<StoredSession>();
      const published: StoredSession[] = [];
      let beforeSync: (() => void) | undefined;
      return {
        published,
        deliver: (value: StoredSession) => incoming.fire(value),
        /** Runs once at the next sync: what another window's relay delivers before the broker answers. */
        onNextSync: (action: () => void) => (beforeSync = action),
        peers: {
          publish: async (value: StoredSession) => void published.push(value),
          sync: async () => {
            const action = beforeSync;
            beforeSync = undefined;
            action?.();
          },
          onSession: incoming.event,
        },
      };
    };

    it('adopts newer tokens another window refreshed and stores them in this window\'s storage', async () => {
      seed(session('u1'));
      const relay = fakePeers();
      const window = newManager({ peers: relay.peers });
      await window.getAccounts();
      clock.tick(1000);
      relay.deliver(session('u1', { accessToken: 'at-peer', refreshToken: 'rt-peer' }));
      assert.equal(await window.getAccessToken(), 'at-peer');
      await flush();
      assert.equal(stored('u1')?.refreshToken, 'rt-peer');
      assert.equal(tokens.refresh.callCount, 0);
      window.dispose();
    });

    it('ignores an older session, one of another server, and an account not signed in here', async () => {
      seed(session('u1'));
      const relay = fakePeers();
      const window = newManager({ peers: relay.peers });
      await window.getAccounts();
      relay.deliver(session('u1', { accessToken: 'at-old', updatedAt: Date.now() - 1 }));
      clock.tick(1000);
      relay.deliver(session('u1', { accessToken: 'at-other', authUrl: 'http://elsewhere.test' }));
      relay.deliver(session('u2', { accessToken: 'at-u2' }));
      await flush();
      assert.equal(await window.getAccessToken(), 'at-u1-0');
      assert.deepEqual(await window.getAccounts(), [session('u1').account]);
      assert.equal(stored('u2'), undefined, 'a window signed out of an account is not signed in by a relay');
      window.dispose();
    });

    it('before spending its refresh token, waits for what the window that refreshed first handed on, and uses it', async () => {
      seed(session('u1', { expiresAt: Date.now() + 30_000 }));
      const relay = fakePeers();
      const window = newManager({ peers: relay.peers });
      await window.getAccounts();
      clock.tick(1000);
      relay.onNextSync(() => relay.deliver(session('u1', { accessToken: 'at-peer', refreshToken: 'rt-peer' })));
      assert.equal(await window.getAccessToken(), 'at-peer');
      assert.equal(tokens.refresh.callCount, 0, 'its own (spent) refresh token was not sent');
      window.dispose();
    });

    it('hands its refreshed tokens to the other windows before the refresh ends (under the lock)', async () => {
      seed(session('u1', { expiresAt: Date.now() + 30_000 }));
      const relay = fakePeers();
      const order: string[] = [];
      const window = newManager({
        peers: { ...relay.peers, publish: async (value) => void order.push(`publish ${value.accessToken}`) },
        refreshLock: async (_name, task) => {
          const result = await task();
          order.push('unlock');
          return result;
        },
      });
      assert.equal(await window.getAccessToken(), 'at-new-1');
      assert.deepEqual(order, ['publish at-new-1', 'unlock']);
      window.dispose();
    });

    it('a session relayed after the wall clock stepped back a minute is still the newer one: the other window stays signed in', async () => {
      // The token server: rotation, and a spent refresh token is refused (invalid_grant).
      let issued = 0;
      let valid = 'rt-u1-0';
      tokens.refresh.callsFake(async (refreshToken: string) => {
        if (refreshToken !== valid) throw new OAuthError('invalid_grant', 'refresh token already used');
        issued++;
        valid = `rt-new-${issued}`;
        return { access_token: `at-new-${issued}`, refresh_token: valid, token_type: 'Bearer', expires_in: 300 };
      });
      // Two windows that do not share secret storage (code-server's pages), relaying to each other.
      let stepBackMs = 0;
      const wall = {
        ...systemClock,
        now: () => Date.now() - stepBackMs,
        setTimeout: (callback: () => void, ms: number) => realTimers.setTimeout(callback, ms),
        clearTimeout: (handle: unknown) => realTimers.clearTimeout(handle as ReturnType<typeof setTimeout>),
      };
      const windows: SessionManager[] = [];
      const relays = [fakePeers(), fakePeers()];
      relays.forEach((relay, i) => (relay.peers.publish = async (value) => void relays[1 - i].deliver(value)));
      for (const relay of relays) {
        const own = new InMemorySecretStore();
        own.values.set(SESSION_KEY_PREFIX + 'u1', JSON.stringify(session('u1')));
        own.values.set(SESSIONS_INDEX_KEY, JSON.stringify(['u1']));
        windows.push(newManager({ store: new SessionStore(own, logger), clock: wall, peers: relay.peers, raceGraceMs: 100 }));
      }
      const [first, second] = windows;
      await Promise.all(windows.map((window) => window.getAccounts()));

      assert.equal(await first.getAccessToken({ forceRefresh: true }), 'at-new-1');
      stepBackMs = 60_000; // NTP steps the clock back a minute
      clock.tick(1000);
      assert.equal(await second.getAccessToken({ forceRefresh: true }), 'at-new-2', 'the second window refreshes with the token the first handed on');
      clock.tick(1000);
      assert.equal(await first.getAccessToken({ forceRefresh: true }), 'at-new-3', 'the first window took the second one\'s newer session, though its updatedAt is earlier');
      assert.deepEqual((await second.getAccounts()).map((account) => account.id), ['u1'], 'the second window stays signed in');
      assert.equal(await second.getAccessToken(), 'at-new-3');
      for (const window of windows) window.dispose();
    });

    it('after an invalid_grant, adopts the winner\'s tokens when they arrive over the relay', async () => {
      seed(session('u1', { expiresAt: Date.now() + 30_000 }));
      const relay = fakePeers();
      const window = newManager({ peers: relay.peers });
      await window.getAccounts();
      tokens.refresh.callsFake(async () => {
        setTimeout(() => relay.deliver(session('u1', { accessToken: 'at-winner', refreshToken: 'rt-winner', updatedAt: Date.now() })), 500);
        throw new OAuthError('invalid_grant', 'used');
      });
      const token = window.getAccessToken();
      await flush();
      await clock.tickAsync(600);
      assert.equal(await token, 'at-winner');
      assert.ok(stored('u1'), 'still signed in');
      window.dispose();
    });
  });
});
