// An address typed whole in Send Request, by the rule request files follow: a platform host becomes its
// path (a cluster names its tenant), another host goes as typed, a path on the wrong platform host is refused.
import * as assert from 'node:assert/strict';
import { RouteTable, parseRouteSetting } from '../../../src/api/routes';
import type { TenantRecord } from '../../../src/api/types';
import { addressTarget, type AddressDeps } from '../../../src/commands/addressTarget';

const tenants = [
  { id: 't-mi', codiceAmbienteDati: 'RC-MI', descrizioneAmbienteDati: 'Rossi Milano', clusterAddress: 'https://c1.example.com', usable: true },
  { id: 't-to', codiceAmbienteDati: 'RC-TO', descrizioneAmbienteDati: 'Rossi Torino', clusterAddress: 'https://c2.example.com/base', usable: true },
] as unknown as TenantRecord[];
const routes = new RouteTable(parseRouteSetting([]));
const deps: AddressDeps = { baseUrl: () => 'https://api.example.com', tenants: async () => tenants, routeFor: (path) => routes.match(path) };

describe('an address typed in Send Request', () => {
  it('on the base URL is its path, query and all', async () => {
    assert.deepEqual(await addressTarget('https://api.example.com/v10/user-tenants', { a: '1' }, deps), { kind: 'path', path: '/v10/user-tenants', query: { a: '1' } });
    assert.deepEqual(await addressTarget('https://API.example.com/api/configurazioni?pagina=2', {}, deps), { kind: 'path', path: '/api/configurazioni', query: { pagina: '2' } });
  });

  it('on a tenant\'s cluster is its path, for that tenant (under the cluster\'s own base path)', async () => {
    assert.deepEqual(await addressTarget('https://c1.example.com/efat/api/v1/ditte', {}, deps), { kind: 'path', path: '/efat/api/v1/ditte', query: {}, tenantId: 't-mi' });
    assert.deepEqual(await addressTarget('https://c2.example.com/base/efat/api/v1/ditte', {}, deps), { kind: 'path', path: '/efat/api/v1/ditte', query: {}, tenantId: 't-to' });
  });

  it('on another host (another port, another scheme of the base) is sent as typed', async () => {
    for (const address of ['https://elsewhere.example.org/v10/user-tenants', 'http://api.example.com/v10/user-tenants', 'https://api.example.com:8443/x', 'https://c2.example.com/efat/api/v1/ditte']) {
      assert.deepEqual(await addressTarget(address, {}, deps), { kind: 'elsewhere' }, address);
    }
    assert.deepEqual(await addressTarget('https://c1.example.com/x', {}, { ...deps, tenants: async () => [] }), { kind: 'elsewhere' }, 'no tenants known: no cluster');
  });

  it('refuses a platform path on the wrong platform host, as a request file does', async () => {
    const onBase = await addressTarget('https://api.example.com/efat/api/v1/ditte', {}, deps);
    assert.deepEqual(onBase, { kind: 'error', message: "/efat/api/v1/ditte is served by the tenant's cluster, not by the base URL: write the path alone." });
  });
});
