import * as assert from 'node:assert/strict';
import { apiErrors } from '../../../src/api/errors';
import { TenantDirectory, type TenantDirectoryChange } from '../../../src/api/tenantDirectory';
import type { CountedCall, TenantRecord } from '../../../src/api/types';
import type { AccountInfo } from '../../../src/auth/types';
import { Emitter, type Event } from '../../../src/common/event';
import { SignInRequiredError } from '../../../src/common/signInRequired';
import { tenantRecord } from '../../helpers/tenantRecords';
import { findTenant, tenantResolver } from '../../../src/api/tenantResolver';

const tenant = tenantRecord;
const milano = tenant('t-mi', 'RC-MI', 'Rossi Milano');
const torino = tenant('t-to', 'RC-TO', 'Rossi Torino');
const verdi = tenant('t-vr', 'VR-01', 'Verdi');

/** A controllable listing: each call waits until the test settles it. */
class Harness {
  readonly sessionChanges = new Emitter<void>();
  active: AccountInfo | undefined = { id: 'mario', label: 'Mario', roles: [] };
  signedIn: AccountInfo[] = [{ id: 'mario', label: 'Mario', roles: [] }];
  calls = 0;
  private pending: Array<{ resolve(tenants: TenantRecord[]): void; reject(error: unknown): void }> = [];
  readonly changes: TenantDirectoryChange[] = [];
  readonly directory: TenantDirectory;

  constructor(counted?: Event<CountedCall>) {
    this.directory = new TenantDirectory({
      counted,
      listTenants: () => {
        this.calls++;
        return new Promise((resolve, reject) => this.pending.push({ resolve, reject }));
      },
      sessions: {
        activeAccount: () => this.active,
        onDidChangeSessions: this.sessionChanges.event,
        getAccounts: async () => this.signedIn,
      },
    });
    this.directory.onDidChange((change) => this.changes.push(change));
  }

  /** The one resolver over this directory, no active tenant. */
  resolver() {
    return tenantResolver(this.directory, { get: () => undefined });
  }

  async answer(tenants: TenantRecord[]): Promise<void> {
    await flush();
    this.pending.shift()!.resolve(tenants);
    await flush();
  }

  async fail(error: unknown): Promise<void> {
    await flush();
    this.pending.shift()!.reject(error);
    await flush();
  }
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('TenantDirectory', () => {
  it('lists an account once, shows it loading meanwhile, and says when it settled', async () => {
    const h = new Harness();
    assert.equal(h.directory.listing('mario'), undefined);
    const first = h.directory.load('mario');
    const second = h.directory.load('mario');
    assert.deepEqual(h.directory.listing('mario'), { kind: 'loading' });
    await h.answer([milano, torino]);
    await Promise.all([first, second]);
    assert.equal(h.calls, 1);
    assert.deepEqual(h.directory.listing('mario'), { kind: 'loaded', tenants: [milano, torino] });
    assert.deepEqual(h.changes, [{ kind: 'listings' }]);
    assert.deepEqual(await h.directory.tenants(), [milano, torino]);
    assert.equal(h.calls, 1, 'tenants() reads the cache');
  });

  it('lists the active account on demand and finds a tenant by id, code or description', async () => {
    const h = new Harness();
    const listed = h.directory.tenants();
    await h.answer([milano, torino]);
    assert.deepEqual(await listed, [milano, torino]);
    const resolver = h.resolver();
    assert.equal(await resolver.find('t-to'), torino);
    assert.equal(await resolver.find('T-MI'), milano, 'ids in any case too, as every front end finds them');
    assert.equal(await resolver.find('rc-to'), torino);
    assert.equal(await resolver.find(' Rossi Milano '), milano);
    assert.equal(await resolver.find('Rossi'), undefined);
    assert.equal(h.calls, 1, 'found among the listed tenants');
  });

  it('lists again by id when the tenant is not cached, and returns nothing when signed out', async () => {
    const h = new Harness();
    const found = h.resolver().find('t-to');
    await h.answer([milano, torino]);
    assert.equal(await found, torino);
    h.active = undefined;
    h.directory.refresh();
    assert.deepEqual(await h.directory.tenants(), []);
    assert.equal(h.calls, 1);
  });

  it('keeps why a listing failed, with the kind the tree offers its action for', async () => {
    const cases: Array<[unknown, { errorKind?: string; module?: string; message: RegExp }]> = [
      [apiErrors.licenceMissing('core'), { errorKind: 'licenceMissing', module: 'core', message: /No licence key/ }],
      [new SignInRequiredError(), { errorKind: 'auth', message: /./ }],
      [new Error('boom'), { errorKind: undefined, message: /^boom$/ }],
    ];
    for (const [error, expected] of cases) {
      const h = new Harness();
      const listed = assert.rejects(h.directory.tenants(), (thrown: Error) => expected.message.test(thrown.message));
      await h.fail(error);
      await listed;
      const listing = h.directory.listing('mario');
      assert.ok(listing?.kind === 'error', JSON.stringify(listing));
      assert.equal(listing.errorKind, expected.errorKind);
      assert.equal(listing.module, expected.module);
      assert.match(listing.message, expected.message);
    }
  });

  it('drops the listings on refresh and on sign-in or sign-out, and ignores a listing that started before', async () => {
    const h = new Harness();
    void h.directory.load('mario');
    h.directory.refresh();
    assert.equal(h.directory.listing('mario'), undefined);
    await h.answer([milano]);
    assert.equal(h.directory.listing('mario'), undefined, 'a listing from before the refresh is not kept');
    const again = h.directory.tenants();
    await h.answer([milano, torino]);
    assert.deepEqual(await again, [milano, torino]);
    h.signedIn = [];
    h.active = undefined;
    h.sessionChanges.fire(); // sign-out
    await flush();
    assert.equal(h.directory.listing('mario'), undefined);
    assert.equal(h.directory.listed().find((listed) => listed.id === 't-mi'), undefined);
    assert.deepEqual(h.changes, [{ kind: 'listings' }, { kind: 'listings' }, { kind: 'listings' }]);
  });

  it('keeps the listings when only a token was refreshed (the same accounts signed in), drops them on a switch', async () => {
    const h = new Harness();
    const first = h.directory.tenants();
    await h.answer([milano, torino]);
    assert.deepEqual(await first, [milano, torino]);
    h.sessionChanges.fire(); // a refresh, here or in another window
    await flush();
    assert.equal(h.directory.listed().find((listed) => listed.id === 't-mi'), milano, 'a call in flight still finds its tenant');
    assert.equal(h.calls, 1, 'not listed again');
    h.signedIn = [...h.signedIn, { id: 'laura', label: 'Laura', roles: [] }];
    h.sessionChanges.fire(); // another account signed in
    await flush();
    assert.equal(h.directory.listed().find((listed) => listed.id === 't-mi'), undefined);
  });

  it('lists once more when a refresh dropped the listing it waited for, rather than answer no tenants', async () => {
    const h = new Harness();
    const asked = h.directory.tenants();
    await flush();
    h.directory.refresh();
    await h.answer([milano]); // the listing from before the refresh: not kept
    await h.answer([milano, torino]);
    assert.deepEqual(await asked, [milano, torino]);
  });

  it('keeps each account apart and finds the active account\'s tenants first', async () => {
    const h = new Harness();
    void h.directory.load('mario');
    await h.answer([milano, { ...verdi, id: 'shared', codiceAmbienteDati: 'SH' }]);
    h.active = { id: 'laura', label: 'Laura', roles: [] };
    void h.directory.load('laura');
    await h.answer([verdi, { ...torino, id: 'shared', codiceAmbienteDati: 'SH' }]);
    assert.equal(findTenant('SH', h.directory.listed())?.descrizioneAmbienteDati, 'Rossi Torino');
    assert.equal(h.directory.listed().find((listed) => listed.id === 't-mi'), milano, 'another account\'s tenants are still found');
    assert.deepEqual(await h.directory.tenants(), [verdi, { ...torino, id: 'shared', codiceAmbienteDati: 'SH' }]);
  });

  it('remembers the organization of each tenant\'s calls across a refresh, and says when it changes', () => {
    const h = new Harness();
    h.directory.noteOrganization('t-mi', 'Rossi');
    h.directory.noteOrganization('t-mi', 'Rossi');
    h.directory.refresh();
    assert.equal(h.directory.organizationOf('t-mi'), 'Rossi');
    h.directory.noteOrganization('t-mi', 'Verdi');
    assert.equal(h.directory.organizationOf('t-to'), undefined);
    assert.deepEqual(h.changes, [
      { kind: 'organization', tenantId: 't-mi', organization: 'Rossi' },
      { kind: 'listings' },
      { kind: 'organization', tenantId: 't-mi', organization: 'Verdi' },
    ]);
  });
});

describe('TenantDirectory: what the client counted', () => {
  const usage = (organization: string) => ({ organization, used: 1, limit: 10, seenAt: 0 });

  it('learns the organization of a tenant\'s counted call (an error\'s included, the client fires both), and nothing from a call with no tenant', () => {
    const counted = new Emitter<CountedCall>();
    const h = new Harness(counted.event);
    counted.fire({ request: { method: 'GET', path: '/api/configurazioni' }, usage: usage('Rossi') });
    assert.equal(h.changes.length, 0, 'no tenant: nothing to learn');
    counted.fire({ request: { method: 'GET', path: '/efat/x', tenant: milano }, usage: usage('Rossi') });
    assert.equal(h.directory.organizationOf('t-mi'), 'Rossi');
    counted.fire({ request: { method: 'GET', path: '/efat/x', tenant: torino }, usage: usage('Verdi') });
    assert.equal(h.directory.organizationOf('t-to'), 'Verdi');
    assert.equal(h.directory.organizationOf('t-vr'), undefined);
    h.directory.dispose();
    counted.fire({ request: { method: 'GET', path: '/efat/x', tenant: verdi }, usage: usage('Verdi') });
    assert.equal(h.directory.organizationOf('t-vr'), undefined, 'a disposed directory no longer listens');
  });
});
