import * as assert from 'node:assert/strict';
import * as sinon from 'sinon';
import { IdTokenError, OAuthError, SignInCancelledError, SignInDeniedError, SignInTimeoutError } from '../../../src/auth/oauthErrors';
import { PendingAttempts } from '../../../src/auth/pendingAttempts';
import { accountFrom, attemptSignal, signInWithFlows, SignInRunner, type SignInEnvironment } from '../../../src/auth/signInRunner';
import type { StoredSession } from '../../../src/auth/sessionStore';
import { TokenClient, type Fetch } from '../../../src/auth/tokenClient';
import { systemClock } from '../../../src/common/clock';
import { silentLogger } from '../../../src/common/logger';
import { unsignedJwt } from './fakes';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A fake authorization server behind fetch: remembers the authorize request and answers the token request. */
function fakeServer(options: { idTokenClaims?: Record<string, unknown>; discovery?: Record<string, unknown> } = {}) {
  let authorize: URL | undefined;
  const fetch: Fetch = async (input, init) => {
    const url = new URL(input);
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer: 'https://auth.test',
        authorization_endpoint: 'https://auth.test/connect/authorize',
        token_endpoint: 'https://auth.test/connect/token',
        userinfo_endpoint: 'https://auth.test/connect/userinfo',
        device_authorization_endpoint: 'https://auth.test/connect/device',
        ...options.discovery,
      });
    }
    if (url.pathname === '/connect/token') {
      const body = new URLSearchParams(String(init?.body));
      assert.equal(body.get('redirect_uri'), authorize?.searchParams.get('redirect_uri'));
      assert.ok(body.get('code_verifier'));
      assert.equal(body.get('code'), 'the-code');
      const nonce = authorize?.searchParams.get('nonce');
      return json(200, {
        access_token: 'at-1', refresh_token: 'rt-1', token_type: 'Bearer', expires_in: 300, scope: 'openid profile offline_access api',
        id_token: unsignedJwt({ iss: 'https://auth.test', aud: 'tenant-api-workbench', sub: 'user-1', exp: Date.now() / 1000 + 300, nonce, ...options.idTokenClaims }),
      });
    }
    if (url.pathname === '/connect/userinfo') {
      return json(200, { sub: 'user-1', name: 'Mario Rossi', given_name: 'Mario', family_name: 'Rossi', role: ['admin', 'reader'] });
    }
    return json(404, { error: 'not_found' });
  };
  return { fetch, authorizeRequest: () => authorize, setAuthorize: (url: string) => (authorize = new URL(url)) };
}

function environment(server: ReturnType<typeof fakeServer>, overrides: Partial<SignInEnvironment> = {}): SignInEnvironment & { pending: PendingAttempts } {
  const pending = new PendingAttempts(silentLogger);
  return {
    tokenClient: new TokenClient({ authUrl: 'https://auth.test', clientId: 'tenant-api-workbench', fetch: server.fetch, logger: silentLogger }),
    pending,
    clock: systemClock,
    logger: silentLogger,
    scopes: ['openid', 'profile', 'offline_access', 'api'],
    uiLocales: 'it',
    timeoutSeconds: 300,
    openExternal: async () => true,
    uriHandlerRedirectUri: async () => 'vscode://tenant-api.tenant-api-workbench/auth-callback',
    presentDeviceCode: () => undefined,
    ...overrides,
  };
}

describe('sign-in runner', () => {
  it('uriHandler: opens the authorize URL, takes the matching callback, exchanges the code, builds the session', async () => {
    const server = fakeServer();
    const env = environment(server);
    env.openExternal = async (url) => {
      server.setAuthorize(url);
      const state = new URL(url).searchParams.get('state')!;
      setImmediate(() => {
        env.pending.handleCallback(new URLSearchParams({ code: 'forged', state: 'wrong' }));
        env.pending.handleCallback(new URLSearchParams({ code: 'the-code', state }));
      });
      return true;
    };
    const session = await new SignInRunner(env).run('uriHandler', { tenantId: 't-1', loginHint: 'mario', forceLogin: true });
    const sent = server.authorizeRequest()!;
    assert.equal(sent.searchParams.get('redirect_uri'), 'vscode://tenant-api.tenant-api-workbench/auth-callback');
    assert.equal(sent.searchParams.get('acr_values'), 'tenant:t-1');
    assert.equal(sent.searchParams.get('login_hint'), 'mario');
    assert.equal(sent.searchParams.get('prompt'), 'login');
    assert.equal(sent.searchParams.get('ui_locales'), 'it');
    assert.deepEqual(session.account, { id: 'user-1', label: 'Mario Rossi', roles: ['admin', 'reader'] });
    assert.equal(session.accessToken, 'at-1');
    assert.equal(session.refreshToken, 'rt-1');
    assert.deepEqual(session.scopes, ['openid', 'profile', 'offline_access', 'api']);
    assert.equal(env.pending.size, 0);
  });

  /** Runs a uriHandler sign-in whose callback carries `extra` (iss) besides the code and state. */
  async function signInWithCallback(server: ReturnType<typeof fakeServer>, extra: Record<string, string>): Promise<StoredSession> {
    const env = environment(server);
    env.openExternal = async (url) => {
      server.setAuthorize(url);
      const state = new URL(url).searchParams.get('state')!;
      setImmediate(() => env.pending.handleCallback(new URLSearchParams({ code: 'the-code', state, ...extra })));
      return true;
    };
    return new SignInRunner(env).run('uriHandler', {});
  }

  it('RFC 9207: refuses a callback without iss when discovery says the server sends it; a wrong iss always', async () => {
    const promising = { authorization_response_iss_parameter_supported: true };
    const refusedAs = (pattern: RegExp) => (error: unknown) => error instanceof OAuthError && error.error === 'invalid_issuer' && pattern.test(error.message);
    await assert.rejects(signInWithCallback(fakeServer({ discovery: promising }), {}), refusedAs(/RFC 9207/));
    await assert.rejects(signInWithCallback(fakeServer({ discovery: promising }), { iss: 'https://attacker.test' }), refusedAs(/another server/));
    await assert.rejects(signInWithCallback(fakeServer(), { iss: 'https://attacker.test' }), refusedAs(/another server/));
    assert.equal((await signInWithCallback(fakeServer({ discovery: promising }), { iss: 'https://auth.test' })).accessToken, 'at-1');
    assert.equal((await signInWithCallback(fakeServer(), {})).accessToken, 'at-1', 'a server that does not promise iss may leave it out');
  });

  it('loopback: the browser lands on 127.0.0.1/auth-callback, and the port is closed afterwards', async () => {
    const server = fakeServer();
    let redirectUri = '';
    let page = '';
    const env = environment(server, {
      openExternal: async (url) => {
        server.setAuthorize(url);
        const authorize = new URL(url);
        redirectUri = authorize.searchParams.get('redirect_uri')!;
        const callback = new URL(redirectUri);
        callback.searchParams.set('code', 'the-code');
        callback.searchParams.set('state', authorize.searchParams.get('state')!);
        setImmediate(async () => (page = await (await fetch(callback)).text()));
        return true;
      },
    });
    const session = await new SignInRunner(env).run('loopback', {});
    assert.match(redirectUri, /^http:\/\/127\.0\.0\.1:\d+\/auth-callback$/);
    assert.equal(session.account.id, 'user-1');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.match(page, /Signed in/);
    await assert.rejects(fetch(redirectUri), 'the loopback port is closed after use');
  });

  it('cancel frees the pending state and closes the loopback port', async () => {
    const server = fakeServer();
    const controller = new AbortController();
    let redirectUri = '';
    const env = environment(server, {
      openExternal: async (url) => {
        redirectUri = new URL(url).searchParams.get('redirect_uri')!;
        setImmediate(() => controller.abort());
        return true;
      },
    });
    await assert.rejects(new SignInRunner(env).run('loopback', {}, controller.signal), SignInCancelledError);
    assert.equal(env.pending.size, 0);
    await assert.rejects(fetch(redirectUri));
  });

  it('times out with a clear message and frees the pending state', async () => {
    const clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const env = environment(fakeServer(), { timeoutSeconds: 30 });
      const result = new SignInRunner(env).run('uriHandler', {}).catch((error: unknown) => error);
      await clock.tickAsync(30_000);
      const error = await result;
      assert.ok(error instanceof SignInTimeoutError);
      assert.match(error.message, /30 seconds/);
      assert.equal(env.pending.size, 0);
    } finally {
      clock.restore();
    }
  });

  it('an error redirect ends the attempt with the server message', async () => {
    const env = environment(fakeServer());
    env.openExternal = async (url) => {
      const state = new URL(url).searchParams.get('state')!;
      setImmediate(() => env.pending.handleCallback(new URLSearchParams({ error: 'server_error', error_description: 'Database unavailable', state })));
      return true;
    };
    await assert.rejects(new SignInRunner(env).run('uriHandler', {}), /Database unavailable/);
  });

  it('access_denied (Cancel on the sign-in page) ends the attempt as a cancel in the browser, at once', async () => {
    const env = environment(fakeServer());
    env.openExternal = async (url) => {
      const state = new URL(url).searchParams.get('state')!;
      setImmediate(() => env.pending.handleCallback(new URLSearchParams({ error: 'access_denied', error_description: 'The user cancelled the sign-in.', state })));
      return true;
    };
    const error = await new SignInRunner(env).run('uriHandler', {}).catch((caught: unknown) => caught);
    assert.ok(error instanceof SignInDeniedError, String(error));
    assert.ok(error instanceof SignInCancelledError, 'a kind of cancel: signInWithFlows offers no other flow');
    assert.equal(error.message, 'Sign-in was cancelled in the browser.');
    assert.equal(env.pending.size, 0);
  });

  it('refuses an id_token that fails a check (nonce of another attempt)', async () => {
    const server = fakeServer({ idTokenClaims: { nonce: 'another-attempt' } });
    const env = environment(server);
    env.openExternal = async (url) => {
      server.setAuthorize(url);
      setImmediate(() => env.pending.handleCallback(new URLSearchParams({ code: 'the-code', state: new URL(url).searchParams.get('state')! })));
      return true;
    };
    await assert.rejects(new SignInRunner(env).run('uriHandler', {}), (error: unknown) => error instanceof IdTokenError && error.claim === 'nonce');
  });

  it('labels the account from userinfo, else the id_token names, else sub', () => {
    assert.equal(accountFrom({ sub: 's', name: 'Full Name' }, undefined).label, 'Full Name');
    assert.equal(accountFrom(undefined, { iss: 'i', aud: 'a', exp: 1, sub: 's', given_name: 'Anna', family_name: 'Bianchi' }).label, 'Anna Bianchi');
    assert.equal(accountFrom({ sub: 's' }, undefined).label, 's');
    assert.deepEqual(accountFrom({ sub: 's', role: 'admin' }, undefined).roles, ['admin']);
  });

  it('attemptSignal: cancel and timeout abort with their own error', async () => {
    const cancel = new AbortController();
    const attempt = attemptSignal(systemClock, 60, cancel.signal);
    cancel.abort();
    assert.ok(attempt.signal.reason instanceof SignInCancelledError);
    attempt.dispose();
  });

  describe('trying flows in order', () => {
    const session = { account: { id: 'u' } } as StoredSession;

    it('offers the next flow when one fails, and stops when the user declines', async () => {
      const run = sinon.stub();
      run.withArgs('uriHandler').rejects(new SignInTimeoutError(300));
      run.withArgs('loopback').resolves(session);
      const offerNext = sinon.stub().resolves(true);
      assert.equal(await signInWithFlows(['uriHandler', 'loopback', 'deviceCode'], run, offerNext), session);
      assert.deepEqual(offerNext.firstCall.args.slice(0, 1).concat(offerNext.firstCall.args[2]), ['uriHandler', 'loopback']);

      offerNext.resetHistory();
      offerNext.resolves(false);
      await assert.rejects(signInWithFlows(['uriHandler', 'loopback'], run, offerNext), SignInTimeoutError);
      assert.equal(run.withArgs('loopback').callCount, 1);
    });

    it('does not offer another flow after the user cancelled', async () => {
      const run = sinon.stub().rejects(new SignInCancelledError());
      const offerNext = sinon.stub().resolves(true);
      await assert.rejects(signInWithFlows(['uriHandler', 'loopback'], run, offerNext), SignInCancelledError);
      assert.equal(offerNext.callCount, 0);
    });

    it('does not offer another flow after a cancel in the browser (access_denied)', async () => {
      const run = sinon.stub().rejects(new SignInDeniedError());
      const offerNext = sinon.stub().resolves(true);
      await assert.rejects(signInWithFlows(['uriHandler', 'deviceCode'], run, offerNext), SignInDeniedError);
      assert.equal(offerNext.callCount, 0);
    });

    it('says so when no flow can work', async () => {
      await assert.rejects(signInWithFlows([], sinon.stub(), sinon.stub()), (error: unknown) => error instanceof OAuthError && /signInFlow/.test(error.message));
    });
  });
});

