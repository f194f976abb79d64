import * as assert from 'node:assert/strict';
import { ApiClient } from '../../../src/api/apiClient';
import { LicenceKeyStore } from '../../../src/api/licenceKeyStore';
import { InMemorySecretStore } from '../../helpers/inMemorySecretStore';
import { hostileServer, type HostileServer } from './hostileServer';

/** A faulty (or hostile) server sends a Service-Limit-Info whose limit is 0: it must not stop the organization. */
describe('attack list: Service-Limit-Info readings that would stop an organization', () => {
  let api: HostileServer;
  let reading = '';

  before(async () => {
    api = await hostileServer((_request, response) => {
      response.setHeader('Content-Type', 'application/json');
      response.setHeader('Service-Limit-Info', reading);
      response.end('{}');
    });
  });
  after(() => api.close());

  for (const value of ['api-usage=5/0', 'api-usage=0/0', 'api-usage=999999/000']) {
    it(`${value}: the next call of the organization is still sent`, async () => {
      const keys = new LicenceKeyStore(new InMemorySecretStore());
      await keys.set('core', { key: 'QUOTAKEY0001', label: 'core', organization: 'Acme' });
      const client = new ApiClient({
        settings: () => ({ baseUrl: api.url, allowedHosts: [], routes: [], endpoints: [], requestTimeoutSeconds: 5, safetyMarginMs: 0, maxQueueLength: 100, maxRetries: 0 }),
        tokens: { getAccessToken: async () => 'quota-token-0001' },
        licenceKeys: keys,
      });
      reading = value;
      api.received.length = 0;
      const first = await client.send({ method: 'GET', path: '/api/x' });
      assert.equal(first.usage, undefined, 'the reading is unknown');
      assert.equal(client.quota.refusal('Acme'), undefined);
      const second = await client.send({ method: 'GET', path: '/api/x' });
      assert.equal(second.status, 200);
      assert.equal(api.received.length, 2, 'both calls reached the server');
      reading = 'api-usage=5/10';
      await client.send({ method: 'GET', path: '/api/x' });
      assert.deepEqual(client.quota.reading('Acme') && { used: client.quota.reading('Acme')!.used, limit: client.quota.reading('Acme')!.limit }, { used: 5, limit: 10 }, 'a good reading still counts');
    });
  }
});
