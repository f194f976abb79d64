import * as assert from 'node:assert/strict';
import * as sinon from 'sinon';
import { buildAuthorizeUrl, createAttemptSecrets } from '../../../src/auth/authorizeUrl';
import { SignInRequiredError } from '../../../src/auth/errors';
import { OAuthError, SignInDeniedError } from '../../../src/auth/oauthErrors';
import { PendingAttempts } from '../../../src/auth/pendingAttempts';
import { SessionManager } from '../../../src/auth/sessionManager';
import { SESSION_KEY_PREFIX, SessionStore } from '../../../src/auth/sessionStore';
import { SignInRunner, type SignInEnvironment } from '../../../src/auth/signInRunner';
import { TokenClient } from '../../../src/auth/tokenClient';
import { systemClock, type Clock } from '../../../src/common/clock';
import type { Logger } from '../../../src/common/logger';
import { InMemorySecretStore } from '../../helpers/inMemorySecretStore';
import { FormBrowser, SignInError, signInWithForm } from '../../helpers/signInWithForm';
import { startSandbox, type Sandbox } from '../../sandbox';
import { USERS } from '../../sandbox/seed';

const VSCODE_REDIRECT = 'vscode://tenant-api.tenant-api-workbench/auth-callback';
const SCOPES = ['openid', 'profile', 'offline_access', 'api'];
const mario = USERS[0];

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (message: string | Error) => void lines.push(String(message));
  return { lines, trace: log, debug: log, info: log, warn: log, error: log };
}

describe('sign-in against the sandbox (real HTTP)', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;

  before(async () => {
    sandbox = await startSandbox({ deviceCodeIntervalSeconds: 1 });
  });
  after(async () => sandbox?.close());

  function environment(overrides: Partial<SignInEnvironment> = {}): SignInEnvironment & { pending: PendingAttempts; tokenClient: TokenClient } {
    const logger = recordingLogger();
    const pending = new PendingAttempts(logger);
    const tokenClient = new TokenClient({ authUrl: sandbox.authUrl, clientId: sandbox.clients.public.clientId, fetch, logger });
    return {
      tokenClient,
      pending,
      clock: systemClock,
      logger,
      scopes: SCOPES,
      uiLocales: 'it',
      timeoutSeconds: 20,
      uriHandlerRedirectUri: async () => VSCODE_REDIRECT,
      openExternal: async () => true,
      presentDeviceCode: () => undefined,
      ...overrides,
    } as SignInEnvironment & { pending: PendingAttempts; tokenClient: TokenClient };
  }

  /** The "browser": fills the sandbox's form and delivers the redirect to the extension's URI handler. */
  function browserToUriHandler(env: { pending: PendingAttempts }, credentials = mario, seen: { authorize?: URL; redirect?: URL } = {}) {
    return async (url: string) => {
      seen.authorize = new URL(url);
      void signInWithForm(url, credentials).then(({ redirectedTo, params }) => {
        seen.redirect = redirectedTo;
        env.pending.handleCallback(params);
      });
      return true;
    };
  }

  it('authorization code + PKCE: form sign-in, redirect to the URI handler, code exchange, id_token checks, userinfo', async () => {
    const env = environment();
    const seen: { authorize?: URL; redirect?: URL } = {};
    env.openExternal = browserToUriHandler(env, mario, seen);
    const session = await new SignInRunner(env).run('uriHandler', {});
    assert.equal(seen.authorize?.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(`${seen.redirect?.protocol}//${seen.redirect?.host}${seen.redirect?.pathname}`, VSCODE_REDIRECT);
    assert.deepEqual(session.account, { id: mario.sub, label: mario.name, roles: mario.role });
    assert.ok(session.refreshToken, 'offline_access gives a refresh token');
    assert.ok(session.idToken);
    assert.ok(session.expiresAt > Date.now());
    // The access token is accepted by the resource API.
    const tenants = await fetch(`${sandbox.baseUrl}/v10/user-tenants`, { headers: { Authorization: `Bearer ${session.accessToken}`, Accept: 'application/json' } });
    assert.equal(tenants.status, 200);
    assert.equal(((await tenants.json()) as unknown[]).length, mario.tenantIds.length);
  });

  it('acr_values tenant:<id> and login_hint reach the server', async () => {
    const env = environment();
    const seen: { authorize?: URL } = {};
    env.openExternal = browserToUriHandler(env, mario, seen);
    const session = await new SignInRunner(env).run('uriHandler', { tenantId: mario.tenantIds[1], loginHint: mario.username, forceLogin: true });
    assert.equal(seen.authorize?.searchParams.get('acr_values'), `tenant:${mario.tenantIds[1]}`);
    assert.equal(seen.authorize?.searchParams.get('login_hint'), mario.username);
    assert.equal(seen.authorize?.searchParams.get('prompt'), 'login');
    const info = await env.tokenClient.userInfo(session.accessToken);
    assert.equal(info.tenant, mario.tenantIds[1]);
  });

  it('loopback flow end to end: 127.0.0.1 on a random port, page shown, port closed after use', async () => {
    const env = environment();
    let redirect: URL | undefined;
    let page = '';
    env.openExternal = async (url) => {
      void signInWithForm(url, mario).then(async ({ redirectedTo }) => {
        redirect = redirectedTo;
        page = await (await fetch(redirectedTo)).text();
      });
      return true;
    };
    const session = await new SignInRunner(env).run('loopback', {});
    assert.equal(session.account.id, mario.sub);
    assert.match(redirect!.origin, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(redirect!.pathname, '/auth-callback');
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.match(page, /Signed in/);
    await assert.rejects(fetch(`${redirect!.origin}/auth-callback`), 'the port is closed');
  });

  it('a redirect_uri the server did not register is refused before any sign-in', async () => {
    const env = environment({ uriHandlerRedirectUri: async () => 'vscode://someone-else.extension/auth-callback' });
    let refusal: unknown;
    env.openExternal = async (url) => {
      void signInWithForm(url, mario).catch((error: unknown) => {
        refusal = error;
        env.pending.cancel(new URL(url).searchParams.get('state')!, error as Error);
      });
      return true;
    };
    await assert.rejects(new SignInRunner(env).run('uriHandler', {}));
    assert.ok(refusal instanceof SignInError, String(refusal));
    assert.match(String((refusal as SignInError).html), /redirect_uri/);
  });

  it('the code exchange with another redirect_uri than the authorize request is refused (invalid_grant)', async () => {
    const env = environment();
    const tokenClient = env.tokenClient;
    const metadata = await tokenClient.discover();
    const secrets = await createAttemptSecrets();
    const url = buildAuthorizeUrl(metadata.authorization_endpoint, {
      clientId: tokenClient.clientId, redirectUri: VSCODE_REDIRECT, scopes: SCOPES, state: secrets.state, nonce: secrets.nonce, codeChallenge: secrets.codeChallenge,
    });
    const { params } = await signInWithForm(url, mario);
    await assert.rejects(
      tokenClient.exchangeCode(params.get('code')!, secrets.codeVerifier, 'code-oss://tenant-api.tenant-api-workbench/auth-callback'),
      (error: unknown) => error instanceof OAuthError && error.error === 'invalid_grant',
    );
  });

  it('Cancel on the sandbox\'s form (access_denied) ends the attempt as a cancel in the browser', async () => {
    const env = environment();
    let redirect: URLSearchParams | undefined;
    env.openExternal = async (url) => {
      void new FormBrowser().signIn(url, undefined, { deny: true }).then(({ params }) => env.pending.handleCallback((redirect = params)));
      return true;
    };
    await assert.rejects(new SignInRunner(env).run('uriHandler', {}), (error: unknown) => error instanceof SignInDeniedError && /cancelled in the browser/.test(error.message));
    assert.equal(redirect?.get('error'), 'access_denied', 'the sandbox redirected with access_denied');
  });

  describe('sessions', () => {
    async function signedInManager() {
      const env = environment();
      env.openExternal = browserToUriHandler(env);
      const session = await new SignInRunner(env).run('uriHandler', {});
      const secrets = new InMemorySecretStore();
      const logger = recordingLogger();
      const manager = new SessionManager({ store: new SessionStore(secrets, logger), tokenClient: () => env.tokenClient, clock: systemClock, logger, refreshSkewSeconds: () => 60 });
      await manager.addSession(session);
      return { manager, session, secrets, tokenClient: env.tokenClient, logger };
    }

    it('refresh rotates the refresh token; the old one is refused afterwards', async () => {
      const { manager, session, secrets, tokenClient } = await signedInManager();
      const fresh = await manager.getAccessToken({ forceRefresh: true });
      assert.notEqual(fresh, session.accessToken);
      const stored = JSON.parse(secrets.values.get(SESSION_KEY_PREFIX + session.account.id)!);
      assert.notEqual(stored.refreshToken, session.refreshToken, 'rotated');
      assert.equal(stored.accessToken, fresh);
      await assert.rejects(tokenClient.refresh(session.refreshToken!), (error: unknown) => error instanceof OAuthError && error.error === 'invalid_grant');
      manager.dispose();
    });

    it('concurrent callers share one refresh against the real server', async () => {
      const { manager, tokenClient } = await signedInManager();
      const spy = sinon.spy(tokenClient, 'refresh');
      const tokens = await Promise.all(Array.from({ length: 8 }, () => manager.getAccessToken({ forceRefresh: true })));
      assert.equal(new Set(tokens).size, 1);
      assert.equal(spy.callCount, 1);
      spy.restore();
      manager.dispose();
    });

    it('invalid_grant (grant revoked on the server) ends the session and fires the change', async () => {
      const { manager, session, secrets } = await signedInManager();
      const changed = sinon.spy();
      manager.onDidChangeSessions(changed);
      sandbox.revokeAllTokens?.();
      await assert.rejects(manager.getAccessToken({ forceRefresh: true }), SignInRequiredError);
      assert.equal(secrets.values.get(SESSION_KEY_PREFIX + session.account.id), undefined);
      assert.deepEqual(await manager.getAccounts(), []);
      assert.ok(changed.called);
      manager.dispose();
    });

    it('sign-out revokes the refresh token at the server (discovery shows revocation)', async () => {
      const { manager, session, secrets, tokenClient } = await signedInManager();
      assert.ok((await tokenClient.discover()).revocation_endpoint);
      await manager.removeSession(session.account.id);
      assert.equal(secrets.values.get(SESSION_KEY_PREFIX + session.account.id), undefined);
      await assert.rejects(tokenClient.refresh(session.refreshToken!), (error: unknown) => error instanceof OAuthError && error.error === 'invalid_grant');
      manager.dispose();
    });

    it('a network failure during refresh keeps the session', async () => {
      const { manager, session } = await signedInManager();
      const offline = new TokenClient({ authUrl: 'http://127.0.0.1:9', clientId: 'tenant-api-workbench', fetch, logger: recordingLogger(), requestTimeoutMs: 2000 });
      const isolated = new SessionManager({ store: new SessionStore(new InMemorySecretStore(), recordingLogger()), tokenClient: () => offline, clock: systemClock, logger: recordingLogger(), refreshSkewSeconds: () => 60 });
      await isolated.addSession(session);
      await assert.rejects(isolated.getAccessToken({ forceRefresh: true }), /Could not refresh/);
      assert.equal((await isolated.getAccounts()).length, 1);
      isolated.dispose();
      manager.dispose();
    });
  });

  it('device code: polls at the interval, honours slow_down, and signs in once the code is approved', async () => {
    // The first two waits run at double speed so that the second poll comes too early and the
    // server answers slow_down; afterwards the poller must wait 5 s longer and get the token.
    let fastWaits = 2;
    const polls: Array<{ at: number; error?: string }> = [];
    let approve = (): void => undefined;
    const clock: Clock = {
      ...systemClock,
      // Only the poller's waits (the attempt's own time limit is far longer).
      setTimeout: (callback, ms) => systemClock.setTimeout(callback, ms < 10_000 && fastWaits-- > 0 ? ms / 2 : ms),
    };
    const logger = recordingLogger();
    const tokenClient = new TokenClient({
      authUrl: sandbox.authUrl,
      clientId: sandbox.clients.public.clientId,
      logger,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (String(init?.body ?? '').includes('device_code')) {
          const body = (await response.clone().json()) as { error?: string };
          polls.push({ at: Date.now(), error: body.error });
          // The user approves only after the server had to slow the poller down.
          if (body.error === 'slow_down') approve();
        }
        return response;
      },
    });
    let userCode = '';
    const approvals: string[] = [];
    const env = environment({
      tokenClient,
      clock,
      logger,
      presentDeviceCode: (authorization) => {
        userCode = authorization.user_code;
        assert.equal(authorization.interval, 1);
        // As a person would: open verification_uri and type the user code.
        approve = () => void new FormBrowser().approveDevice(authorization.verification_uri, mario, authorization.user_code)
          .then((result) => approvals.push(result.page), (error: unknown) => approvals.push(String(error)));
      },
    });
    const session = await new SignInRunner(env).run('deviceCode', {}).catch((error: unknown) => {
      throw new Error(`${String(error)}; approval: ${approvals.join(', ')}; polls: ${JSON.stringify(polls)}`);
    });
    assert.ok(userCode);
    assert.equal(session.account.id, mario.sub);
    const errors = polls.map((poll) => poll.error ?? 'token');
    assert.ok(errors.includes('slow_down'), errors.join(','));
    const slowDown = polls.findIndex((poll) => poll.error === 'slow_down');
    assert.ok(polls[slowDown + 1].at - polls[slowDown].at >= 5900, 'waited interval + 5 s after slow_down');
    assert.equal(errors.at(-1), 'token');
    assert.equal(errors.filter((error) => error === 'slow_down').length, 1);
  });
});
