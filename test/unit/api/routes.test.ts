import * as assert from 'node:assert/strict';
import sinon from 'sinon';
import {
  BUILT_IN_ENDPOINTS,
  BUILT_IN_ROUTES,
  RouteTable,
  matchesPrefix,
  needsTenant,
  mergeEndpoints,
  parseEndpointSetting,
  parseRouteSetting,
  proposeRule,
} from '../../../src/api/routes';
import { silentLogger } from '../../../src/common/logger';

describe('route table', () => {
  const table = new RouteTable();

  it('sends the tenant listing to the base host with the bearer only', () => {
    assert.deepEqual(table.match('/v10/user-tenants'), { prefix: '/v10/', host: 'base' });
  });

  it('sends /api/ to the base host with the core module key', () => {
    assert.deepEqual(table.match('/api/configurazioni?top=10'), { prefix: '/api/', host: 'base', module: 'core' });
  });

  it('sends /efat/ to the tenant cluster with the efat key and User-Tenant', () => {
    assert.deepEqual(table.match('/efat/api/v1/ditte'), { prefix: '/efat/', host: 'cluster', module: 'efat', tenantScoped: true });
  });

  it('matches whole segments only', () => {
    assert.equal(table.match('/apix/configurazioni'), undefined);
    assert.equal(table.match('/efatture'), undefined);
    assert.equal(table.match('/api')?.module, 'core');
    assert.ok(matchesPrefix('/hr/x', '/hr'));
    assert.ok(!matchesPrefix('/hrx', '/hr'));
  });

  it('derives the licence modules from the table, once each', () => {
    assert.deepEqual(table.modules(), ['core', 'efat']);
    const extended = new RouteTable([{ prefix: '/hr/', host: 'cluster', module: 'hr', tenantScoped: true }, { prefix: '/api/v2/', host: 'base', module: 'core' }]);
    assert.deepEqual(extended.modules(), ['hr', 'core', 'efat']);
    assert.deepEqual(extended.prefixesOf('core'), ['/api/v2/', '/api/']);
  });

  it('puts user rules before the built-in ones', () => {
    const rules = parseRouteSetting([{ prefix: '/api/special/', host: 'cluster', module: 'special' }]);
    const extended = new RouteTable(rules);
    assert.equal(extended.match('/api/special/x')?.module, 'special');
    assert.equal(extended.match('/api/special/x')?.tenantScoped, true, 'a cluster rule is always tenant-scoped');
    assert.equal(extended.match('/api/other')?.module, 'core');
    assert.equal(BUILT_IN_ROUTES.length, 3);
  });

  it('skips and logs bad user rules, keeping the good ones', () => {
    const logger = { ...silentLogger, warn: sinon.spy() };
    const rules = parseRouteSetting(
      [null, 'x', { prefix: 'no-slash', host: 'base' }, { prefix: '/a/', host: 'moon' }, { prefix: '/b/', host: 'base', module: 'bad module!' }, { prefix: '/c/', host: 'base', tenantScoped: 'yes' }, { prefix: '/ok/', host: 'base', module: 'ok' }],
      logger,
    );
    assert.deepEqual(rules, [{ prefix: '/ok/', host: 'base', module: 'ok' }]);
    assert.equal(logger.warn.callCount, 6);
    assert.match(String(logger.warn.getCall(3).args[0]), /tenantApi\.routes\[3\].*host/);
    assert.deepEqual(parseRouteSetting('not an array'), []);
  });
});

describe('endpoint table', () => {
  it('lists the spec endpoints', () => {
    assert.deepEqual(
      BUILT_IN_ENDPOINTS.map((e) => `${e.method} ${e.path}`),
      ['GET /api/configurazioni', 'GET /efat/api/v1/ditte', 'GET /v10/user-tenants'],
    );
  });

  it('adds user endpoints first, normalizes them and drops duplicates', () => {
    const user = parseEndpointSetting([{ label: 'Dipendenti', path: '/hr/api/v1/dipendenti' }, { path: '/api/configurazioni', method: 'get' }, { label: 'x', path: 'bad' }]);
    assert.deepEqual(user, [
      { label: 'Dipendenti', method: 'GET', path: '/hr/api/v1/dipendenti' },
      { label: '/api/configurazioni', method: 'GET', path: '/api/configurazioni' },
    ]);
    const merged = mergeEndpoints(user);
    assert.equal(merged.length, 4);
    assert.equal(merged.filter((e) => e.path === '/api/configurazioni').length, 1);
  });
});

describe('needsTenant', () => {
  it('is true for tenant-scoped rules and for every rule served by a cluster, false otherwise', () => {
    assert.equal(needsTenant({ prefix: '/efat/', host: 'cluster', module: 'efat', tenantScoped: true }), true);
    assert.equal(needsTenant({ prefix: '/x/', host: 'cluster' }), true);
    assert.equal(needsTenant({ prefix: '/y/', host: 'base', tenantScoped: true }), true);
    assert.equal(needsTenant({ prefix: '/api/', host: 'base', module: 'core' }), false);
    assert.equal(needsTenant(undefined), false);
  });
});

describe('proposeRule (the rule remembered for a path no rule matched)', () => {
  it('takes the first segment as the prefix, so the next path under it matches', () => {
    const rule = proposeRule('/foo/bar?x=1', { host: 'base' });
    assert.deepEqual(rule, { prefix: '/foo/', host: 'base' });
    const table = new RouteTable([rule!]);
    for (const path of ['/foo', '/foo/bar', '/foo/other/deeper']) assert.deepEqual(table.match(path), rule, path);
    assert.equal(table.match('/foobar/x'), undefined, 'a longer first segment is another prefix');
  });

  it('defaults to the base host with no licence key', () => {
    assert.deepEqual(proposeRule('/foo/bar'), { prefix: '/foo/', host: 'base' });
  });

  it('keeps the module answered, and a cluster rule is tenant-scoped (as parseRouteSetting reads it back)', () => {
    const rule = proposeRule('/paghe/v1/cedolini', { host: 'cluster', module: 'paghe' });
    assert.deepEqual(rule, { prefix: '/paghe/', host: 'cluster', module: 'paghe', tenantScoped: true });
    assert.deepEqual(parseRouteSetting([rule]), [rule], 'the saved rule is read back unchanged');
    assert.equal(needsTenant(rule), true);
  });

  it('proposes nothing for "/" (a rule for every path would shadow the built-in ones) or a bad module name', () => {
    assert.equal(proposeRule('/'), undefined);
    assert.equal(proposeRule('/?a=1'), undefined);
    assert.equal(proposeRule('/foo/bar', { host: 'base', module: 'not a module' }), undefined);
  });
});
