import * as assert from 'node:assert/strict';
import { canonicalOrganization, coverageAnswer, coveringOrganization, holderChoices, sameOrganizationName, tenantOrganizationName } from '../../../src/api/licenceHolders';
import { LicenceKeyStore, checkNotTheKey, licenceSecretName } from '../../../src/api/licenceKeyStore';
import { QuotaTracker } from '../../../src/api/quotaTracker';
import type { LicenceKeyInfo, TenantRecord } from '../../../src/api/types';
import { InMemorySecretStore } from '../../helpers/inMemorySecretStore';
import { tenantRecord } from '../../helpers/tenantRecords';

const tenant = tenantRecord;
const milano = tenant('3f2b8c1e-mi', 'RC-MI', 'Rossi Costruzioni - Sede di Milano');
const torino = tenant('8a1c2d3e-to', 'RC-TO', 'Rossi Costruzioni - Filiale di Torino');
const parma = tenant('c7d8e9f0-pr', 'BA-PR', 'Bianchi Alimentari - Produzione');

describe('licence holders: whose quota a key counts against', () => {
  it('the first key: only the tenants, by name, the active one first; never a raw id', () => {
    const choices = holderChoices({ keys: [], module: 'core', tenants: [milano, torino, parma], activeTenantId: torino.id });
    assert.deepEqual(
      choices.map((choice) => [choice.kind, choice.organization]),
      [
        ['tenant', 'Rossi Costruzioni - Filiale di Torino'],
        ['tenant', 'Rossi Costruzioni - Sede di Milano'],
        ['tenant', 'Bianchi Alimentari - Produzione'],
      ],
    );
    for (const choice of choices) assert.ok(!choice.organization.includes(choice.kind === 'tenant' ? choice.tenant.id : '\u0000'));
  });

  it('the next key: the organizations of the stored keys first (this module\'s current one on top), then the tenants they do not cover', () => {
    const keys: LicenceKeyInfo[] = [
      { module: 'core', label: 'Rossi core', organization: 'Rossi Costruzioni - Sede di Milano' },
      { module: 'hr', label: 'Bianchi hr', organization: 'Bianchi Alimentari' },
      { module: 'efat', label: 'Bianchi efat', organization: 'Bianchi Alimentari' },
    ];
    // Calls for Parma were counted against Bianchi's keys: Parma is covered by that organization.
    const organizationOf = (id: string) => (id === parma.id ? 'Bianchi Alimentari' : undefined);
    const choices = holderChoices({ keys, module: 'efat', tenants: [milano, torino, parma], organizationOf });
    assert.deepEqual(
      choices.map((choice) => (choice.kind === 'known' ? [choice.organization, choice.modules.join(','), choice.current] : [choice.organization])),
      [
        ['Bianchi Alimentari', 'hr,efat', true],
        ['Rossi Costruzioni - Sede di Milano', 'core', false],
        ['Rossi Costruzioni - Filiale di Torino'],
      ],
    );
  });

  it('names a tenant by its description, with its code only when two tenants share it', () => {
    const twin = tenant('5e6f-co', 'BA-CO', 'Bianchi Alimentari - Produzione');
    assert.equal(tenantOrganizationName(milano, [milano, torino]), 'Rossi Costruzioni - Sede di Milano');
    assert.equal(tenantOrganizationName(parma, [parma, twin]), 'Bianchi Alimentari - Produzione (BA-PR)');
    assert.equal(tenantOrganizationName(twin, [parma, twin]), 'Bianchi Alimentari - Produzione (BA-CO)');
    assert.equal(tenantOrganizationName(tenant('x-1', 'X1', ''), []), 'X1');
  });

  it('takes a typed name as the known one it only spells differently, so a slip never makes a second quota', () => {
    const known = ['Rossi Costruzioni S.r.l.', 'Bianchi Alimentari S.p.A.'];
    assert.equal(canonicalOrganization('  rossi costruzioni srl ', known), 'Rossi Costruzioni S.r.l.');
    assert.equal(canonicalOrganization('BIANCHI  ALIMENTARI S.P.A.', known), 'Bianchi Alimentari S.p.A.');
    assert.equal(canonicalOrganization('Bianchì Alimentari SpA', known), 'Bianchi Alimentari S.p.A.');
    assert.equal(canonicalOrganization('Verdi  Trasporti', known), 'Verdi Trasporti', 'a new name is kept, spaces tidied');
    assert.equal(sameOrganizationName('Rossi', 'Rossini'), false);
    assert.equal(sameOrganizationName('...', '---'), false, 'punctuation alone names nothing');
  });

  it('two keys given the same organization share one quota reading; neither the key nor a typo becomes a bucket', async () => {
    const store = new LicenceKeyStore(new InMemorySecretStore());
    const holder = holderChoices({ keys: [], module: 'core', tenants: [milano] })[0].organization;
    await store.set('core', { key: 'RSSCORE4F7K2M9Q1X8ZT', label: 'core', organization: holder });
    const again = holderChoices({ keys: await store.list(['core', 'efat']), module: 'efat', tenants: [milano] });
    assert.deepEqual(again.map((choice) => choice.organization), [holder], 'Milano is covered by the organization of the core key');
    await store.set('efat', { key: 'RSSEFAT8B3N6P2W5Y7QD', label: 'efat', organization: canonicalOrganization('rossi costruzioni sede di milano', [holder]) });

    const quota = new QuotaTracker();
    for (const module of ['core', 'efat']) {
      const stored = (await store.get(module))!;
      quota.record({ organization: stored.organization, keyLabel: stored.label, module, used: module === 'core' ? 1 : 2, limit: 10, seenAt: Date.now() });
    }
    assert.deepEqual(quota.readings().map((reading) => [reading.organization, reading.used]), [[holder, 2]]);
    for (const reading of quota.readings()) assert.ok(!/RSS(CORE|EFAT)/.test(JSON.stringify(reading)));
  });

  it('a key stored by an earlier version (organization typed, or none) keeps its organization and is offered for the next key', async () => {
    const secrets = new InMemorySecretStore();
    secrets.values.set(licenceSecretName('core'), JSON.stringify({ key: 'RSSCORE4F7K2M9Q1X8ZT', label: 'Rossi core', organization: 'org-rossi' }));
    secrets.values.set(licenceSecretName('hr'), 'BNCHR0000000000001');
    const store = new LicenceKeyStore(secrets);
    assert.equal((await store.get('core'))?.organization, 'org-rossi');
    const choices = holderChoices({ keys: await store.list(['core', 'hr', 'efat']), module: 'efat', tenants: [] });
    assert.deepEqual(choices.map((choice) => choice.organization), ['org-rossi', 'hr']);
  });

  it('refuses a label or an organization that is the key itself', async () => {
    const store = new LicenceKeyStore(new InMemorySecretStore());
    assert.match(checkNotTheKey('RSSCORE4F7K2M9Q1X8ZT', 'RSSCORE4F7K2M9Q1X8ZT') ?? '', /licence key itself/);
    assert.equal(checkNotTheKey('Rossi', 'RSSCORE4F7K2M9Q1X8ZT'), undefined);
    await assert.rejects(store.set('core', { key: 'RSSCORE4F7K2M9Q1X8ZT', label: 'core', organization: ' RSSCORE4F7K2M9Q1X8ZT ' }), /licence key itself/);
    await assert.rejects(store.set('core', { key: 'RSSCORE4F7K2M9Q1X8ZT', label: 'key RSSCORE4F7K2M9Q1X8ZT', organization: 'Rossi' }), /licence key itself/);
    assert.equal(await store.get('core'), undefined);
  });
});

describe('which organization a key is, from the tenants it covers', () => {
  const tenant = (id: string, code: string, description: string): TenantRecord =>
    ({ id, codiceAmbienteDati: code, descrizioneAmbienteDati: description, clusterAddress: 'https://c', usable: true }) as TenantRecord;
  const milano = tenant('t-mi', 'RC-MI', 'Rossi Costruzioni - Sede di Milano');
  const torino = tenant('t-to', 'RC-TO', 'Rossi Costruzioni - Filiale di Torino');
  const parma = tenant('t-pr', 'BA-PR', 'Bianchi Alimentari - Produzione');
  const tenants = [milano, torino, parma];

  it('a first key: a new organization, named by the words its tenants share', () => {
    assert.deepEqual(coverageAnswer([milano, torino], { keys: [], tenants }), { kind: 'new', suggested: 'Rossi Costruzioni' });
    assert.deepEqual(coverageAnswer([parma], { keys: [], tenants }), { kind: 'new', suggested: 'Bianchi Alimentari - Produzione' });
  });

  it('a second key covering any tenant of the first is that organization, under its one name', () => {
    const keys = [{ module: 'core', label: 'core', organization: 'Rossi Costruzioni', tenantIds: [milano.id, torino.id] }];
    assert.deepEqual(coverageAnswer([torino], { keys, tenants }), { kind: 'known', organization: 'Rossi Costruzioni' });
    assert.deepEqual(coverageAnswer([parma], { keys, tenants }), { kind: 'new', suggested: 'Bianchi Alimentari - Produzione' });
  });

  it('tenants of two organizations cannot be one licence\'s', () => {
    const keys = [
      { module: 'core', label: 'core', organization: 'Rossi Costruzioni', tenantIds: [milano.id] },
      { module: 'efat', label: 'efat', organization: 'Bianchi Alimentari', tenantIds: [parma.id] },
    ];
    assert.deepEqual(coverageAnswer([milano, parma], { keys, tenants }), { kind: 'conflict', organizations: ['Rossi Costruzioni', 'Bianchi Alimentari'] });
  });

  it('a key set before keys named their tenants covers the tenant its calls were counted against, or whose name it has', () => {
    const keys = [{ module: 'core', label: 'core', organization: 'Rossi Costruzioni - Sede di Milano' }];
    assert.equal(coveringOrganization(milano, { keys, tenants }), 'Rossi Costruzioni - Sede di Milano');
    assert.equal(coveringOrganization(torino, { keys, tenants }), undefined);
    assert.equal(coveringOrganization(torino, { keys, tenants, organizationOf: () => 'Rossi Costruzioni - Sede di Milano' }), 'Rossi Costruzioni - Sede di Milano');
  });
});
