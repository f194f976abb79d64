import { strict as assert } from 'node:assert';

import { startSandbox } from '../../sandbox/index';
import type { Sandbox } from '../../sandbox/types';
import { FormBrowser, SignInError, signInWithForm } from '../../helpers/signInWithForm';
import { authorizeUrl, basicAuth, DEFAULT_SCOPE, pkcePair, postToken, TEST_REDIRECT_URI, tokensFor } from '../../helpers/sandboxTokens';
import { call, decodeJwt, userOf } from './fixtures';

describe('sandbox: authorization server', () => {
  let sandbox: Sandbox;
  const DEV_PREFIX = 'http://127.0.0.1:8080/stable-abc123/callback';

  before(async () => {
    sandbox = await startSandbox({ accessTokenTtlSeconds: 60, extraRedirectUris: ['https://example.test/extra-callback'], devRedirectPrefixes: [DEV_PREFIX] });
  });
  after(async () => {
    await sandbox.close();
  });

  function codeRequest(overrides: Record<string, string | undefined> = {}) {
    const { verifier, challenge } = pkcePair();
    const url = authorizeUrl(sandbox, {
      client_id: sandbox.clients.public.clientId, response_type: 'code', scope: DEFAULT_SCOPE, redirect_uri: TEST_REDIRECT_URI,
      state: 'state-1', nonce: 'nonce-1', code_challenge: challenge, code_challenge_method: 'S256', ...overrides,
    });
    return { url, verifier };
  }

  async function exchange(code: string, verifier: string | undefined, redirectUri = TEST_REDIRECT_URI) {
    return postToken(sandbox, {
      grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: sandbox.clients.public.clientId,
      ...(verifier === undefined ? {} : { code_verifier: verifier }),
    });
  }

  const mario = () => userOf(sandbox, 'mario.rossi');

  it('publishes discovery with the spec paths and JWKS', async () => {
    const discovery = await (await fetch(sandbox.endpoints.discovery)).json() as Record<string, unknown>;
    assert.equal(discovery.issuer, sandbox.authUrl);
    assert.equal(discovery.authorization_endpoint, `${sandbox.authUrl}/connect/authorize`);
    assert.equal(discovery.token_endpoint, `${sandbox.authUrl}/connect/token`);
    assert.equal(discovery.userinfo_endpoint, `${sandbox.authUrl}/connect/userinfo`);
    assert.ok(discovery.device_authorization_endpoint);
    assert.ok(discovery.revocation_endpoint);
    assert.ok(discovery.end_session_endpoint);
    assert.deepEqual(discovery.code_challenge_methods_supported, ['S256']);
    assert.ok((discovery.grant_types_supported as string[]).includes('password'));
    const jwks = await (await fetch(String(discovery.jwks_uri))).json() as { keys: Array<Record<string, unknown>> };
    assert.equal(jwks.keys.length, 1);
    assert.equal(jwks.keys[0].kty, 'RSA');
    assert.equal(jwks.keys[0].d, undefined, 'JWKS must not publish the private key');
  });

  it('runs authorization code + PKCE S256 and issues a JWT access token for the API, an id_token and a refresh token', async () => {
    const { url, verifier } = codeRequest();
    const { redirectedTo, params } = await signInWithForm(url, mario());
    assert.equal(`${redirectedTo.origin}${redirectedTo.pathname}`, TEST_REDIRECT_URI);
    assert.equal(params.get('state'), 'state-1');
    const { status, json } = await exchange(params.get('code')!, verifier);
    assert.equal(status, 200, JSON.stringify(json));
    const at = decodeJwt(String(json.access_token));
    assert.equal(at.aud, sandbox.audience);
    assert.equal(at.iss, sandbox.authUrl);
    assert.equal(at.sub, mario().sub);
    assert.equal(at.client_id, sandbox.clients.public.clientId);
    assert.equal(Number(at.exp) - Number(at.iat), 60);
    assert.equal(json.expires_in, 60);
    assert.ok(typeof json.refresh_token === 'string' && json.refresh_token.length > 20);
    const idToken = decodeJwt(String(json.id_token));
    assert.equal(idToken.nonce, 'nonce-1');
    assert.equal(idToken.aud, sandbox.clients.public.clientId);
    assert.equal(idToken.name, 'Mario Rossi');
    assert.deepEqual(idToken.role, ['amministratore', 'utente']);
  });

  it('answers with response_mode=form_post when asked', async () => {
    const { url, verifier } = codeRequest({ response_mode: 'form_post' });
    const result = await signInWithForm(url, mario());
    assert.ok(result.formPost, 'the answer came as a form post');
    assert.equal(`${result.redirectedTo.origin}${result.redirectedTo.pathname}`, TEST_REDIRECT_URI);
    assert.equal(result.params.get('state'), 'state-1');
    assert.equal((await exchange(result.params.get('code')!, verifier)).status, 200);
  });

  it('refuses PKCE plain, a missing challenge, a missing verifier and a wrong verifier', async () => {
    const plain = authorizeUrl(sandbox, {
      client_id: sandbox.clients.public.clientId, response_type: 'code', scope: 'openid', redirect_uri: TEST_REDIRECT_URI,
      state: 's', code_challenge: 'a'.repeat(43), code_challenge_method: 'plain',
    });
    const plainResult = await signInWithForm(plain, mario());
    assert.equal(plainResult.params.get('error'), 'invalid_request');
    assert.match(plainResult.params.get('error_description') ?? '', /code_challenge_method/);

    const none = authorizeUrl(sandbox, {
      client_id: sandbox.clients.public.clientId, response_type: 'code', scope: 'openid', redirect_uri: TEST_REDIRECT_URI, state: 's',
    });
    const noneResult = await signInWithForm(none, mario());
    assert.equal(noneResult.params.get('error'), 'invalid_request');
    assert.match(noneResult.params.get('error_description') ?? '', /PKCE/);

    for (const verifier of [undefined, pkcePair().verifier]) {
      const { url } = codeRequest();
      const { params } = await signInWithForm(url, mario());
      const { status, json } = await exchange(params.get('code')!, verifier);
      assert.equal(status, 400);
      assert.equal(json.error, 'invalid_grant', JSON.stringify(json));
    }
  });

  describe('redirect URIs', () => {
    const accepted = [
      'vscode://tenant-api.tenant-api-workbench/auth-callback',
      'vscode-insiders://tenant-api.tenant-api-workbench/auth-callback',
      'code-oss://tenant-api.tenant-api-workbench/auth-callback',
      'http://127.0.0.1:49152/auth-callback',
      'http://127.0.0.1:3/auth-callback',
      'https://example.test/extra-callback',
      `${DEV_PREFIX}?vscode-reqid=7&vscode-scheme=code-oss&vscode-authority=tenant-api.tenant-api-workbench&vscode-path=/auth-callback`,
    ];
    const refused = [
      'vscode://tenant-api.tenant-api-workbench/auth-callback/',
      'vscode://tenant-api.tenant-api-workbench/other',
      'vscode://someone-else.extension/auth-callback',
      'http://localhost:49152/auth-callback',
      'http://127.0.0.1:49152/other-path',
      'https://example.test/extra-callback?x=1',
      'http://127.0.0.1:8081/stable-abc123/callback',
    ];
    for (const uri of accepted) {
      it(`accepts ${uri}`, async () => {
        const { url, verifier } = codeRequest({ redirect_uri: uri });
        const { redirectedTo, params } = await signInWithForm(url, mario());
        assert.ok(redirectedTo.href.startsWith(uri.split('?')[0]), redirectedTo.href);
        const { status } = await exchange(params.get('code')!, verifier, uri);
        assert.equal(status, 200);
      });
    }
    for (const uri of refused) {
      it(`refuses ${uri}`, async () => {
        const { url } = codeRequest({ redirect_uri: uri });
        await assert.rejects(signInWithForm(url, mario()), (err: SignInError) => err.status === 400 && /redirect_uri/.test(err.message));
      });
    }
    it('accepts the dev prefix only when configured', async () => {
      const plain = await startSandbox();
      try {
        const url = authorizeUrl(plain, {
          client_id: plain.clients.public.clientId, response_type: 'code', scope: 'openid', state: 's',
          redirect_uri: `${DEV_PREFIX}?vscode-reqid=1`, code_challenge: pkcePair().challenge, code_challenge_method: 'S256',
        });
        await assert.rejects(signInWithForm(url, userOf(plain, 'mario.rossi')), /redirect_uri/);
      } finally {
        await plain.close();
      }
    });
    it('refuses a code exchanged with another redirect_uri than the authorization request', async () => {
      const { url, verifier } = codeRequest();
      const { params } = await signInWithForm(url, mario());
      const { status, json } = await exchange(params.get('code')!, verifier, 'http://127.0.0.1:10/auth-callback');
      assert.equal(status, 400);
      assert.equal(json.error, 'invalid_grant');
    });
  });

  it('rotates refresh tokens: the new one works, the old one is refused', async () => {
    const tokens = await tokensFor(sandbox, 'laura.verdi');
    const first = await postToken(sandbox, { grant_type: 'refresh_token', refresh_token: tokens.refreshToken!, client_id: sandbox.clients.public.clientId });
    assert.equal(first.status, 200, JSON.stringify(first.json));
    assert.notEqual(first.json.refresh_token, tokens.refreshToken);
    assert.notEqual(first.json.access_token, tokens.accessToken);
    const replay = await postToken(sandbox, { grant_type: 'refresh_token', refresh_token: tokens.refreshToken!, client_id: sandbox.clients.public.clientId });
    assert.equal(replay.status, 400);
    assert.equal(replay.json.error, 'invalid_grant');
  });

  it('serves userinfo for the access token the client got, and refuses a forged one', async () => {
    const tokens = await tokensFor(sandbox, 'mario.rossi');
    const res = await fetch(sandbox.endpoints.userinfo, { headers: { authorization: `Bearer ${tokens.accessToken}` } });
    assert.equal(res.status, 200);
    const claims = await res.json() as Record<string, unknown>;
    assert.deepEqual(claims, {
      sub: mario().sub, name: 'Mario Rossi', given_name: 'Mario', family_name: 'Rossi', role: ['amministratore', 'utente'],
    });
    const forged = `${tokens.accessToken.slice(0, -4)}AAAA`;
    const bad = await fetch(sandbox.endpoints.userinfo, { headers: { authorization: `Bearer ${forged}` } });
    assert.equal(bad.status, 401);
    assert.match(bad.headers.get('www-authenticate') ?? '', /invalid_token/);
    const openidless = await tokensFor(sandbox, 'mario.rossi', { scope: 'api' });
    const noOpenid = await fetch(sandbox.endpoints.userinfo, { headers: { authorization: `Bearer ${openidless.accessToken}` } });
    assert.equal(noOpenid.status, 403);
  });

  it('supports the password grant for the test client only', async () => {
    const tokens = await tokensFor(sandbox, 'laura.verdi', { grant: 'password' });
    assert.equal(decodeJwt(tokens.accessToken).aud, sandbox.audience);
    assert.ok(tokens.refreshToken);
    assert.equal(decodeJwt(tokens.idToken!).given_name, 'Laura');
    const wrong = await postToken(sandbox, { grant_type: 'password', username: 'laura.verdi', password: 'nope' },
      { authorization: basicAuth(sandbox.clients.password.clientId, sandbox.clients.password.clientSecret) });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.json.error, 'invalid_grant');
    const publicClient = await postToken(sandbox, { grant_type: 'password', username: 'laura.verdi', password: 'Sandbox!Laura1', client_id: sandbox.clients.public.clientId });
    assert.equal(publicClient.status, 400);
    assert.match(String(publicClient.json.error_description), /grant type is not allowed for this client/);
  });

  it('issues client_credentials tokens to the confidential client, with the API audience and no user', async () => {
    const { clientId, clientSecret } = sandbox.clients.confidential;
    const ok = await postToken(sandbox, { grant_type: 'client_credentials', scope: 'api' }, { authorization: basicAuth(clientId, clientSecret) });
    assert.equal(ok.status, 200, JSON.stringify(ok.json));
    const at = decodeJwt(String(ok.json.access_token));
    assert.equal(at.aud, sandbox.audience);
    assert.equal(at.sub, clientId);
    const tenants = await call(`${sandbox.baseUrl}/v10/user-tenants`, { token: String(ok.json.access_token) });
    assert.equal(tenants.status, 200);
    assert.deepEqual(tenants.json, []);
    const bad = await postToken(sandbox, { grant_type: 'client_credentials', scope: 'api' }, { authorization: basicAuth(clientId, 'wrong') });
    assert.equal(bad.status, 401);
    assert.equal(bad.json.error, 'invalid_client');
  });

  it('revokes a refresh token (and its grant) and an access token', async () => {
    const tokens = await tokensFor(sandbox, 'mario.rossi');
    const revoke = (token: string) => fetch(sandbox.endpoints.revocation, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, client_id: sandbox.clients.public.clientId }),
    });
    const tenantsBefore = await call(`${sandbox.baseUrl}/v10/user-tenants`, { token: tokens.accessToken });
    assert.equal(tenantsBefore.status, 200);
    assert.equal((await revoke(tokens.refreshToken!)).status, 200);
    const refresh = await postToken(sandbox, { grant_type: 'refresh_token', refresh_token: tokens.refreshToken!, client_id: sandbox.clients.public.clientId });
    assert.equal(refresh.json.error, 'invalid_grant');
    const tenantsAfter = await call(`${sandbox.baseUrl}/v10/user-tenants`, { token: tokens.accessToken });
    assert.equal(tenantsAfter.status, 401, 'revoking the refresh token revokes the grant and its access tokens');

    const second = await tokensFor(sandbox, 'mario.rossi');
    assert.equal((await revoke(second.accessToken)).status, 200);
    const afterAccessRevoke = await call(`${sandbox.baseUrl}/v10/user-tenants`, { token: second.accessToken });
    assert.equal(afterAccessRevoke.status, 401);
    assert.match(String(afterAccessRevoke.json.message), /revoked/);
  });

  it('revokeAllTokens() invalidates every grant and access token issued so far, not later ones', async () => {
    const local = await startSandbox();
    try {
      const user = await tokensFor(local, 'laura.verdi');
      const { clientId, clientSecret } = local.clients.confidential;
      const service = await postToken(local, { grant_type: 'client_credentials', scope: 'api' }, { authorization: basicAuth(clientId, clientSecret) });
      local.revokeAllTokens();
      assert.equal((await call(`${local.baseUrl}/v10/user-tenants`, { token: user.accessToken })).status, 401);
      assert.equal((await call(`${local.baseUrl}/v10/user-tenants`, { token: String(service.json.access_token) })).status, 401);
      const refresh = await postToken(local, { grant_type: 'refresh_token', refresh_token: user.refreshToken!, client_id: local.clients.public.clientId });
      assert.equal(refresh.json.error, 'invalid_grant');
      const fresh = await tokensFor(local, 'laura.verdi');
      assert.equal((await call(`${local.baseUrl}/v10/user-tenants`, { token: fresh.accessToken })).status, 200);
    } finally {
      await local.close();
    }
  });

  describe('sign-in page and prompts', () => {
    it('shows a form with username and password fields, pre-fills login_hint and speaks Italian for ui_locales=it', async () => {
      const { url } = codeRequest({ login_hint: 'laura.verdi', ui_locales: 'it-IT en' });
      const res = await fetch(url, { redirect: 'manual' });
      const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
      const page = await fetch(new URL(res.headers.get('location')!, url), { headers: { cookie } });
      const html = await page.text();
      assert.equal(page.status, 200);
      assert.match(html, /<html lang="it">/);
      assert.match(html, /name="username" value="laura.verdi"/);
      assert.match(html, /type="password" id="password" name="password"/);
      assert.match(html, /Accedi/);
    });

    it('refuses a wrong password with the form again and a message, keeping the user name typed', async () => {
      const { url } = codeRequest();
      await assert.rejects(signInWithForm(url, { username: 'mario.rossi', password: 'wrong' }),
        (err: SignInError) => err.status === 401 && /not correct/.test(err.message)
          && /<input type="text" id="username" name="username" value="mario\.rossi"/.test(err.html)
          && /<input type="password" id="password" name="password" autofocus/.test(err.html));
    });

    it('returns access_denied when the user cancels', async () => {
      const { url } = codeRequest();
      const { params } = await signInWithForm(url, mario(), { deny: true });
      assert.equal(params.get('error'), 'access_denied');
      assert.equal(params.get('state'), 'state-1');
    });

    it('prompt=none: login_required without a session, a code with one; prompt=login shows the form again', async () => {
      const browser = new FormBrowser();
      const noSession = await browser.signIn(codeRequest({ prompt: 'none' }).url);
      assert.equal(noSession.params.get('error'), 'login_required');
      await browser.signIn(codeRequest().url, mario());
      const silent = await browser.signIn(codeRequest({ prompt: 'none' }).url);
      assert.ok(silent.params.get('code'), silent.params.toString());
      await assert.rejects(browser.signIn(codeRequest({ prompt: 'login' }).url), /no credentials/);
      const again = await browser.signIn(codeRequest({ prompt: 'login' }).url, userOf(sandbox, 'laura.verdi'));
      assert.ok(again.params.get('code'));
    });

    it('asks for consent on a separate page when a signed-in user is asked for more scopes', async () => {
      const browser = new FormBrowser();
      await browser.signIn(codeRequest({ scope: 'openid' }).url, mario());
      const silent = await browser.signIn(codeRequest({ prompt: 'none' }).url);
      assert.equal(silent.params.get('error'), 'consent_required');
      const denied = await browser.signIn(codeRequest().url, undefined, { deny: true });
      assert.equal(denied.params.get('error'), 'access_denied');
      const { url, verifier } = codeRequest();
      const pages: string[] = [];
      const allowed = await browser.signIn(url, undefined, { onPage: (page, html) => pages.push(`${page}: ${html}`) });
      // The consent page names the account the browser is signed in as, and offers to switch.
      assert.equal(pages.length, 1, pages.join('\n'));
      assert.match(pages[0], /^consent: /);
      assert.match(pages[0], /<p id="account">Signed in as <strong>Mario Rossi<\/strong> \(mario\.rossi\)<\/p>/);
      assert.match(pages[0], /id="switch-account" href="\/interaction\/[^"]+\/switch"/);
      const { status, json } = await exchange(allowed.params.get('code')!, verifier);
      assert.equal(status, 200);
      assert.equal(decodeJwt(String(json.id_token)).name, 'Mario Rossi');
    });

    it('"Not you?" on the consent page shows the login form; signing in there gives the other account', async () => {
      const browser = new FormBrowser();
      await browser.signIn(codeRequest({ scope: 'openid' }).url, mario());
      // What a person does on the consent page: follow the link instead of Allow.
      const { url, verifier } = codeRequest();
      let consentHtml = '';
      const stopAtConsent = (page: string, html: string) => {
        if (page !== 'consent') return;
        consentHtml = html;
        throw new Error('stopped on the consent page');
      };
      await assert.rejects(browser.signIn(url, undefined, { onPage: stopAtConsent }), /stopped on the consent page/);
      const switchPath = /id="switch-account" href="([^"]+)"/.exec(consentHtml)?.[1];
      assert.ok(switchPath, consentHtml);
      const result = await browser.signIn(new URL(switchPath.replace(/&amp;/g, '&'), sandbox.authUrl), userOf(sandbox, 'laura.verdi'));
      const { json } = await exchange(result.params.get('code')!, verifier);
      assert.equal(decodeJwt(String(json.id_token)).sub, userOf(sandbox, 'laura.verdi').sub);
    });

    it('max_age: a session older than max_age (0 here) must sign in again', async () => {
      const browser = new FormBrowser();
      await browser.signIn(codeRequest().url, mario());
      const stale = await browser.signIn(codeRequest({ max_age: '0', prompt: 'none' }).url);
      assert.equal(stale.params.get('error'), 'login_required');
      const fresh = await browser.signIn(codeRequest({ max_age: '3600', prompt: 'none' }).url);
      assert.ok(fresh.params.get('code'));
    });

    it('acr_values tenant:<id> selects a tenant (tenant claim) and refuses a tenant the user lacks', async () => {
      const tenant = sandbox.tenants.find((t) => t.codiceAmbienteDati === 'RC-TO')!;
      const tokens = await tokensFor(sandbox, 'mario.rossi', { tenantId: tenant.id });
      assert.equal(decodeJwt(tokens.idToken!).tenant, tenant.id);
      assert.equal(decodeJwt(tokens.idToken!).acr, `tenant:${tenant.id}`);
      assert.equal(decodeJwt(tokens.accessToken).tenant, tenant.id);
      await assert.rejects(tokensFor(sandbox, 'laura.verdi', { tenantId: tenant.id }),
        (err: SignInError) => err.status === 403 && /no access/.test(err.message));

      const browser = new FormBrowser();
      await browser.signIn(codeRequest().url, userOf(sandbox, 'laura.verdi'));
      const silent = await browser.signIn(codeRequest({ prompt: 'none', acr_values: `tenant:${tenant.id}` }).url);
      assert.equal(silent.params.get('error'), 'login_required');
    });
  });

  describe('device authorization', () => {
    it('announces the interval, answers slow_down when polled too fast, then issues tokens after approval', async () => {
      const device = await startSandbox({ deviceCodeIntervalSeconds: 1 });
      try {
        const res = await fetch(device.endpoints.deviceAuthorization, {
          method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ client_id: device.clients.public.clientId, scope: DEFAULT_SCOPE }),
        });
        const auth = await res.json() as Record<string, string | number>;
        assert.equal(res.status, 200, JSON.stringify(auth));
        assert.equal(auth.interval, 1);
        assert.equal(auth.verification_uri, device.endpoints.deviceVerification);
        const poll = () => postToken(device, {
          grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: String(auth.device_code), client_id: device.clients.public.clientId,
        });
        assert.equal((await poll()).json.error, 'authorization_pending');
        const tooFast = await poll();
        assert.equal(tooFast.json.error, 'slow_down');
        assert.match(String(tooFast.json.error_description), /6 seconds/);

        const approved = await new FormBrowser().approveDevice(String(auth.verification_uri_complete), userOf(device, 'laura.verdi'));
        assert.equal(approved.page, 'device-done');
        await new Promise((r) => setTimeout(r, 10));
        const tokens = await poll();
        assert.equal(tokens.status, 200, JSON.stringify(tokens.json));
        assert.equal(decodeJwt(String(tokens.json.access_token)).sub, userOf(device, 'laura.verdi').sub);
        assert.ok(tokens.json.refresh_token);
      } finally {
        await device.close();
      }
    });

    it('approves through the plain verification page with a typed user code', async () => {
      const res = await fetch(sandbox.endpoints.deviceAuthorization, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: sandbox.clients.public.clientId, scope: 'openid api' }),
      });
      const auth = await res.json() as Record<string, string>;
      const approved = await new FormBrowser().approveDevice(auth.verification_uri, mario(), auth.user_code);
      assert.equal(approved.page, 'device-done');
      const tokens = await postToken(sandbox, {
        grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: auth.device_code, client_id: sandbox.clients.public.clientId,
      });
      assert.equal(tokens.status, 200, JSON.stringify(tokens.json));
    });
  });

  it('ends the session at the end-session endpoint', async () => {
    const browser = new FormBrowser();
    await browser.signIn(codeRequest().url, mario());
    const host = new URL(sandbox.authUrl).host;
    const cookieHeader = () => [...(browser.cookies.get(host) ?? [])].map(([n, v]) => `${n}=${v}`).join('; ');
    const page = await fetch(sandbox.endpoints.endSession, { headers: { cookie: cookieHeader() } });
    const html = await page.text();
    assert.equal(page.status, 200);
    const action = /action="([^"]+)"/.exec(html)![1];
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1];
    const done = await fetch(new URL(action, sandbox.authUrl), {
      method: 'POST', redirect: 'manual', headers: { cookie: cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf, logout: 'yes' }),
    });
    assert.ok([200, 303].includes(done.status), String(done.status));
    for (const line of done.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair.split('=');
      if (value) browser.cookies.get(host)?.set(name, value); else browser.cookies.get(host)?.delete(name);
    }
    const silent = await browser.signIn(codeRequest({ prompt: 'none' }).url);
    assert.equal(silent.params.get('error'), 'login_required');
  });
});
