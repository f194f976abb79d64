import * as assert from 'node:assert/strict';
import { ApiClient } from '../../../src/api/apiClient';
import { isApiError, type ApiError } from '../../../src/api/errors';
import { LicenceKeyStore } from '../../../src/api/licenceKeyStore';
import type { ApiResponse } from '../../../src/api/types';
import { TokenClient } from '../../../src/auth/tokenClient';
import { redactingLogger } from '../../../src/common/redact';
import { formatResponse } from '../../../src/views/responseFormat';
import { InMemorySecretStore } from '../../helpers/inMemorySecretStore';
import { hostileServer, leaked, recordingLogger, type HostileServer, type Received } from './hostileServer';

const stamp = Date.now().toString(36);
/** Opaque values (no JWT shape, no "Bearer" or header name next to them): only registration can find them. */
const ACCESS_TOKEN = `opaqueAT${stamp}x1`;
const REFRESH_TOKEN = `opaqueRT${stamp}x2`;
const KEY = `LICKEY${stamp}X3`;
const STORED_KEY = `STOREDKEY${stamp}X4`;
const SECRETS = [ACCESS_TOKEN, REFRESH_TOKEN, KEY, STORED_KEY];

/** What a hostile API host answers: each case echoes the secrets it received somewhere. */
interface Echo {
  name: string;
  path: string;
  answer(request: Received): { status: number; statusText?: string; headers?: Record<string, string>; body: string };
}

const echoed = (request: Received) => `key ${String(request.headers['authorization-key'])} and token ${String(request.headers.authorization).replace(/^Bearer /, '')} refused`;
const json = (value: unknown) => JSON.stringify(value);

const ECHOES: Echo[] = [
  { name: '400 with both in the JSON message', path: '/api/a', answer: (r) => ({ status: 400, body: json({ error: 'bad_request', message: echoed(r) }) }) },
  { name: '401 twice (a refresh in between) with both in the message', path: '/api/b', answer: (r) => ({ status: 401, body: json({ error: 'invalid_token', message: echoed(r) }) }) },
  { name: '403 unknown_licence_key echoing the key', path: '/api/c', answer: (r) => ({ status: 403, body: json({ error: 'unknown_licence_key', message: echoed(r) }) }) },
  { name: '404 with the key in a response header', path: '/api/d', answer: (r) => ({ status: 404, headers: { 'X-Echo': echoed(r) }, body: json({ message: echoed(r) }) }) },
  { name: '500 with both in the message', path: '/api/e', answer: (r) => ({ status: 500, body: json({ message: echoed(r) }) }) },
  { name: '400 missing_tenant whose message the user sees', path: '/api/f', answer: (r) => ({ status: 400, body: json({ error: 'missing_tenant', message: echoed(r) }) }) },
  { name: '429 naming the second, with both in the message', path: '/api/g', answer: (r) => ({ status: 429, headers: { 'Retry-After': '0' }, body: json({ limit: 'second', message: echoed(r) }) }) },
  { name: '400 plain-text body', path: '/api/h', answer: (r) => ({ status: 400, headers: { 'Content-Type': 'text/plain' }, body: echoed(r) }) },
  { name: '400 with both in the status text', path: '/api/i', answer: (r) => ({ status: 400, statusText: `Refused ${String(r.headers['authorization-key'])}`, body: '{}' }) },
  { name: '200 with both in response headers', path: '/api/j', answer: (r) => ({ status: 200, headers: { 'X-Debug': echoed(r), 'X-Key': String(r.headers['authorization-key']) }, body: '{}' }) },
  { name: '403 licence_module_mismatch naming the key as module', path: '/api/k', answer: (r) => ({ status: 403, body: json({ error: 'licence_module_mismatch', module: String(r.headers['authorization-key']), message: echoed(r) }) }) },
];


describe('attack list: secrets echoed by servers', () => {
  let auth: HostileServer;
  let api: HostileServer;
  const log = recordingLogger();
  const found: Array<{ where: string; secrets: string[] }> = [];
  const check = (where: string, text: string) => {
    const secrets = leaked(text, SECRETS);
    if (secrets.length) found.push({ where, secrets });
  };

  before(async () => {
    // An authorization server that issues opaque tokens, and echoes the refresh token when it refuses one.
    auth = await hostileServer((request, response) => {
      response.setHeader('Content-Type', 'application/json');
      if (request.path === '/.well-known/openid-configuration') {
        return response.end(json({ issuer: auth.url, authorization_endpoint: `${auth.url}/authorize`, token_endpoint: `${auth.url}/token`, userinfo_endpoint: `${auth.url}/userinfo` }));
      }
      const form = new URLSearchParams(request.body);
      if (form.get('refresh_token') === REFRESH_TOKEN) return response.end(json({ access_token: ACCESS_TOKEN, token_type: 'Bearer', refresh_token: REFRESH_TOKEN, expires_in: 300 }));
      response.statusCode = 400;
      response.end(json({ error: 'invalid_grant', error_description: `refresh token ${form.get('refresh_token')} is unknown; yours was ${REFRESH_TOKEN}` }));
    });
    api = await hostileServer((request, response) => {
      const echo = ECHOES.find((e) => request.path.startsWith(e.path))!;
      const answer = echo.answer(request);
      response.statusCode = answer.status;
      if (answer.statusText) response.statusMessage = answer.statusText;
      response.setHeader('Content-Type', 'application/json');
      for (const [name, value] of Object.entries(answer.headers ?? {})) response.setHeader(name, value);
      response.end(answer.body);
    });
  });
  after(async () => {
    await auth.close();
    await api.close();
  });

  it(`no secret reaches the log, an error, its details or the response tab's header block (${ECHOES.length} API echoes)`, async () => {
    const logger = redactingLogger(log);
    // The token in use comes from a real token endpoint (TokenClient registers what it receives).
    const tokenClient = new TokenClient({ authUrl: auth.url, clientId: 'c', fetch, logger });
    const tokens = await tokenClient.refresh(REFRESH_TOKEN);
    assert.equal(tokens.access_token, ACCESS_TOKEN);
    // One key set in this window, one stored by another window and only read.
    const secrets = new InMemorySecretStore();
    secrets.values.set('tenantApi.licenceKey.core', json({ key: STORED_KEY, label: 'core', organization: 'Acme' }));
    const keys = new LicenceKeyStore(secrets);
    const client = (module: string) =>
      new ApiClient({
        settings: () => ({ baseUrl: api.url, allowedHosts: [], routes: [{ prefix: '/api/', host: 'base', module }], endpoints: [], requestTimeoutSeconds: 5, safetyMarginMs: 0, maxQueueLength: 100, maxRetries: 0 }),
        tokens: { getAccessToken: async () => ACCESS_TOKEN },
        licenceKeys: keys,
        logger,
      });
    await keys.set('sales', { key: KEY, label: 'sales', organization: 'Acme' });

    let calls = 0;
    for (const module of ['core', 'sales']) {
      for (const echo of ECHOES) {
        calls++;
        let response: ApiResponse | undefined;
        let error: ApiError | undefined;
        try {
          response = await client(module).send({ method: 'GET', path: echo.path });
        } catch (caught) {
          assert.ok(isApiError(caught), String(caught));
          error = caught;
        }
        const shown = response ?? error?.details.response;
        if (error) {
          check(`${echo.name}: error message`, error.message);
          check(`${echo.name}: describe()`, error.describe());
          const { response: _response, cause: _cause, ...details } = error.details;
          check(`${echo.name}: details`, JSON.stringify(details));
        }
        if (shown) {
          const warnings = error ? [error.message] : [];
          const header = formatResponse({ ...shown, warnings }).text.split('\n').filter((line) => line.startsWith('//')).join('\n');
          check(`${echo.name}: response tab header block`, header);
        }
      }
    }
    // The authorization server echoes refresh tokens in error_description.
    const refused = await tokenClient.refresh(`${REFRESH_TOKEN}-old`).catch((e: Error) => e);
    assert.ok(refused instanceof Error);
    check('OAuthError message', `${refused.message} ${(refused as { description?: string }).description ?? ''}`);
    logger.warn(`refresh refused: ${refused.message}`);

    check('the log', log.lines.join('\n'));
    assert.ok(api.received.some((request) => request.headers['authorization-key'] === KEY) && api.received.some((request) => request.headers['authorization-key'] === STORED_KEY), 'both keys were sent and echoed');
    assert.ok(log.lines.length > calls, 'the log has lines to search');
    assert.deepEqual(found, [], `secrets found: ${JSON.stringify(found, null, 1)}`);
  });
});
