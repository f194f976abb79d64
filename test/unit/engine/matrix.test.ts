// The matrix of a run (request x tenant x data row): its cells and their order, the tenants a request
// names, data files read as rows, the filters, results chained per tenant, a tenant without a key skipped.
import * as assert from 'node:assert/strict';
import { apiErrors } from '../../../src/api/errors';
import { RouteTable } from '../../../src/api/routes';
import { TenantResolver } from '../../../src/api/tenantResolver';
import type { ApiRequest, ApiResponse, TenantRecord } from '../../../src/api/types';
import { DataFileError, parseDataRows } from '../../../src/engine/dataRows';
import { cellLabel, matrixCalls, planMatrix, selectRequests } from '../../../src/engine/matrix';
import { runMatrix } from '../../../src/engine/matrixRun';
import { parseRequestFile } from '../../../src/engine/parser';
import { RequestFileRunner } from '../../../src/engine/runner';
import { defaultSystemContext } from '../../../src/engine/systemVariables';
import { dependencyNames, plannedCalls } from '../../../src/engine/testing/testPlan';

const tenants: TenantRecord[] = ['RC-MI', 'RC-TO', 'BA-PR'].map((code, index) => ({ id: `t${index}`, codiceAmbienteDati: code, descrizioneAmbienteDati: `Tenant ${code}`, clusterAddress: 'http://127.0.0.1:4403', usable: true }));

function setup(refuse?: (request: ApiRequest) => boolean) {
  const sent: ApiRequest[] = [];
  const routes = new RouteTable();
  const runner = new RequestFileRunner({
    sender: {
      api: {
        routeFor: (path) => routes.match(path),
        send: async (request) => {
          if (refuse?.(request)) throw apiErrors.licenceMissing('efat', {}, `No key for ${request.tenant?.codiceAmbienteDati}`);
          sent.push(request);
          const body = { tenant: request.tenant?.codiceAmbienteDati ?? null, path: request.path };
          return { method: String(request.method), url: request.path, status: 200, statusText: 'OK', headers: {}, bodyText: JSON.stringify(body), json: body, timeMs: 1, sizeBytes: 1, requestHeaders: {}, attempts: 1, warnings: [] } as ApiResponse;
        },
      },
      tenants: new TenantResolver({ listed: () => tenants, tenants: async () => tenants, active: () => ({ id: 't0' }), isSignedIn: () => true }),
      baseUrl: () => 'http://127.0.0.1:4402',
      fetch: fetch,
      timeoutMs: () => 1000,
    },
    environment: () => ({}),
    system: (lookup) => defaultSystemContext(lookup),
  });
  const document = (text: string) => ({ key: 'file:///m.http', text, readBodyFile: () => '' });
  return { runner, sent, document };
}

async function plan(text: string, options: { tenants?: string[]; rows?: string; filter?: { tags?: string[]; name?: string } } = {}) {
  const { runner, sent, document } = setup();
  const file = parseRequestFile(text);
  const cells = await planMatrix({
    file,
    requests: selectRequests(file.requests, options.filter),
    sources: (cell) => runner.sources('file:///m.http', file, cell),
    tenants: options.tenants,
    rows: options.rows === undefined ? undefined : parseDataRows(options.rows, 'rows.csv'),
    listTenants: async () => tenants,
    knownTenants: () => tenants,
  });
  return { cells, file, runner, sent, document: document(text) };
}

describe('engine/matrix', () => {
  it('runs row by row, each request in file order, each tenant in the order named; * is every tenant; one tenant pins a request', async () => {
    const text = ['# @tenant RC-TO, rc-mi', '# @name a', 'GET /efat/api/v1/ditte?x={{x}}', '###', '# @tenant *', '# @name b', 'GET /efat/api/v1/ditte', '###', '# @tenant BA-PR', '# @name c', 'GET /efat/api/v1/ditte', '###', '# @name d', 'GET /api/configurazioni'].join('\n');
    const { cells } = await plan(text, { rows: 'x,label\n1,one\n2,two\n' });
    assert.deepEqual(cells.map(cellLabel), [
      'a [RC-TO] #1 one', 'a [RC-MI] #1 one', 'b [RC-MI] #1 one', 'b [RC-TO] #1 one', 'b [BA-PR] #1 one', 'c [BA-PR] #1 one', 'd #1 one',
      'a [RC-TO] #2 two', 'a [RC-MI] #2 two', 'b [RC-MI] #2 two', 'b [RC-TO] #2 two', 'b [BA-PR] #2 two', 'c [BA-PR] #2 two', 'd #2 two',
    ]);
    assert.equal(cells[5].run.tenant, undefined, 'a pinned request runs in the context every tenant shares');
    assert.equal(cells[6].multiTenant, false);
    const withDefault = await plan(text, { tenants: ['RC-MI', 'BA-PR'] });
    assert.deepEqual(withDefault.cells.filter((cell) => cell.request.name === 'd').map((cell) => cell.tenant), ['RC-MI', 'BA-PR'], '--tenant A,B is the list of requests that name none');
  });

  it('selects by tag (any of them, any case) and by a pattern of names; an unnamed request is "line N"', async () => {
    const text = ['# @tag smoke, slow', '# @name a', 'GET /api/a', '###', '# @tag Nightly', 'GET /api/b', '###', '# @name c', 'GET /api/c'].join('\n');
    assert.deepEqual((await plan(text, { filter: { tags: ['SMOKE', 'nightly'] } })).cells.map(cellLabel), ['a', 'line 6']);
    assert.deepEqual((await plan(text, { filter: { name: '^(a|c)$' } })).cells.map(cellLabel), ['a', 'c']);
    assert.deepEqual((await plan(text, { filter: { tags: ['slow'], name: 'c' } })).cells, []);
  });

  it('chains per tenant: a request reads the answer its own tenant got; a pinned one is read by every tenant', async () => {
    const text = ['# @tenant BA-PR', '# @name shared', 'GET /efat/api/v1/ditte?s=1', '###', '# @tenant RC-MI, RC-TO', '# @name first', 'GET /efat/api/v1/ditte?f=1', '###', '# @tenant RC-MI, RC-TO', 'GET /efat/api/v1/ditte?mine={{first.response.body.$.tenant}}&shared={{shared.response.body.$.tenant}}'].join('\n');
    const { cells, runner, sent, document } = await plan(text);
    const { results } = await runMatrix(runner, document, cells);
    assert.deepEqual(results.map((result) => result.kind), ['ran', 'ran', 'ran', 'ran', 'ran']);
    assert.deepEqual(sent.map((request) => `${request.tenant?.codiceAmbienteDati} ${request.path}`).slice(3), ['RC-MI /efat/api/v1/ditte?mine=RC-MI&shared=BA-PR', 'RC-TO /efat/api/v1/ditte?mine=RC-TO&shared=BA-PR']);
  });

  it('skips a tenant of a matrix whose call has no licence key, with the sentence, and goes on; a row\'s answers are forgotten once it is done', async () => {
    const { runner, sent, document } = setup((request) => request.tenant?.codiceAmbienteDati === 'BA-PR');
    const text = '# @tenant RC-MI, BA-PR, RC-TO\n# @name d\nGET /efat/api/v1/ditte?id={{id}}';
    const file = parseRequestFile(text);
    const cells = await planMatrix({ file, requests: file.requests, sources: (cell) => runner.sources('file:///m.http', file, cell), rows: parseDataRows('id\n7\n8', 'r.csv'), listTenants: async () => tenants, knownTenants: () => tenants });
    const { results } = await runMatrix(runner, document(text), cells);
    assert.deepEqual(results.map((result) => [cellLabel(result.cell), result.kind]), [['d [RC-MI] #1', 'ran'], ['d [BA-PR] #1', 'skipped'], ['d [RC-TO] #1', 'ran'], ['d [RC-MI] #2', 'ran'], ['d [BA-PR] #2', 'skipped'], ['d [RC-TO] #2', 'ran']]);
    assert.equal(results[1].kind === 'skipped' && results[1].reason, 'No key for BA-PR');
    assert.equal(sent.length, 4);
    assert.equal(runner.resultsOf('file:///m.http#row=1#tenant=rc-mi').size, 0, 'row 1 forgotten');
  });

  it('counts the calls per context, chained requests included, each for its tenant', async () => {
    const text = ['# @name login', 'GET /api/configurazioni', '###', '# @tenant RC-MI, RC-TO', 'GET /efat/api/v1/ditte?x={{login.response.body.$.path}}'].join('\n');
    const { cells, file, runner } = await plan(text);
    const sources = { ...runner.sources('file:///m.http', file), result: () => undefined };
    const tests = cells.filter((cell) => cell.request.index === 1);
    const calls = matrixCalls(file, tests, (parsed, requests) => plannedCalls(parsed, requests, (request) => dependencyNames(request, sources)));
    assert.deepEqual(calls.map((call) => `${call.request.index}:${call.tenant}`), ['0:RC-MI', '1:RC-MI', '0:RC-TO', '1:RC-TO']);
  });
});

describe('engine/dataRows', () => {
  it('reads CSV with a header (quoted commas, a BOM) and JSON arrays; the label column names a row', () => {
    assert.deepEqual(parseDataRows('\uFEFFlabel,size\n"big, really",3\n', 'r.csv'), [{ number: 1, label: 'big, really', values: { label: 'big, really', size: '3' } }]);
    assert.deepEqual(parseDataRows('[{"name": "Alice", "age": 30, "ok": true, "tags": ["a"]}]', 'r.json'), [{ number: 1, label: 'Alice', values: { name: 'Alice', age: '30', ok: 'true', tags: '["a"]' } }]);
    assert.deepEqual(parseDataRows('id\n1\n2\n', 'r.csv').map((row) => [row.number, row.label]), [[1, undefined], [2, undefined]]);
  });

  it('reads CSV without quotes as the CSV parser reads it', () => {
    const texts = ['id,label\nr1,row 1\nr2, row 2 \n', 'a, b ,c\r\n1,,3\r\n\r\n4,5,6', 'x\n\n\n7\n', 'a,a\n1,2\n', 'a,b\n1\n', 'a\r1\r2', 'a,b\n1,2\n  \n3,4\n'];
    for (const text of texts) {
      const parsed = (csv: string) => {
        try {
          return parseDataRows(csv, 'r.csv');
        } catch (error) {
          return error instanceof Error ? error.message : String(error);
        }
      };
      // A quoted cell goes through the parser alone: the same text quoted must read the same.
      const quoted = text.replace(/[^,\r\n]+/g, (cell) => `"${cell}"`);
      assert.deepEqual(parsed(text), parsed(quoted), JSON.stringify(text));
    }
    assert.deepEqual(parseDataRows('id,label\nr1, one \n', 'r.csv'), [{ number: 1, label: 'one', values: { id: 'r1', label: ' one ' } }]);
  });

  it('refuses what is not a table of variables, saying why', () => {
    assert.throws(() => parseDataRows('a,b\n1,2,3\n', 'r.csv'), (error: unknown) => error instanceof DataFileError && /r\.csv is not CSV with a header row/.test(error.message));
    assert.throws(() => parseDataRows('{"a": 1}', 'r.json'), /not a JSON array of objects/);
    assert.throws(() => parseDataRows('[1]', 'r.json'), /row 1 is not an object/);
    assert.throws(() => parseDataRows('my column\nx\n', 'r.csv'), /the column "my column" is not a variable name/);
    assert.throws(() => parseDataRows('id\n', 'r.csv'), /has no rows/);
  });
});
