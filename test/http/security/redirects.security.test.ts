import * as assert from 'node:assert/strict';
import { ApiClient } from '../../../src/api/apiClient';
import { isApiError } from '../../../src/api/errors';
import { LicenceKeyStore } from '../../../src/api/licenceKeyStore';
import { InMemorySecretStore } from '../../helpers/inMemorySecretStore';
import { hostileServer, type HostileServer } from './hostileServer';

const TOKEN = 'redirect-attack-token-0001';
const KEY = 'REDIRECTATTACKKEY0001';

/**
 * Attack list: the API host (or whoever answers for it) redirects a call so that the token and the
 * licence key would reach another place. Over real HTTP on 127.0.0.1: an API server that redirects as
 * told, and an attacker server that records what it got.
 */
/** A secret header the user wrote on the request, whose name the extension cannot know. */
const USER_SECRET = 'user-written-secret-5c1a';

describe('attack list: redirects', () => {
  let api: HostileServer;
  let attacker: HostileServer;
  let location = '';
  let status = 302;

  before(async () => {
    attacker = await hostileServer((request, response) => {
      response.setHeader('Content-Type', 'application/json');
      if (request.path === '/back') {
        response.statusCode = 302;
        response.setHeader('Location', `${api.url}/api/landed`);
      } else if (request.path === '/want-credentials') {
        response.statusCode = 401;
      }
      response.end('{}');
    });
    api = await hostileServer((request, response) => {
      response.setHeader('Content-Type', 'application/json');
      if (request.path.startsWith('/api/redirect')) {
        response.statusCode = status;
        response.setHeader('Location', location.replace('ATTACKER', attacker.url).replace('API', api.url));
      }
      response.end('{}');
    });
  });
  after(async () => {
    await api.close();
    await attacker.close();
  });
  beforeEach(() => {
    api.received.length = 0;
    attacker.received.length = 0;
  });

  async function client(): Promise<ApiClient> {
    const keys = new LicenceKeyStore(new InMemorySecretStore());
    await keys.set('core', { key: KEY, label: 'core', organization: 'Acme' });
    return new ApiClient({
      settings: () => ({ baseUrl: api.url, allowedHosts: [], routes: [], endpoints: [], requestTimeoutSeconds: 5, safetyMarginMs: 0, maxQueueLength: 100, maxRetries: 0 }),
      tokens: { getAccessToken: async () => TOKEN },
      licenceKeys: keys,
    });
  }

  const credentialsAt = (server: HostileServer) =>
    server.received.filter((request) => {
      const headers = JSON.stringify(request.headers);
      return request.headers.authorization || request.headers['authorization-key'] || [TOKEN, KEY, USER_SECRET].some((secret) => headers.includes(secret));
    });

  /** Followed, but without credentials: the attacker gets the request and nothing secret. */
  const followedBare: Array<[number, string]> = [
    [301, 'ATTACKER/steal'],
    [302, 'ATTACKER/steal'],
    [303, 'ATTACKER/steal'],
    [307, 'ATTACKER/steal'],
    [308, 'ATTACKER/steal'],
    [302, '//127.0.0.1:PORT/steal'], // protocol-relative
    [302, 'ATTACKER/back'], // and back to the API host: the credentials stay dropped
  ];
  /** Not followed at all. */
  const refused: string[] = [
    'http://attacker.example/steal', // plain http off this computer
    'javascript:alert(1)',
    'file:///etc/passwd',
    'data:text/plain,x',
    'ftp://127.0.0.1/steal',
    'http://user:pw@127.0.0.1:PORT/steal', // credentials in the URL
    'http://[not an address/',
  ];


  for (const [redirectStatus, target] of followedBare) {
    it(`${redirectStatus} to ${target}: followed without the token, the key or the user's own header`, async () => {
      status = redirectStatus;
      location = target.replace('PORT', new URL(attacker.url).port);
      const response = await (await client()).send({ method: 'GET', path: '/api/redirect', headers: { 'X-Api-Secret': USER_SECRET } });
      assert.equal(response.status, 200);
      assert.ok(attacker.received.length >= 1, 'the attacker was reached');
      assert.deepEqual(credentialsAt(attacker), [], 'no credentials at the attacker');
      assert.equal(credentialsAt(api).length, 1, 'only the first call carried them');
    });
  }

  for (const target of refused) {
    it(`302 to ${target}: not followed, nothing sent there`, async () => {
      status = 302;
      location = target.replace('PORT', new URL(attacker.url).port);
      const error = await (await client()).send({ method: 'GET', path: '/api/redirect' }).catch((e: unknown) => e);
      assert.ok(isApiError(error) && error.kind === 'hostValidation', String(error));
      assert.deepEqual(attacker.received, []);
    });
  }

  it('a redirect loop is stopped after 5 hops', async () => {
    status = 302;
    location = 'API/api/redirect';
    const error = await (await client()).send({ method: 'GET', path: '/api/redirect' }).catch((e: unknown) => e);
    assert.ok(isApiError(error) && error.kind === 'hostValidation' && /more than 5 redirects/.test(error.message), String(error));
    assert.equal(api.received.length, 6);
  });

  it('an attacker that answers 401 after a redirect gets no credentials and causes no token refresh', async () => {
    status = 302;
    location = 'ATTACKER/want-credentials';
    let refreshes = 0;
    const keys = new LicenceKeyStore(new InMemorySecretStore());
    await keys.set('core', { key: KEY, label: 'core', organization: 'Acme' });
    const api401 = new ApiClient({
      settings: () => ({ baseUrl: api.url, allowedHosts: [], routes: [], endpoints: [], requestTimeoutSeconds: 5, safetyMarginMs: 0, maxQueueLength: 100, maxRetries: 0 }),
      tokens: { getAccessToken: async (options) => ((refreshes += options?.forceRefresh ? 1 : 0), TOKEN) },
      licenceKeys: keys,
    });
    const error = await api401.send({ method: 'GET', path: '/api/redirect' }).catch((e: unknown) => e);
    assert.ok(isApiError(error) && error.kind === 'hostValidation', String(error));
    assert.equal(refreshes, 0);
    assert.equal(attacker.received.length, 1);
    assert.deepEqual(credentialsAt(attacker), []);
  });
});
