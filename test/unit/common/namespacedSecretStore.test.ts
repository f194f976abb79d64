import * as assert from 'node:assert/strict';
import { namespacedSecretStore } from '../../../src/common/namespacedSecretStore';
import { InMemorySecretStore } from '../../helpers/inMemorySecretStore';

describe('namespacedSecretStore', () => {
  it('keeps each namespace apart and reports only its own changes, under the inner key names', async () => {
    const secrets = new InMemorySecretStore();
    const a = namespacedSecretStore(secrets, 'tenantApi.env/@a/');
    const ab = namespacedSecretStore(secrets, 'tenantApi.env/@ab/');
    const heardA: string[] = [];
    a.onDidChange(({ key }) => heardA.push(key));
    await a.store('tenantApi.licenceKey.core', 'K-A');
    await ab.store('tenantApi.licenceKey.core', 'K-AB');
    assert.deepEqual([...secrets.values.keys()], ['tenantApi.env/@a/licenceKey.core', 'tenantApi.env/@ab/licenceKey.core']);
    assert.equal(await a.get('tenantApi.licenceKey.core'), 'K-A');
    assert.equal(await ab.get('tenantApi.licenceKey.core'), 'K-AB');
    secrets.simulateExternalWrite('tenantApi.licenceKey.core', 'old layout');
    await ab.delete('tenantApi.licenceKey.core');
    assert.deepEqual(heardA, ['tenantApi.licenceKey.core']);
    assert.throws(() => a.get('other.key'), /Not a tenantApi secret key/);
  });
});
