import * as assert from 'node:assert/strict';
import { AuthNetworkError, DiscoveryRejectedError, OAuthError } from '../../../src/auth/oauthErrors';
import { PendingAttempts } from '../../../src/auth/pendingAttempts';
import { SignInRunner, type SignInEnvironment } from '../../../src/auth/signInRunner';
import { TokenClient } from '../../../src/auth/tokenClient';
import { systemClock } from '../../../src/common/clock';
import { silentLogger } from '../../../src/common/logger';
import { signInWithForm } from '../../helpers/signInWithForm';
import { startSandbox, type Sandbox } from '../../sandbox';
import { USERS } from '../../sandbox/seed';
import { hostileServer, type HostileServer } from './hostileServer';

const REDIRECT = 'vscode://tenant-api.tenant-api-workbench/auth-callback';
const mario = USERS[0];

/**
 * Attack list: sign-in mix-up and discovery. The real authorization server is the sandbox
 * (oidc-provider, which promises iss: authorization_response_iss_parameter_supported); the hostile
 * one is a small server on 127.0.0.1 that serves a discovery document of its choosing.
 */
describe('attack list: sign-in mix-up, iss and discovery', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let hostile: HostileServer;
  let document: (self: string) => Record<string, unknown> = () => ({});

  before(async () => {
    sandbox = await startSandbox({});
    hostile = await hostileServer((request, response) => {
      response.setHeader('Content-Type', 'application/json');
      if (request.path === '/.well-known/openid-configuration') return response.end(JSON.stringify(document(hostile.url)));
      response.statusCode = 200;
      response.end(JSON.stringify({ access_token: 'stolen', token_type: 'Bearer' }));
    });
  });
  after(async () => {
    await hostile?.close();
    await sandbox?.close();
  });
  beforeEach(() => (hostile.received.length = 0));

  /** A runner whose "browser" signs in at the sandbox and hands the redirect over after `tamper`. */
  function runner(authUrl: string, tamper: (params: URLSearchParams) => void = () => undefined) {
    const pending = new PendingAttempts(silentLogger);
    const tokenRequests: string[] = [];
    const countingFetch = (input: string, init?: RequestInit) => {
      if (init?.method === 'POST') tokenRequests.push(input);
      return fetch(input, init);
    };
    const tokenClient = new TokenClient({ authUrl, clientId: sandbox.clients.public.clientId, fetch: countingFetch, logger: silentLogger });
    let opened = 0;
    const environment: SignInEnvironment = {
      tokenClient,
      pending,
      clock: systemClock,
      logger: silentLogger,
      scopes: ['openid', 'profile', 'offline_access', 'api'],
      timeoutSeconds: 20,
      uriHandlerRedirectUri: async () => REDIRECT,
      openExternal: async (url) => {
        opened++;
        void signInWithForm(url, mario).then(({ params }) => {
          tamper(params);
          pending.handleCallback(params);
        });
        return true;
      },
      presentDeviceCode: () => undefined,
    };
    return { run: () => new SignInRunner(environment).run('uriHandler', {}), tokenRequests, opened: () => opened };
  }

  describe('callbacks (RFC 9207)', () => {
    it('control: the sandbox sends iss and the sign-in completes', async () => {
      let iss: string | null = null;
      const session = await runner(sandbox.authUrl, (params) => (iss = params.get('iss'))).run();
      assert.equal(iss, sandbox.authUrl.replace(/\/$/, ''));
      assert.ok(session.accessToken);
    });

    const tampered: Array<[string, (params: URLSearchParams) => void, RegExp]> = [
      ['iss removed (the server promises it)', (params) => params.delete('iss'), /RFC 9207/],
      ['iss of another server', (params) => params.set('iss', hostile.url), /another server/],
      ['iss of the sandbox with another path', (params) => params.set('iss', `${sandbox.authUrl}/other`), /another server/],
      ['iss empty', (params) => params.set('iss', ''), /another server/],
    ];
    for (const [name, tamper, message] of tampered) {
      it(`refuses a callback with ${name}, before the code is exchanged`, async () => {
        const attempt = runner(sandbox.authUrl, tamper);
        await assert.rejects(attempt.run(), (error: unknown) => error instanceof OAuthError && error.error === 'invalid_issuer' && message.test(error.message));
        assert.deepEqual(attempt.tokenRequests, [], 'the code never went to the token endpoint');
      });
    }
  });

  describe('discovery (OpenID Connect Discovery 4.3, Core 3.1.3.7)', () => {
    const documents: Array<[string, (self: string) => Record<string, unknown>, RegExp]> = [
      ['the real server\'s document served by another (mix-up)', () => ({ ...sandboxDocument }), /names the issuer/],
      ['no issuer', (self) => ({ ...sandboxDocumentAt(self), issuer: undefined }), /no issuer/],
      ['an http token endpoint off this computer', (self) => ({ ...sandboxDocumentAt(self), token_endpoint: 'http://attacker.example/token' }), /unsafe token_endpoint/],
      ['an http userinfo endpoint off this computer', (self) => ({ ...sandboxDocumentAt(self), userinfo_endpoint: 'http://attacker.example/userinfo' }), /unsafe userinfo_endpoint/],
      ['an http authorization endpoint off this computer', (self) => ({ ...sandboxDocumentAt(self), authorization_endpoint: 'http://attacker.example/authorize' }), /unsafe authorization_endpoint/],
      ['an http jwks_uri off this computer', (self) => ({ ...sandboxDocumentAt(self), jwks_uri: 'http://attacker.example/jwks' }), /unsafe jwks_uri/],
      ['a javascript: device endpoint', (self) => ({ ...sandboxDocumentAt(self), device_authorization_endpoint: 'javascript:alert(1)' }), /unsafe device_authorization_endpoint/],
      ['a token endpoint with credentials in the URL', (self) => ({ ...sandboxDocumentAt(self), token_endpoint: 'https://user:pw@attacker.example/token' }), /unsafe token_endpoint/],
    ];
    let sandboxDocument: Record<string, unknown> = {};
    const sandboxDocumentAt = (self: string) => JSON.parse(JSON.stringify(sandboxDocument).split(sandbox.authUrl.replace(/\/$/, '')).join(self)) as Record<string, unknown>;

    before(async () => {
      sandboxDocument = (await (await fetch(`${sandbox.authUrl}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    });

    for (const [name, make, message] of documents) {
      it(`stops sign-in on a document with ${name}; no browser, nothing posted`, async () => {
        document = make;
        const attempt = runner(hostile.url);
        await assert.rejects(attempt.run(), (error: unknown) => error instanceof DiscoveryRejectedError && message.test(error.message));
        assert.equal(attempt.opened(), 0, 'the browser was not opened');
        assert.deepEqual(attempt.tokenRequests, []);
        assert.deepEqual(hostile.received.map((request) => request.path), ['/.well-known/openid-configuration']);
      });
    }

    it('control: the same document with its own issuer and loopback endpoints is accepted', async () => {
      document = sandboxDocumentAt;
      const metadata = await new TokenClient({ authUrl: hostile.url, clientId: 'c', fetch, logger: silentLogger }).discover();
      assert.equal(metadata.discovered, true);
      assert.equal(metadata.authorization_response_iss_parameter_supported, true);
    });
  });

  describe('redirects from the authorization server', () => {
    let attacker: HostileServer;
    let redirector: HostileServer;
    before(async () => {
      attacker = await hostileServer((_request, response) => {
        response.setHeader('Content-Type', 'application/json');
        response.end(JSON.stringify({ access_token: 'attacker-token', token_type: 'Bearer', sub: 'attacker', device_code: 'd', user_code: 'u', verification_uri: 'https://x', expires_in: 60 }));
      });
      redirector = await hostileServer((request, response) => {
        response.setHeader('Content-Type', 'application/json');
        if (request.path === '/.well-known/openid-configuration') {
          const self = redirector.url;
          return response.end(JSON.stringify({ issuer: self, authorization_endpoint: `${self}/authorize`, token_endpoint: `${self}/token`, userinfo_endpoint: `${self}/userinfo`, device_authorization_endpoint: `${self}/device`, revocation_endpoint: `${self}/revoke` }));
        }
        response.statusCode = request.method === 'POST' ? 307 : 302; // 307 keeps the method and the body
        response.setHeader('Location', `${attacker.url}${request.path}`);
        response.end();
      });
    });
    after(async () => {
      await attacker.close();
      await redirector.close();
    });

    const requests: Array<[string, (client: TokenClient) => Promise<unknown>]> = [
      ['the code exchange (code, verifier)', (client) => client.exchangeCode('the-code-0001', 'the-verifier-0001', REDIRECT)],
      ['a refresh (refresh token)', (client) => client.refresh('the-refresh-token-0001')],
      ['userinfo (access token)', (client) => client.userInfo('the-access-token-0001')],
      ['the device authorization', (client) => client.startDeviceAuthorization(['openid'])],
      ['a revocation (refresh token)', (client) => client.revoke('the-refresh-token-0001', 'refresh_token')],
    ];
    for (const [name, call] of requests) {
      it(`does not follow a redirect of ${name} to another host`, async () => {
        attacker.received.length = 0;
        const client = new TokenClient({ authUrl: redirector.url, clientId: 'c', fetch, logger: silentLogger, getClientSecret: async () => 'client-secret-0001' });
        const outcome = await call(client).catch((error: unknown) => error);
        assert.ok(outcome instanceof AuthNetworkError && /redirected a sign-in request/.test(outcome.message), String(outcome));
        assert.deepEqual(attacker.received, [], 'nothing reached the attacker');
      });
    }
  });
});
