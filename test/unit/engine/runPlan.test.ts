// The calls a run makes, by the organization each counts against: what its cost and the quota guard weigh.
import * as assert from 'node:assert/strict';
import { RouteTable } from '../../../src/api/routes';
import { parseRequestFile } from '../../../src/engine/parser';
import { callsByOrganization } from '../../../src/engine/runPlan';

describe('run plan', () => {
  it('counts every call once, by the organization of its module\'s key for its tenant; no module, no organization', async () => {
    const file = parseRequestFile([
      'GET /api/configurazioni?x=1', '###',
      'GET /efat/api/v1/ditte/{{id}}', '###',
      'GET /v10/user-tenants', '###',
      'GET https://elsewhere.example/x', '###',
      'GET /nowhere/at/all',
    ].join('\n'));
    const table = new RouteTable();
    const asked: string[] = [];
    const organizationOf = async (module: string, tenant: string | undefined) => {
      asked.push(`${module} ${tenant}`);
      return tenant === 'BA-PR' ? 'Bianchi' : module === 'core' ? 'Rossi' : undefined;
    };
    const calls = ['RC-MI', 'BA-PR', 'RC-TO'].flatMap((tenant) => file.requests.map((request) => ({ request, tenant })));
    const counts = await callsByOrganization(calls, (path) => table.match(path), organizationOf);
    assert.deepEqual([...counts.entries()].sort((a, b) => String(a[0]).localeCompare(String(b[0]))), [['Bianchi', 2], ['Rossi', 2], [undefined, 11]]);
    assert.equal(asked.length, 6, 'asked once per module and tenant');
  });
});
