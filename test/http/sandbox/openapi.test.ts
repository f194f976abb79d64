// The sandbox's OpenAPI descriptions: served by the base host, read by the catalogue reader, and
// every answer of the sandbox (successes and refusals) matching the schema documented for its status.
import { strict as assert } from 'node:assert';
import { CatalogueSet } from '../../../src/catalog/catalogues';
import { contractVerdict } from '../../../src/catalog/contract';
import { startCatalogueWorker } from '../../../src/catalog/lazyLibrary';
import { readSource } from '../../../src/catalog/sources';
import { WorkerReader } from '../../../src/catalog/workerReader';
import { OPENAPI_DOCUMENTS } from '../../sandbox/api/openapi';
import { startSandbox } from '../../sandbox/index';
import { editorSettings } from '../../sandbox/summary';
import type { Sandbox } from '../../sandbox/types';
import { tokensFor } from '../../helpers/sandboxTokens';
import { keyOf } from './fixtures';

describe('sandbox: OpenAPI descriptions', () => {
  let sandbox: Sandbox;
  let catalogues: CatalogueSet;
  let token: string;

  before(async () => {
    sandbox = await startSandbox({ rateLimits: { perSecond: 1e6, perMinute: 1e6 } });
    token = (await tokensFor(sandbox, 'mario.rossi')).accessToken;
    catalogues = new CatalogueSet({
      read: (entry) => readSource(entry, { readFile: async () => new Uint8Array(), fileSize: async () => 0, fetch }),
      // The editor's reader: the descriptions read and checked in a worker thread.
      reader: new WorkerReader(startCatalogueWorker),
    });
    catalogues.setEntries(OPENAPI_DOCUMENTS.map(({ file, host, module }) => ({ source: `${sandbox.baseUrl}/openapi/${file}`, host, ...(module ? { module } : {}) })));
    await catalogues.ready();
  });
  after(async () => {
    catalogues.dispose();
    await sandbox.close();
  });

  it('serves three descriptions (3.1 JSON, 3.0 JSON, 3.0 YAML) that npm start attaches', () => {
    assert.deepEqual(
      catalogues.list().map((catalogue) => (catalogue.state.kind === 'loaded' ? `${catalogue.state.document.version} ${catalogue.state.document.title} ${catalogue.state.document.operations.map((operation) => operation.key).join(', ')}` : stateText(catalogue.state))),
      ['3.1 Piattaforma GET /v10/user-tenants', '3.0 Configurazioni GET /api/configurazioni', '3.0 Fatturazione elettronica GET /efat/api/v1/ditte, GET /efat/api/v1/riepilogo'],
    );
    assert.deepEqual((editorSettings(sandbox)['tenantApi.catalogues'] as unknown[]).length, 3);
    assert.deepEqual(catalogues.routes(), [
      { prefix: '/v10/user-tenants', host: 'base' },
      { prefix: '/api/configurazioni', host: 'base', module: 'core' },
      { prefix: '/efat/api/v1/ditte', host: 'cluster', module: 'efat', tenantScoped: true },
      { prefix: '/efat/api/v1/riepilogo', host: 'cluster', module: 'efat', tenantScoped: true },
    ]);
  });

  it('every answer of the sandbox matches the schema documented for its status', async () => {
    const milano = sandbox.tenants.find((tenant) => tenant.codiceAmbienteDati === 'RC-MI')!;
    const core = keyOf(sandbox, 'org-rossi', 'core');
    const efat = keyOf(sandbox, 'org-rossi', 'efat');
    const calls: Array<[string, Record<string, string>, number]> = [
      [`${sandbox.baseUrl}/v10/user-tenants`, { Authorization: `Bearer ${token}` }, 200],
      [`${sandbox.baseUrl}/v10/user-tenants`, {}, 401],
      [`${sandbox.baseUrl}/api/configurazioni?pagina=2&dimensionePagina=40`, { Authorization: `Bearer ${token}`, 'Authorization-Key': core }, 200],
      [`${sandbox.baseUrl}/api/configurazioni?pagina=0`, { Authorization: `Bearer ${token}`, 'Authorization-Key': core }, 400],
      [`${sandbox.baseUrl}/api/configurazioni`, { Authorization: `Bearer ${token}` }, 401],
      [`${sandbox.baseUrl}/api/configurazioni`, { Authorization: `Bearer ${token}`, 'Authorization-Key': efat }, 403],
      [`${milano.clusterAddress}/efat/api/v1/ditte?dimensionePagina=200`, { Authorization: `Bearer ${token}`, 'Authorization-Key': efat, 'User-Tenant': milano.id }, 200],
      [`${milano.clusterAddress}/efat/api/v1/ditte`, { Authorization: `Bearer ${token}`, 'Authorization-Key': efat }, 400],
      [`${milano.clusterAddress}/efat/api/v1/riepilogo`, { Authorization: `Bearer ${token}`, 'Authorization-Key': efat, 'User-Tenant': milano.id }, 200],
      [`${sandbox.clusterUrls.find((url) => url !== milano.clusterAddress)}/efat/api/v1/riepilogo`, { Authorization: `Bearer ${token}`, 'Authorization-Key': efat, 'User-Tenant': milano.id }, 421],
    ];
    for (const [url, headers, status] of calls) {
      const answer = await fetch(url, { headers: { Accept: 'application/json', ...headers } });
      const bodyText = await answer.text();
      assert.equal(answer.status, status, `${url}: ${bodyText.slice(0, 200)}`);
      const verdict = await contractVerdict(catalogues, { method: 'GET', url, status: answer.status, bodyText, json: JSON.parse(bodyText) });
      assert.equal(verdict.kind, 'checked', `${url} ${status}: ${JSON.stringify(verdict)}`);
      assert.deepEqual(verdict.kind === 'checked' && verdict.violations, [], `${url} ${status}`);
    }
  });

  it('says where an answer breaks its schema, and that an answer of another status is not documented', async () => {
    const url = `${sandbox.baseUrl}/api/configurazioni`;
    const body = { organizzazione: 'org', pagina: 1, dimensionePagina: 1, totaleElementi: 1, totalePagine: 1, elementi: [{ codice: 'A', tipo: 'colore' }] };
    const verdict = await contractVerdict(catalogues, { method: 'GET', url, status: 200, bodyText: JSON.stringify(body), json: body });
    assert.equal(verdict.kind, 'checked');
    const found = verdict.kind === 'checked' ? verdict.violations.map((violation) => `${violation.path} ${violation.rule}`) : [];
    assert.ok(found.includes('$.elementi[0] required'), found.join('\n'));
    assert.ok(found.includes('$.elementi[0].tipo enum'), found.join('\n'));
    assert.deepEqual(await contractVerdict(catalogues, { method: 'DELETE', url, status: 405, bodyText: '{}', json: {} }), { kind: 'undocumented', request: 'DELETE /api/configurazioni' });
  });
});

function stateText(state: { kind: string; error?: Error }): string {
  return `${state.kind}: ${state.error?.message ?? ''}`;
}
