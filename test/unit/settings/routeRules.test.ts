import * as assert from 'node:assert/strict';
import { parseRouteSetting } from '../../../src/api/routes';
import { environmentsWithRouteRule, withRouteRule } from '../../../src/settings/routeRules';

describe('route rules added to tenantApi.routes', () => {
  const rule = { prefix: '/foo/', host: 'base' as const, module: 'core' };

  it('adds the rule after the user\'s own rules, which keep their order and win', () => {
    const mine = [{ prefix: '/api/special/', host: 'cluster' }];
    assert.deepEqual(withRouteRule(mine, rule), [...mine, rule]);
    assert.deepEqual(withRouteRule(undefined, rule), [rule], 'no setting yet');
    assert.deepEqual(withRouteRule('not a list', rule), [rule], 'a broken setting is replaced by a list');
  });

  it('replaces a rule with the same prefix instead of adding a second one', () => {
    const before = [{ prefix: '/foo/', host: 'cluster' }, { prefix: '/bar/', host: 'base' }];
    assert.deepEqual(withRouteRule(before, rule), [{ prefix: '/bar/', host: 'base' }, rule]);
  });

  it('the client reads the saved table back with the new rule', () => {
    assert.deepEqual(parseRouteSetting(withRouteRule([], rule)), [rule]);
  });

  it('adds the rule to the named environment only, matching its name as environments do (trimmed, any case)', () => {
    const environments = [
      { name: 'Staging', baseUrl: 'https://staging.example.com', routes: [{ prefix: '/x/', host: 'base' }] },
      { name: 'Produzione', routes: [] },
    ];
    const updated = environmentsWithRouteRule(environments, ' staging ', rule);
    assert.deepEqual(updated, [
      { name: 'Staging', baseUrl: 'https://staging.example.com', routes: [{ prefix: '/x/', host: 'base' }, rule] },
      { name: 'Produzione', routes: [] },
    ]);
    assert.deepEqual(environments[0].routes, [{ prefix: '/x/', host: 'base' }], 'the value read is not changed in place');
    assert.equal(environmentsWithRouteRule(environments, 'Missing', rule), undefined);
    assert.equal(environmentsWithRouteRule(undefined, 'Staging', rule), undefined);
  });
});
