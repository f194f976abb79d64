import * as assert from 'node:assert/strict';
import { LicenceKeyStore, licenceSecretName } from '../../../src/api/licenceKeyStore';
import { SessionStore, type StoredSession } from '../../../src/auth/sessionStore';
import { silentLogger } from '../../../src/common/logger';
import type { SecretStore } from '../../../src/common/secretStore';
import { environmentSecrets, knownModules, migrateLegacySecrets } from '../../../src/settings/environmentSecrets';
import { parseEnvironments } from '../../../src/settings/environments';
import { InMemorySecretStore } from '../../helpers/inMemorySecretStore';

function session(sub: string, updatedAt: number, accessToken = `at-${sub}-${updatedAt}`): StoredSession {
  return {
    version: 1,
    account: { id: sub, label: sub, roles: [] },
    accessToken,
    refreshToken: `rt-${sub}`,
    expiresAt: updatedAt + 3_600_000,
    scopes: ['openid'],
    updatedAt,
    authUrl: 'https://auth.example.com',
    clientId: 'app',
  };
}

/** What an installation of the version before environments left in the secret storage. */
function legacyStore(): InMemorySecretStore {
  const secrets = new InMemorySecretStore();
  secrets.values.set('tenantApi.auth.sessions', JSON.stringify(['mario', 'laura']));
  secrets.values.set('tenantApi.auth.session/mario', JSON.stringify(session('mario', 1000)));
  secrets.values.set('tenantApi.auth.session/laura', JSON.stringify(session('laura', 1000)));
  secrets.values.set('tenantApi.auth.clientSecret', 'client-secret-1');
  secrets.values.set(licenceSecretName('core'), JSON.stringify({ key: 'CORE-KEY-1', label: 'Core', organization: 'Rossi' }));
  secrets.values.set(licenceSecretName('efat'), JSON.stringify({ key: 'EFAT-KEY-1', label: 'Efat', organization: 'Rossi' }));
  return secrets;
}

const MODULES = ['core', 'efat', 'crm'];

/** Passes the first `budget` calls through, then fails every call: a window closed mid-migration. */
function failingAfter(inner: SecretStore, budget: number): SecretStore {
  let left = budget;
  const spend = () => {
    if (left-- <= 0) throw new Error('window closed');
  };
  return {
    get: async (key) => (spend(), inner.get(key)),
    store: async (key, value) => (spend(), inner.store(key, value)),
    delete: async (key) => (spend(), inner.delete(key)),
    onDidChange: inner.onDidChange,
  };
}

/** How many storage calls `run` makes. */
async function countCalls(inner: SecretStore, run: (store: SecretStore) => Promise<unknown>): Promise<number> {
  let calls = 0;
  const count = <T>(value: T): T => (calls++, value);
  await run({
    get: (key) => count(inner.get(key)),
    store: (key, value) => count(inner.store(key, value)),
    delete: (key) => count(inner.delete(key)),
    onDidChange: inner.onDidChange,
  });
  return calls;
}

async function assertMigrated(secrets: InMemorySecretStore): Promise<void> {
  assert.deepEqual([...secrets.values.keys()].filter((key) => !key.startsWith('tenantApi.env/')), [], 'no key of the old layout is left');
  const scoped = environmentSecrets(secrets, 'default');
  const sessions = new SessionStore(scoped, silentLogger);
  assert.deepEqual((await sessions.readAll()).map((s) => s.accessToken).sort(), ['at-laura-1000', 'at-mario-1000']);
  assert.equal(await sessions.getClientSecret(), 'client-secret-1');
  const keys = new LicenceKeyStore(scoped);
  assert.equal((await keys.get('core'))?.key, 'CORE-KEY-1');
  assert.equal((await keys.get('efat'))?.key, 'EFAT-KEY-1');
  assert.equal(await keys.get('crm'), undefined);
  keys.dispose();
}

describe('environment secrets: the migration of the keys before environments', () => {
  it('moves sessions, client secret and licence keys into the default environment, and a second run changes nothing', async () => {
    const secrets = legacyStore();
    const report = await migrateLegacySecrets(secrets, MODULES);
    assert.deepEqual(report.superseded, []);
    assert.deepEqual([...secrets.values.keys()].sort(), [
      'tenantApi.env/default/auth.clientSecret',
      'tenantApi.env/default/auth.session/laura',
      'tenantApi.env/default/auth.session/mario',
      'tenantApi.env/default/auth.sessions',
      'tenantApi.env/default/licenceKey.core',
      'tenantApi.env/default/licenceKey.efat',
    ]);
    await assertMigrated(secrets);
    const before = new Map(secrets.values);
    assert.deepEqual(await migrateLegacySecrets(secrets, MODULES), { moved: [], superseded: [] });
    assert.deepEqual(secrets.values, before);
  });

  it('a run stopped after any number of storage calls loses nothing, and the next run finishes the job', async () => {
    const counter = legacyStore();
    const calls = await countCalls(counter, (store) => migrateLegacySecrets(store, MODULES));
    assert.ok(calls > 15, `the migration made ${calls} calls`);
    for (let budget = 0; budget < calls; budget++) {
      const secrets = legacyStore();
      await assert.rejects(migrateLegacySecrets(failingAfter(secrets, budget), MODULES), /window closed/);
      // Every secret is still somewhere: at its old key or in the default environment.
      for (const [oldKey, newKey] of [
        ['tenantApi.auth.clientSecret', 'tenantApi.env/default/auth.clientSecret'],
        ['tenantApi.licenceKey.core', 'tenantApi.env/default/licenceKey.core'],
        ['tenantApi.auth.session/mario', 'tenantApi.env/default/auth.session/mario'],
        ['tenantApi.auth.session/laura', 'tenantApi.env/default/auth.session/laura'],
      ]) {
        assert.ok(secrets.values.has(oldKey) || secrets.values.has(newKey), `after ${budget} calls, ${oldKey} is lost`);
      }
      await migrateLegacySecrets(secrets, MODULES);
      await assertMigrated(secrets);
    }
  });

  it('keeps what the default environment already holds, unless the old session was written later', async () => {
    const secrets = legacyStore();
    const scoped = environmentSecrets(secrets, 'default');
    await scoped.store('tenantApi.auth.clientSecret', 'client-secret-2');
    await scoped.store('tenantApi.auth.session/mario', JSON.stringify(session('mario', 500)));
    await scoped.store('tenantApi.auth.session/anna', JSON.stringify(session('anna', 2000)));
    await scoped.store('tenantApi.auth.session/laura', JSON.stringify(session('laura', 2000)));
    await scoped.store('tenantApi.auth.sessions', JSON.stringify(['anna', 'laura']));
    const report = await migrateLegacySecrets(secrets, MODULES);
    assert.deepEqual(report.superseded.sort(), ['tenantApi.auth.clientSecret', 'tenantApi.auth.session/laura']);
    const sessions = new SessionStore(scoped, silentLogger);
    assert.deepEqual(await sessions.readIndex(), ['anna', 'laura', 'mario']);
    assert.equal((await sessions.read('mario'))?.updatedAt, 1000, 'the newer old session replaced the stale one');
    assert.equal((await sessions.read('laura'))?.updatedAt, 2000);
    assert.equal(await sessions.getClientSecret(), 'client-secret-2');
  });

  it('leaves an unreadable old session index alone, and never touches other environments', async () => {
    const secrets = new InMemorySecretStore();
    secrets.values.set('tenantApi.auth.sessions', 'not json');
    secrets.values.set('tenantApi.env/@prod/licenceKey.core', 'PROD-KEY');
    await migrateLegacySecrets(secrets, MODULES);
    assert.equal(secrets.values.get('tenantApi.auth.sessions'), 'not json');
    assert.equal(secrets.values.get('tenantApi.env/@prod/licenceKey.core'), 'PROD-KEY');
    assert.equal(secrets.values.size, 2);
  });

  it('looks for the modules of the built-in routes and of every environment\'s routes', () => {
    const defaults = { authUrl: '', baseUrl: '', clientId: 'app', scopes: ['openid'], allowedHosts: [], routes: [{ prefix: '/hr/', host: 'base', module: 'hr' }], endpoints: [], variables: {} };
    const { environments } = parseEnvironments([{ name: 'CRM', routes: [{ prefix: '/crm/', host: 'base', module: 'crm' }] }], defaults);
    assert.deepEqual(knownModules(environments).sort(), ['core', 'crm', 'efat', 'hr']);
  });
});
