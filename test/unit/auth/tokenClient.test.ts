import * as assert from 'node:assert/strict';
import * as sinon from 'sinon';
import { AuthNetworkError, OAuthError } from '../../../src/auth/oauthErrors';
import { TokenClient, type Fetch } from '../../../src/auth/tokenClient';
import { silentLogger } from '../../../src/common/logger';
import { redact } from '../../../src/common/redact';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('token client', () => {
  const discovery = {
    issuer: 'https://auth.test',
    authorization_endpoint: 'https://auth.test/connect/authorize',
    token_endpoint: 'https://auth.test/connect/token',
    userinfo_endpoint: 'https://auth.test/connect/userinfo',
    revocation_endpoint: 'https://auth.test/connect/revocation',
    device_authorization_endpoint: 'https://auth.test/connect/device',
  };

  function client(fetch: Fetch, secret?: string) {
    return new TokenClient({ authUrl: 'https://auth.test/', clientId: 'tenant-api-workbench', fetch, logger: silentLogger, getClientSecret: async () => secret });
  }

  it('reads discovery once and posts the code exchange with verifier and redirect_uri', async () => {
    const fetch = sinon.stub<Parameters<Fetch>, ReturnType<Fetch>>();
    fetch.withArgs('https://auth.test/.well-known/openid-configuration').resolves(json(200, discovery));
    fetch.withArgs('https://auth.test/connect/token').callsFake(async () => json(200, { access_token: 'at-1', token_type: 'Bearer', expires_in: 300, refresh_token: 'rt-1' }));
    const tokens = client(fetch);
    const result = await tokens.exchangeCode('the-code', 'the-verifier', 'vscode://tenant-api.tenant-api-workbench/auth-callback');
    assert.equal(result.access_token, 'at-1');
    await tokens.refresh('rt-1', ['openid', 'api']);
    assert.equal(fetch.withArgs('https://auth.test/.well-known/openid-configuration').callCount, 1);
    const exchange = new URLSearchParams(String(fetch.withArgs('https://auth.test/connect/token').firstCall.args[1]?.body));
    assert.deepEqual(Object.fromEntries(exchange), {
      client_id: 'tenant-api-workbench',
      grant_type: 'authorization_code',
      code: 'the-code',
      code_verifier: 'the-verifier',
      redirect_uri: 'vscode://tenant-api.tenant-api-workbench/auth-callback',
    });
    const refresh = new URLSearchParams(String(fetch.withArgs('https://auth.test/connect/token').secondCall.args[1]?.body));
    assert.equal(refresh.get('grant_type'), 'refresh_token');
    assert.equal(refresh.get('refresh_token'), 'rt-1');
    assert.equal(refresh.get('scope'), 'openid api');
    assert.equal(refresh.has('client_secret'), false);
  });

  it('refuses a discovery document with another issuer or an unsafe endpoint, and sends nothing to it', async () => {
    const documents: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...discovery, issuer: 'https://attacker.test' }, /issuer https:\/\/attacker\.test/],
      [{ ...discovery, issuer: undefined }, /no issuer/],
      [{ ...discovery, token_endpoint: 'http://auth.test/connect/token' }, /unsafe token_endpoint/],
      [{ ...discovery, userinfo_endpoint: 'http://10.0.0.1/userinfo' }, /unsafe userinfo_endpoint/],
      [{ ...discovery, authorization_endpoint: 'javascript:alert(1)' }, /unsafe authorization_endpoint/],
      [{ ...discovery, device_authorization_endpoint: 'https://user:pw@auth.test/device' }, /unsafe device_authorization_endpoint/],
    ];
    for (const [document, message] of documents) {
      const fetch = sinon.stub<Parameters<Fetch>, ReturnType<Fetch>>();
      fetch.withArgs('https://auth.test/.well-known/openid-configuration').resolves(json(200, document));
      fetch.resolves(json(200, { access_token: 'at-1', token_type: 'Bearer' }));
      await assert.rejects(client(fetch).exchangeCode('the-code', 'the-verifier', 'vscode://x/auth-callback'), (error: Error) => {
        assert.equal(error.name, 'DiscoveryRejectedError');
        assert.match(error.message, message);
        return true;
      });
      assert.equal(fetch.callCount, 1, `only discovery was fetched (${message})`);
    }
  });

  it('accepts http endpoints on this computer and an issuer that differs only by a trailing slash', async () => {
    const local = {
      issuer: 'http://127.0.0.1:4401/',
      authorization_endpoint: 'http://127.0.0.1:4401/connect/authorize',
      token_endpoint: 'http://localhost:4401/connect/token',
      userinfo_endpoint: 'http://[::1]:4401/connect/userinfo',
    };
    const fetch = sinon.stub<Parameters<Fetch>, ReturnType<Fetch>>();
    fetch.resolves(json(200, local));
    const metadata = await new TokenClient({ authUrl: 'http://127.0.0.1:4401', clientId: 'c', fetch, logger: silentLogger }).discover();
    assert.equal(metadata.discovered, true);
    assert.equal(metadata.token_endpoint, 'http://localhost:4401/connect/token');
  });

  it("falls back to the spec's /connect paths when discovery fails, and retries discovery later", async () => {
    const fetch = sinon.stub<Parameters<Fetch>, ReturnType<Fetch>>();
    fetch.withArgs('https://auth.test/.well-known/openid-configuration').onFirstCall().rejects(new TypeError('fetch failed'));
    fetch.withArgs('https://auth.test/.well-known/openid-configuration').onSecondCall().resolves(json(200, discovery));
    const tokens = client(fetch);
    const fallback = await tokens.discover();
    assert.equal(fallback.discovered, false);
    assert.equal(fallback.token_endpoint, 'https://auth.test/connect/token');
    assert.equal(fallback.userinfo_endpoint, 'https://auth.test/connect/userinfo');
    assert.equal(fallback.authorization_endpoint, 'https://auth.test/connect/authorize');
    assert.equal(fallback.revocation_endpoint, undefined);
    const later = await tokens.discover();
    assert.equal(later.discovered, true);
    assert.equal(later.revocation_endpoint, 'https://auth.test/connect/revocation');
  });

  it('sends the client secret from secret storage when one is set', async () => {
    const fetch = sinon.stub<Parameters<Fetch>, ReturnType<Fetch>>();
    fetch.withArgs('https://auth.test/.well-known/openid-configuration').resolves(json(200, discovery));
    fetch.withArgs('https://auth.test/connect/token').resolves(json(200, { access_token: 'at-1', token_type: 'Bearer' }));
    await client(fetch, 'the-client-secret').refresh('rt-1');
    const body = new URLSearchParams(String(fetch.withArgs('https://auth.test/connect/token').firstCall.args[1]?.body));
    assert.equal(body.get('client_secret'), 'the-client-secret');
    assert.equal(redact('secret the-client-secret'), 'secret [redacted]');
  });

  it("turns an error response into an OAuthError with the server's description", async () => {
    const fetch = sinon.stub<Parameters<Fetch>, ReturnType<Fetch>>();
    fetch.withArgs('https://auth.test/.well-known/openid-configuration').resolves(json(200, discovery));
    fetch.withArgs('https://auth.test/connect/token').resolves(json(400, { error: 'invalid_grant', error_description: 'grant request is invalid' }));
    await assert.rejects(client(fetch).refresh('rt-1'), (error: unknown) => {
      assert.ok(error instanceof OAuthError);
      assert.equal(error.error, 'invalid_grant');
      assert.equal(error.status, 400);
      assert.match(error.message, /grant request is invalid/);
      return true;
    });
  });

  it('reports an unreachable server or a non-OAuth answer as a network error', async () => {
    const fetch = sinon.stub<Parameters<Fetch>, ReturnType<Fetch>>();
    fetch.withArgs('https://auth.test/.well-known/openid-configuration').resolves(json(200, discovery));
    fetch.withArgs('https://auth.test/connect/token').onFirstCall().rejects(new TypeError('fetch failed'));
    fetch.withArgs('https://auth.test/connect/token').onSecondCall().resolves(new Response('<html>Bad gateway</html>', { status: 502 }));
    const tokens = client(fetch);
    await assert.rejects(tokens.refresh('rt-1'), AuthNetworkError);
    await assert.rejects(tokens.refresh('rt-1'), (error: unknown) => error instanceof AuthNetworkError && /502/.test(error.message));
  });

  it('revokes only where discovery shows a revocation endpoint', async () => {
    const fetch = sinon.stub<Parameters<Fetch>, ReturnType<Fetch>>();
    fetch.withArgs('https://auth.test/.well-known/openid-configuration').resolves(json(200, { ...discovery, revocation_endpoint: undefined }));
    assert.equal(await client(fetch).revoke('rt-1', 'refresh_token'), false);
    assert.equal(fetch.callCount, 1);

    const withRevocation = sinon.stub<Parameters<Fetch>, ReturnType<Fetch>>();
    withRevocation.withArgs('https://auth.test/.well-known/openid-configuration').resolves(json(200, discovery));
    withRevocation.withArgs('https://auth.test/connect/revocation').resolves(new Response('', { status: 200 }));
    assert.equal(await client(withRevocation).revoke('rt-1', 'refresh_token'), true);
    const body = new URLSearchParams(String(withRevocation.withArgs('https://auth.test/connect/revocation').firstCall.args[1]?.body));
    assert.equal(body.get('token'), 'rt-1');
    assert.equal(body.get('token_type_hint'), 'refresh_token');
  });

  it('refuses the device flow when the server has no device endpoint', async () => {
    const fetch = sinon.stub<Parameters<Fetch>, ReturnType<Fetch>>();
    fetch.withArgs('https://auth.test/.well-known/openid-configuration').resolves(json(200, { ...discovery, device_authorization_endpoint: undefined }));
    await assert.rejects(client(fetch).startDeviceAuthorization(['openid']), (error: unknown) => error instanceof OAuthError && error.error === 'unsupported_grant_type');
  });
});
