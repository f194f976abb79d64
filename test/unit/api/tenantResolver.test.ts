import * as assert from 'node:assert/strict';
import { isApiError } from '../../../src/api/errors';
import { findTenant, TenantResolver } from '../../../src/api/tenantResolver';
import type { TenantRecord } from '../../../src/api/types';
import { tenantRecord } from '../../helpers/tenantRecords';

const milano = tenantRecord('t-mi', 'RC-MI', 'Rossi Milano');
const torino = tenantRecord('t-to', 'RC-TO', 'Rossi Torino');
// A code that is another tenant's id: the id wins.
const tricky = tenantRecord('t-x', 'T-TO', 'T-MI');

function resolver(options: { listed?: TenantRecord[]; tenants?: TenantRecord[]; active?: string; signedOut?: boolean } = {}) {
  let listings = 0;
  const resolver = new TenantResolver({
    listed: () => options.listed ?? [],
    tenants: async () => {
      listings++;
      return options.tenants ?? [];
    },
    active: () => (options.active ? { id: options.active } : undefined),
    isSignedIn: () => !options.signedOut,
  });
  return { resolver, listings: () => listings };
}

const rejectsWithTenant = (pattern: RegExp) => (error: unknown) => {
  assert.ok(isApiError(error), String(error));
  assert.equal(error.kind, 'tenant');
  assert.match(error.message, pattern);
  return true;
};

describe('tenantResolver', () => {
  it('finds a tenant by id, code or description, trimmed and in any case (ids too)', () => {
    const tenants = [milano, torino, tricky];
    assert.equal(findTenant('t-mi', tenants), milano);
    // The one rule about case: TenantDirectory.find compared ids exactly, request files in any case.
    assert.equal(findTenant('T-MI', tenants), milano);
    assert.equal(findTenant('rc-to', tenants), torino);
    assert.equal(findTenant('  rossi milano ', tenants), milano);
    assert.equal(findTenant('t-to', tenants), torino, 'an id wins over a code');
    assert.equal(findTenant('Rossi', tenants), undefined);
    assert.equal(findTenant(' ', tenants), undefined);
  });

  it('looks in the listed tenants first and lists the active account only when needed', async () => {
    const listedFirst = resolver({ listed: [milano], tenants: [torino] });
    assert.equal(await listedFirst.resolver.find('rc-mi'), milano);
    assert.equal(listedFirst.listings(), 0);
    assert.equal(await listedFirst.resolver.find('RC-TO'), torino);
    assert.equal(listedFirst.listings(), 1);
  });

  it('resolves a named tenant, else the active one when the route needs it', async () => {
    const { resolver: r } = resolver({ tenants: [milano, torino], active: 't-to' });
    assert.equal(await r.resolve('rc-mi', 'named', '/api/x'), milano);
    assert.equal(await r.resolve(undefined, 'required', '/efat/x'), torino);
    assert.equal(await r.resolve(undefined, 'optional', '/efat/x'), torino);
    assert.equal(await r.resolve(undefined, 'named', '/api/x'), undefined, 'a base-host path takes no active tenant');
    await assert.rejects(r.resolve('XX', 'named', '/api/x'), rejectsWithTenant(/XX is not one of your tenants/));
  });

  it('says why a required tenant is missing: none named and none active, or the active one gone', async () => {
    await assert.rejects(resolver({ tenants: [milano] }).resolver.resolve(undefined, 'required', '/efat/ditte?x=1'), rejectsWithTenant(/^\/efat\/ditte needs a tenant/));
    assert.equal(await resolver({ tenants: [milano] }).resolver.resolve(undefined, 'optional', '/efat/x'), undefined);
    const gone = resolver({ tenants: [milano], active: 't-old' }).resolver;
    await assert.rejects(gone.resolve(undefined, 'required', '/efat/x'), rejectsWithTenant(/active tenant is not one of your tenants any more/));
    assert.equal(await gone.resolve(undefined, 'optional', '/efat/x'), undefined);
  });

  it('signed out, a tenant named or needed asks for a sign-in: the sign-out is the cause, not the tenant', async () => {
    const { resolver: r, listings } = resolver({ tenants: [milano], active: 't-mi', signedOut: true });
    const signIn = (error: unknown) => {
      assert.ok(isApiError(error), String(error));
      assert.equal(error.kind, 'auth');
      return true;
    };
    await assert.rejects(r.resolve('RC-MI', 'named', '/efat/x'), signIn);
    await assert.rejects(r.resolve(undefined, 'required', '/efat/x'), signIn);
    assert.equal(await r.resolve(undefined, 'named', '/api/x'), undefined, 'a path that needs no tenant goes on (the client asks for the sign-in)');
    assert.equal(listings(), 0);
  });

  it('knows the listed tenants without waiting, or says none are known yet', () => {
    assert.equal(resolver().resolver.known(), undefined);
    assert.deepEqual(resolver({ listed: [milano] }).resolver.known(), [milano]);
  });
});
