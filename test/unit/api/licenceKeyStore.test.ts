import * as assert from 'node:assert/strict';
import { LicenceKeyStore, checkLicenceKey, licenceSecretName } from '../../../src/api/licenceKeyStore';
import { REDACTED, redact } from '../../../src/common/redact';
import { InMemorySecretStore } from '../../helpers/inMemorySecretStore';

describe('LicenceKeyStore', () => {
  it('stores one key per module with its label and organization, in the secret storage only', async () => {
    const secrets = new InMemorySecretStore();
    const store = new LicenceKeyStore(secrets);
    await store.set('efat', { key: ' RSSEFAT8B3N6P2W5Y7QD ', label: 'Rossi efat', organization: 'Rossi' });
    assert.deepEqual(await store.get('efat'), { module: 'efat', key: 'RSSEFAT8B3N6P2W5Y7QD', label: 'Rossi efat', organization: 'Rossi' });
    assert.deepEqual(JSON.parse(secrets.values.get(licenceSecretName('efat'))!), { key: 'RSSEFAT8B3N6P2W5Y7QD', label: 'Rossi efat', organization: 'Rossi' });
    assert.equal(await store.get('core'), undefined);
    assert.deepEqual(await store.list(['core', 'efat']), [{ module: 'efat', label: 'Rossi efat', organization: 'Rossi' }]);
  });

  it('registers every key it stores or reads with the redactor (a server may echo it)', async () => {
    const secrets = new InMemorySecretStore();
    const written = `SET${Date.now()}KEY`;
    const stored = `READ${Date.now()}KEY`;
    const bare = `BARE${Date.now()}KEY`;
    await new LicenceKeyStore(secrets).set('efat', { key: written, label: 'l', organization: 'o' });
    assert.equal(redact(`invalid key ${written}`), `invalid key ${REDACTED}`);
    // Written by another window (or an older version, as a bare key): registered when first read.
    secrets.values.set(licenceSecretName('core'), JSON.stringify({ key: stored, label: 'l', organization: 'o' }));
    secrets.values.set(licenceSecretName('hr'), bare);
    const reader = new LicenceKeyStore(secrets);
    assert.equal(redact(stored), stored, 'not known before it is read');
    await reader.get('core');
    await reader.get('hr');
    assert.equal(redact(`keys ${stored} and ${bare}`), `keys ${REDACTED} and ${REDACTED}`);
  });

  it('never caches what a read found once the key was cleared or set while the read was on its way', async () => {
    const secrets = new InMemorySecretStore();
    const store = new LicenceKeyStore(secrets);
    await store.set('core', { key: 'OLDKEY1234', label: 'old', organization: 'Rossi' });
    const slow = new LicenceKeyStore(secrets);
    // The read of the second store is held until the first clears the key.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const get = secrets.get.bind(secrets);
    const read = await get('tenantApi.licenceKey.core');
    secrets.get = async () => {
      await held;
      return read;
    };
    const reading = slow.get('core');
    await slow.clear('core');
    release();
    assert.equal((await reading)?.key, 'OLDKEY1234', 'the read itself answers what it read');
    secrets.get = get;
    assert.equal(await slow.get('core'), undefined, 'the cleared key is not served from the cache afterwards');
  });

  it('clears a key', async () => {
    const store = new LicenceKeyStore(new InMemorySecretStore());
    await store.set('core', { key: 'ABC123', label: 'l', organization: 'o' });
    await store.clear('core');
    assert.equal(await store.get('core'), undefined);
  });

  it('follows a change made by another window', async () => {
    const secrets = new InMemorySecretStore();
    const store = new LicenceKeyStore(secrets);
    const changed: string[] = [];
    store.onDidChange((e) => changed.push(e.module));
    await store.set('core', { key: 'OLD1', label: 'l', organization: 'o' });
    secrets.simulateExternalWrite(licenceSecretName('core'), JSON.stringify({ key: 'NEW2', label: 'l2', organization: 'o2' }));
    assert.equal((await store.get('core'))?.key, 'NEW2');
    secrets.simulateExternalWrite(licenceSecretName('core'), undefined);
    assert.equal(await store.get('core'), undefined);
    assert.deepEqual(changed, ['core', 'core', 'core']);
  });

  it('does not cache a failed read', async () => {
    const secrets = new InMemorySecretStore();
    await new LicenceKeyStore(secrets).set('core', { key: 'K1', label: 'l', organization: 'o' });
    const store = new LicenceKeyStore(secrets);
    secrets.failNext();
    await assert.rejects(store.get('core'));
    assert.equal((await store.get('core'))?.key, 'K1');
  });

  it('reads a bare key written by hand', async () => {
    const secrets = new InMemorySecretStore();
    secrets.values.set(licenceSecretName('core'), 'BARE42');
    assert.deepEqual(await new LicenceKeyStore(secrets).get('core'), { module: 'core', key: 'BARE42', label: 'core', organization: 'core' });
  });

  it('refuses malformed keys and labels with a sentence', async () => {
    assert.match(checkLicenceKey('')!, /Enter the licence key/);
    assert.match(checkLicenceKey('has space')!, /no spaces/);
    assert.match(checkLicenceKey('x'.repeat(513))!, /512/);
    assert.equal(checkLicenceKey('RSSCORE4F7K2M9Q1X8ZT'), undefined);
    const store = new LicenceKeyStore(new InMemorySecretStore());
    await assert.rejects(store.set('core', { key: 'K', label: ' ', organization: 'o' }), /label/);
    await assert.rejects(store.set('core', { key: 'K', label: 'l', organization: '' }), /organization/);
  });
});

describe('LicenceKeyStore, keys of several organizations', () => {
  const tenant = (id: string, code: string, description = code) => ({ id, codiceAmbienteDati: code, descrizioneAmbienteDati: description, clusterAddress: 'http://127.0.0.1:1', usable: true });
  const milano = tenant('t-mi', 'RC-MI', 'Rossi Milano');
  const parma = tenant('t-pr', 'BA-PR', 'Bianchi Produzione');

  it('put keeps one key per organization of a module; set replaces them all; a call for a tenant carries the key that covers it', async () => {
    const secrets = new InMemorySecretStore();
    const store = new LicenceKeyStore(secrets);
    await store.put('efat', { key: 'ROSSIKEY1', label: 'Rossi efat', organization: 'Rossi', tenantIds: ['t-mi'] });
    await store.put('efat', { key: 'BIANCHIKEY1', label: 'Bianchi efat', organization: 'Bianchi', tenants: ['ba-pr'] });
    await store.put('efat', { key: 'ROSSIKEY2', label: 'Rossi efat', organization: 'rossi', tenantIds: ['t-mi'] });
    assert.deepEqual((await store.all('efat')).map((key) => key.key), ['ROSSIKEY2', 'BIANCHIKEY1'], 'the same organization, spelled otherwise, is replaced; the last set first');
    assert.equal((await store.forTenant('efat', milano))?.key, 'ROSSIKEY2');
    assert.equal((await store.forTenant('efat', parma))?.key, 'BIANCHIKEY1', 'named by code, in any case');
    assert.equal(await store.forTenant('efat', tenant('t-to', 'RC-TO')), undefined, 'no key covers RC-TO: none is lent from another organization');
    assert.equal((await store.forTenant('efat', undefined))?.key, 'ROSSIKEY2', 'no tenant: the first key');
    assert.equal((await new LicenceKeyStore(secrets).all('efat')).length, 2, 'read back by another window');
    await store.remove('efat', 'Bianchi');
    assert.deepEqual((await store.all('efat')).map((key) => key.key), ['ROSSIKEY2']);
    assert.deepEqual(Object.keys(JSON.parse(secrets.values.get(licenceSecretName('efat'))!)).sort(), ['key', 'label', 'organization', 'tenantIds'], 'one key is stored as before');
    await store.set('efat', { key: 'ONLYKEY1', label: 'l', organization: 'o' });
    assert.equal((await store.forTenant('efat', tenant('t-to', 'RC-TO')))?.key, 'ONLYKEY1', 'a key that names no tenant covers every tenant');
  });
});
