import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SessionManager } from '../../../src/auth/sessionManager';
import { SESSION_KEY_PREFIX, SessionStore, type StoredSession } from '../../../src/auth/sessionStore';
import { TokenClient } from '../../../src/auth/tokenClient';
import { systemClock, type Clock } from '../../../src/common/clock';
import { silentLogger } from '../../../src/common/logger';
import { APPLICATION_LIMITS } from '../../../src/api/limits';
import { QuotaTracker } from '../../../src/api/quotaTracker';
import { windowCoordination } from '../../../src/coordination';
import { fileLock } from '../../../src/coordination/refreshLock';
import { openRuntimeDir } from '../../../src/coordination/runtimeDir';
import { InMemorySecretStore } from '../../helpers/inMemorySecretStore';
import { DEFAULT_SCOPE, tokensFor } from '../../helpers/sandboxTokens';
import { startSandbox, type Sandbox } from '../../sandbox';
import { tempBase } from '../../unit/coordination/helpers';

/** Every refresh_token a token endpoint was sent, in order (the fetch of each "window" goes through this). */
function countingFetch(tokenEndpoint: () => string, used: string[]): typeof fetch {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url === tokenEndpoint() && typeof init?.body !== 'undefined') {
      const body = new URLSearchParams(String(init.body));
      if (body.get('grant_type') === 'refresh_token') used.push(body.get('refresh_token')!);
    }
    return fetch(input, init);
  };
}

/**
 * Two windows: one SecretStorage (as VS Code shares it between windows, with change events), a
 * session manager and a token client each, and the cross-window refresh lock in one private directory.
 */
function twoWindows(authUrl: string, clientId: string, used: string[], lockBase: string | undefined, tokenEndpoint: () => string) {
  const secrets = new InMemorySecretStore();
  const window = () =>
    new SessionManager({
      store: new SessionStore(secrets, silentLogger),
      tokenClient: (() => {
        const client = new TokenClient({ authUrl, clientId, fetch: countingFetch(tokenEndpoint, used), logger: silentLogger });
        return () => client;
      })(),
      clock: systemClock,
      logger: silentLogger,
      refreshSkewSeconds: () => 60,
      ...(lockBase ? { refreshLock: fileLock(() => openRuntimeDir(lockBase), silentLogger) } : {}),
    });
  return { secrets, windows: [window(), window()] as const };
}

/**
 * Two windows as the browser editor has them: each its own SecretStorage that never shows the other's
 * writes (code-server keeps a page's secrets in that page), a session manager, a token client, and the
 * real coordination of its own (refresh lock, the application's ledger connection, the session relay)
 * in one private directory.
 */
function twoSeparateWindows(authUrl: string, clientId: string, used: string[], base: string, tokenEndpoint: () => string, relay = true, clocks: readonly Clock[] = [systemClock, systemClock]) {
  const application = () => ({ authUrl, clientId });
  const window = (clock: Clock) => {
    const secrets = new InMemorySecretStore();
    const coordination = windowCoordination(silentLogger, { base });
    const ledger = coordination.sharedLedger(application)({ quota: new QuotaTracker(), limits: APPLICATION_LIMITS, safetyMarginMs: () => 5, logger: silentLogger });
    const client = new TokenClient({ authUrl, clientId, fetch: countingFetch(tokenEndpoint, used), logger: silentLogger });
    const sessions = new SessionManager({
      store: new SessionStore(secrets, silentLogger),
      tokenClient: () => client,
      clock,
      logger: silentLogger,
      refreshSkewSeconds: () => 60,
      refreshLock: coordination.refreshLock,
      ...(relay ? { peers: coordination.sessionPeers(application, 'default') } : {}),
    });
    return { secrets, sessions, ledger };
  };
  const windows = [window(clocks[0]), window(clocks[1])] as const;
  return {
    windows,
    ready: () => Promise.all(windows.map((w) => w.ledger.ready())),
    dispose: () => windows.forEach((w) => (w.sessions.dispose(), w.ledger.dispose())),
  };
}

/** Both windows open with the same stored session (each page read it at start), then both need a token at once. */
async function raceSeparate(pair: ReturnType<typeof twoSeparateWindows>, session: StoredSession) {
  await pair.ready();
  for (const w of pair.windows) await w.sessions.addSession(session);
  return Promise.all(pair.windows.map((w) => w.sessions.getAccessToken()));
}

function expiredSession(tokens: { accessToken: string; refreshToken?: string; scope?: string }, authUrl: string, clientId: string): StoredSession {
  return {
    version: 1,
    account: { id: 'mario', label: 'Mario Rossi', roles: [] },
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    expiresAt: Date.now() - 1000, // both windows open after the token expired
    scopes: (tokens.scope || DEFAULT_SCOPE).split(' ').filter(Boolean),
    updatedAt: Date.now() - 60_000,
    authUrl,
    clientId,
  };
}

async function race(windows: readonly [SessionManager, SessionManager], session: StoredSession) {
  await windows[0].addSession(session);
  await Promise.all(windows.map((w) => w.getAccounts()));
  return Promise.all(windows.map((w) => w.getAccessToken()));
}

describe('refresh across windows (real HTTP)', function () {
  this.timeout(30_000);
  let lock: { base: string; cleanup(): void };
  beforeEach(() => (lock = tempBase()));
  afterEach(() => lock.cleanup());

  describe('against the sandbox (oidc-provider, rotating refresh tokens)', () => {
    let sandbox: Sandbox;
    before(async () => (sandbox = await startSandbox()));
    after(async () => sandbox?.close());

    it('two windows refreshing at once: one refresh, both adopt its tokens, the user stays signed in', async () => {
      const tokens = await tokensFor(sandbox, 'mario.rossi');
      const used: string[] = [];
      const clientId = sandbox.clients.public.clientId;
      const { secrets, windows } = twoWindows(sandbox.authUrl, clientId, used, lock.base, () => sandbox.endpoints.token);
      const [a, b] = await race(windows, expiredSession(tokens, sandbox.authUrl, clientId));
      assert.deepEqual(used, [tokens.refreshToken], 'the refresh token was used once, by one window');
      assert.equal(a, b, 'both windows use the one new access token');
      assert.notEqual(a, tokens.accessToken);
      const stored = JSON.parse(secrets.values.get(SESSION_KEY_PREFIX + 'mario')!) as StoredSession;
      assert.equal(stored.accessToken, a);
      for (const w of windows) assert.equal((await w.getAccounts()).length, 1, 'still signed in');
      // And the new refresh token works: the grant was not revoked by a replay.
      assert.equal((await windows[1].getAccessToken({ forceRefresh: true })).length > 0, true);
      windows.forEach((w) => w.dispose());
    });

    it('windows that do not see each other\'s secret storage (browser editor): one refresh, the other adopts it over the relay', async () => {
      const tokens = await tokensFor(sandbox, 'mario.rossi');
      const used: string[] = [];
      const clientId = sandbox.clients.public.clientId;
      const pair = twoSeparateWindows(sandbox.authUrl, clientId, used, lock.base, () => sandbox.endpoints.token);
      try {
        const [a, b] = await raceSeparate(pair, expiredSession(tokens, sandbox.authUrl, clientId));
        assert.deepEqual(used, [tokens.refreshToken], 'the refresh token was used once, by one window');
        assert.equal(a, b, 'both windows use the one new access token');
        for (const w of pair.windows) {
          assert.equal((await w.sessions.getAccounts()).length, 1, 'still signed in');
          const stored = JSON.parse(w.secrets.values.get(SESSION_KEY_PREFIX + 'mario')!) as StoredSession;
          assert.equal(stored.accessToken, a, 'each window stored the new tokens in its own secret storage');
        }
        // The grant survived (no replay of a spent refresh token): the other window can refresh next.
        const [, second] = pair.windows;
        const again = await second.sessions.getAccessToken({ forceRefresh: true });
        assert.notEqual(again, a);
        assert.equal(await pair.windows[0].sessions.getAccessToken(), again, 'and the first window adopts that one too');
        assert.equal(new Set(used).size, used.length, `no refresh token was sent twice: ${used.length} refreshes`);
        assert.deepEqual(sandbox.refreshes.slice(-2).map((refresh) => refresh.ok), [true, true], 'the sandbox granted both refreshes');
      } finally {
        pair.dispose();
      }
    });

    it('a window whose wall clock stepped back a minute: the other adopts its newer session and both stay signed in', async () => {
      const tokens = await tokensFor(sandbox, 'mario.rossi');
      const used: string[] = [];
      const clientId = sandbox.clients.public.clientId;
      let stepBackMs = 0;
      const steppedBack: Clock = { ...systemClock, now: () => Date.now() - stepBackMs };
      const pair = twoSeparateWindows(sandbox.authUrl, clientId, used, lock.base, () => sandbox.endpoints.token, true, [systemClock, steppedBack]);
      try {
        const [first] = await raceSeparate(pair, expiredSession(tokens, sandbox.authUrl, clientId));
        stepBackMs = 60_000; // NTP steps the second window's clock back a minute
        const [one, two] = pair.windows;
        const second = await two.sessions.getAccessToken({ forceRefresh: true });
        assert.notEqual(second, first);
        const third = await one.sessions.getAccessToken({ forceRefresh: true });
        assert.notEqual(third, second);
        assert.equal(new Set(used).size, used.length, `no refresh token was sent twice: ${used.length} refreshes`);
        for (const w of pair.windows) assert.equal((await w.sessions.getAccounts()).length, 1, 'still signed in');
        assert.equal(await two.sessions.getAccessToken(), third, 'the second window adopted the first one\'s tokens too');
      } finally {
        pair.dispose();
      }
    });
  });

  describe('against a server whose refresh tokens work once', () => {
    let server: Server;
    let authUrl: string;
    const valid = new Set<string>();
    let issued = 0;
    before(async () => {
      server = createServer((req, res) => {
        let body = '';
        req.on('data', (chunk) => (body += chunk));
        req.on('end', () => {
          const params = new URLSearchParams(body);
          const token = params.get('refresh_token') ?? '';
          res.setHeader('Content-Type', 'application/json');
          if (req.url !== '/connect/token' || params.get('grant_type') !== 'refresh_token') return void res.writeHead(404).end('{}');
          // The token is spent on arrival; the refusal of a spent one is immediate, the new tokens take
          // a while: the loser of a race hears its invalid_grant before the winner has its tokens.
          if (!valid.delete(token)) return void res.writeHead(400).end(JSON.stringify({ error: 'invalid_grant', error_description: 'used or unknown' }));
          issued++;
          const next = issued;
          valid.add(`rt-${next}`);
          setTimeout(() => res.end(JSON.stringify({ access_token: `at-${next}`, refresh_token: `rt-${next}`, token_type: 'Bearer', expires_in: 300 })), 150);
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      authUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => new Promise((resolve) => server.close(resolve)));
    beforeEach(() => {
      valid.clear();
      valid.add('rt-0');
      issued = 0;
    });

    it('with the cross-window lock: one refresh token used once, both windows signed in with its tokens', async () => {
      const used: string[] = [];
      const { windows } = twoWindows(authUrl, 'client', used, lock.base, () => `${authUrl}/connect/token`);
      const tokens = await race(windows, expiredSession({ accessToken: 'at-0', refreshToken: 'rt-0' }, authUrl, 'client'));
      assert.deepEqual(used, ['rt-0']);
      assert.deepEqual(tokens, ['at-1', 'at-1']);
      for (const w of windows) assert.equal((await w.getAccounts()).length, 1);
      windows.forEach((w) => w.dispose());
    });

    it('windows that do not see each other\'s secret storage (browser editor): one refresh token used once, both signed in with its tokens', async () => {
      const used: string[] = [];
      const pair = twoSeparateWindows(authUrl, 'client', used, lock.base, () => `${authUrl}/connect/token`);
      try {
        const tokens = await raceSeparate(pair, expiredSession({ accessToken: 'at-0', refreshToken: 'rt-0' }, authUrl, 'client'));
        assert.deepEqual(used, ['rt-0']);
        assert.deepEqual(tokens, ['at-1', 'at-1']);
        for (const w of pair.windows) assert.equal((await w.sessions.getAccounts()).length, 1);
      } finally {
        pair.dispose();
      }
    });

    it('without the lock (a window that cannot take it): the loser of the race waits for the winner and stays signed in', async () => {
      const used: string[] = [];
      const { secrets, windows } = twoWindows(authUrl, 'client', used, undefined, () => `${authUrl}/connect/token`);
      const tokens = await race(windows, expiredSession({ accessToken: 'at-0', refreshToken: 'rt-0' }, authUrl, 'client'));
      assert.deepEqual(used, ['rt-0', 'rt-0'], 'both windows spent the same refresh token');
      assert.deepEqual(tokens, ['at-1', 'at-1'], 'the loser adopted the winner\'s tokens');
      assert.ok(secrets.values.get(SESSION_KEY_PREFIX + 'mario'), 'the session is still stored');
      for (const w of windows) assert.equal((await w.getAccounts()).length, 1);
      windows.forEach((w) => w.dispose());
    });
  });
});
