// The calls a run of a request file makes, by licence module: what its cost is made from.
import * as assert from 'node:assert/strict';
import { RouteTable } from '../../../src/api/routes';
import { parseRequestFile } from '../../../src/engine/parser';
import { callsByModule } from '../../../src/engine/runPlan';

describe('run plan', () => {
  it('counts every request once, by the module its route names', () => {
    const file = parseRequestFile([
      '# @name login', 'GET /api/configurazioni?x=1', '###',
      'GET /efat/api/v1/ditte?pagina={{login.response.body.$.pagina}}', '###',
      'GET /efat/api/v1/ditte/{{id}}', '###',
      'GET /v10/user-tenants', '###',
      'GET https://elsewhere.example/x', '###',
      'GET /nowhere/at/all',
    ].join('\n'));
    const table = new RouteTable();
    assert.deepEqual([...callsByModule(file, (path) => table.match(path)).entries()].sort(), [[undefined, 3], ['core', 1], ['efat', 2]]);
  });
});
