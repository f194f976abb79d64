import * as assert from 'node:assert/strict';
import { ApiClient } from '../../../src/api/apiClient';
import { isApiError } from '../../../src/api/errors';
import { LicenceKeyStore } from '../../../src/api/licenceKeyStore';
import type { TenantRecord } from '../../../src/api/types';
import { InMemorySecretStore } from '../../helpers/inMemorySecretStore';
import { hostileServer, resolvingFetch, type HostileServer } from './hostileServer';

const TOKEN = 'cluster-attack-token-0001';
const KEY = 'CLUSTERATTACKKEY0001';

/**
 * Attack list: a tenant list (from a compromised or spoofed base host) names cluster addresses meant to
 * receive the bearer token and the licence key. Each must be marked unusable, refused when called anyway,
 * and reached by no request. The base URL is https://<base>; a resolving fetch sends every host to one
 * server on 127.0.0.1 that records which host the client meant.
 */
const BASES: Array<{ base: string; trusted: string[]; hostile: string[] }> = [
  {
    base: 'https://acme.azurewebsites.net',
    trusted: ['https://eu.acme.azurewebsites.net'],
    hostile: [
      'https://attacker.azurewebsites.net', // a neighbour under a public suffix (the PSL's private section)
      'https://azurewebsites.net', // the public suffix itself
      'https://acme.azurewebsites.net.attacker.com', // our host as a prefix of theirs
      'https://attackeracme.azurewebsites.net', // our name as a suffix of a label
      'https://acme.azurewebsites.net@attacker.com', // userinfo trick
      'https://user:pw@eu.acme.azurewebsites.net', // credentials in the URL
      'https://attacker.com#@acme.azurewebsites.net', // fragment trick
      'https://attacker.com?.acme.azurewebsites.net', // query trick
      'http://eu.acme.azurewebsites.net', // plain http
      'ftp://eu.acme.azurewebsites.net',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'data:text/plain,acme.azurewebsites.net',
      '//attacker.com',
      'not a url',
      '',
      'https://127.0.0.1', // loopback is not the base's domain
      'http://localhost:9',
      'https://169.254.169.254', // a cloud metadata service
      'https://10.0.0.1',
      'https://[::1]',
      'https://acme.azurewebsites.net%2f.attacker.com',
    ],
  },
  { base: 'https://acme.github.io', trusted: ['https://api.acme.github.io'], hostile: ['https://attacker.github.io', 'https://github.io'] },
  { base: 'https://api.acme.co.uk', trusted: ['https://cluster.acme.co.uk'], hostile: ['https://attacker.co.uk', 'https://co.uk', 'https://acme.co.uk.attacker.net'] },
  { base: 'https://api.acme.herokuapp.com', trusted: [], hostile: ['https://attacker.herokuapp.com'] },
];


describe('attack list: hostile cluster addresses', () => {
  let server: HostileServer;
  let tenants: Array<Omit<TenantRecord, 'usable'>> = [];

  before(async () => {
    server = await hostileServer((request, response) => {
      response.setHeader('Content-Type', 'application/json');
      if (request.path === '/v10/user-tenants') return response.end(JSON.stringify(tenants));
      response.end('{}');
    });
  });
  after(() => server.close());
  beforeEach(() => (server.received.length = 0));

  async function client(baseUrl: string): Promise<ApiClient> {
    const keys = new LicenceKeyStore(new InMemorySecretStore());
    await keys.set('efat', { key: KEY, label: 'efat', organization: 'Acme' });
    return new ApiClient({
      fetch: resolvingFetch(server.url),
      settings: () => ({ baseUrl, allowedHosts: [], routes: [], endpoints: [], requestTimeoutSeconds: 5, safetyMarginMs: 0, maxQueueLength: 100, maxRetries: 0 }),
      tokens: { getAccessToken: async () => TOKEN },
      licenceKeys: keys,
    });
  }

  for (const { base, trusted, hostile } of BASES) {
    it(`${base}: marks ${hostile.length} hostile cluster addresses unusable, refuses to call them, sends them nothing`, async () => {
      const api = await client(base);
      tenants = [...trusted, ...hostile].map((clusterAddress, index) => ({ id: `t${index}`, codiceAmbienteDati: `C${index}`, descrizioneAmbienteDati: `T${index}`, clusterAddress }));
      const listed = await api.listTenants();
      const byAddress = new Map(listed.map((tenant) => [tenant.clusterAddress, tenant]));
      for (const address of trusted) assert.equal(byAddress.get(address)?.usable, true, `${address} is ours`);
      let refused = 0;
      for (const address of hostile) {
        const tenant = byAddress.get(address)!;
        assert.equal(tenant.usable, false, `${JSON.stringify(address)} must be unusable`);
        assert.ok(tenant.unusableReason, 'with a reason');
        // Called anyway (a stale record claiming usable): the check at send time refuses it too.
        const error = await api.send({ method: 'GET', path: '/efat/api/v1/ditte', tenant: { ...tenant, usable: true } }).catch((e: unknown) => e);
        assert.ok(isApiError(error) && error.kind === 'hostValidation', `${JSON.stringify(address)}: ${String(error)}`);
        refused++;
      }
      assert.equal(refused, hostile.length);
      const reached = server.received.filter((request) => request.path !== '/v10/user-tenants');
      assert.deepEqual(reached.map((request) => request.host), [], 'no request reached a hostile cluster');
      assert.ok(server.received.every((request) => new URL(`https://${request.host}`).hostname === new URL(base).hostname), 'only the base host was called');
      for (const address of trusted) {
        const response = await api.send({ method: 'GET', path: '/efat/api/v1/ditte', tenant: byAddress.get(address)! });
        assert.equal(response.status, 200);
        const last = server.received.at(-1)!;
        assert.equal(last.host, new URL(address).host);
        assert.equal(last.headers['authorization-key'], KEY, 'a trusted cluster gets the key');
      }
    });
  }
});
