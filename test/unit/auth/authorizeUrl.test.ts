import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { buildAuthorizeUrl, createAttemptSecrets } from '../../../src/auth/authorizeUrl';

describe('authorize URL', () => {
  const base = {
    clientId: 'tenant-api-workbench',
    redirectUri: 'vscode://tenant-api.tenant-api-workbench/auth-callback',
    scopes: ['openid', 'profile', 'offline_access', 'api'],
    state: 'the-state',
    nonce: 'the-nonce',
    codeChallenge: 'the-challenge',
  };

  it('carries every parameter of a code + PKCE request', () => {
    const url = new URL(buildAuthorizeUrl('https://auth.example.com/connect/authorize', {
      ...base,
      uiLocales: 'it',
      loginHint: 'mario.rossi',
      forceLogin: true,
      tenantId: '6f1c2a9e-0000-4000-8000-000000000001',
    }));
    assert.equal(url.origin + url.pathname, 'https://auth.example.com/connect/authorize');
    const query = Object.fromEntries(url.searchParams);
    assert.deepEqual(query, {
      client_id: 'tenant-api-workbench',
      redirect_uri: 'vscode://tenant-api.tenant-api-workbench/auth-callback',
      response_type: 'code',
      scope: 'openid profile offline_access api',
      state: 'the-state',
      nonce: 'the-nonce',
      code_challenge: 'the-challenge',
      code_challenge_method: 'S256',
      ui_locales: 'it',
      login_hint: 'mario.rossi',
      prompt: 'login',
      acr_values: 'tenant:6f1c2a9e-0000-4000-8000-000000000001',
    });
  });

  it('leaves out the optional parameters when not asked for', () => {
    const url = new URL(buildAuthorizeUrl('https://auth.example.com/connect/authorize', base));
    for (const name of ['ui_locales', 'login_hint', 'prompt', 'acr_values']) assert.equal(url.searchParams.has(name), false, name);
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
  });

  it('keeps a redirect URI with its own query intact (browser-hosted editors)', () => {
    const redirectUri = 'http://127.0.0.1:8080/callback?vscode-reqid=3&vscode-scheme=code-oss&vscode-authority=tenant-api.tenant-api-workbench&vscode-path=/auth-callback';
    const url = new URL(buildAuthorizeUrl('http://127.0.0.1:9000/connect/authorize', { ...base, redirectUri }));
    assert.equal(url.searchParams.get('redirect_uri'), redirectUri);
  });

  it('creates a fresh state, nonce and an S256 challenge of the verifier', async () => {
    const first = await createAttemptSecrets();
    const second = await createAttemptSecrets();
    assert.notEqual(first.state, second.state);
    assert.notEqual(first.nonce, second.nonce);
    assert.notEqual(first.codeVerifier, second.codeVerifier);
    assert.ok(first.state.length >= 43);
    assert.match(first.codeVerifier, /^[A-Za-z0-9._~-]{43,128}$/);
    const expected = createHash('sha256').update(first.codeVerifier).digest('base64url');
    assert.equal(first.codeChallenge, expected);
    assert.notEqual(first.codeChallenge, first.codeVerifier);
  });
});
