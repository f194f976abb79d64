// The catalogue set (loaded once, when first wanted; a failure kept as a sentence), the setting's
// entries, reading an address (no credentials, no redirect, the size limit), the routes a catalogue
// implies, the request text it writes, the body check of a request file and `?? schema` in a file.
import * as assert from 'node:assert/strict';
import { CatalogueSet } from '../../../src/catalog/catalogues';
import { parseCatalogueEntries } from '../../../src/catalog/entries';
import { catalogueLibrary } from '../../../src/catalog/lazyLibrary';
import { inThreadReader } from '../../../src/catalog/readers';
import { MAX_DESCRIPTION_BYTES } from '../../../src/catalog/limits';
import { catalogueRoutes } from '../../../src/catalog/routes';
import { readSource } from '../../../src/catalog/sources';
import { RouteTable } from '../../../src/api/routes';
import { parseRequestFile } from '../../../src/engine/parser';
import { defaultSystemContext } from '../../../src/engine/systemVariables';
import { importRequests, IMPORTERS } from '../../../src/engine/importers';
import { checkResponse } from '../../../src/engine/assertions/checkResponse';
import { contractVerdict } from '../../../src/catalog/contract';
import { diagnoseWithCatalogues } from './bodyCheck';
import { PETSTORE_20_JSON, PETSTORE_30_YAML, TREE_31_JSON } from './examples';

function set(texts: Record<string, string>) {
  const reads: string[] = [];
  const catalogues = new CatalogueSet({
    read: async (entry) => {
      reads.push(entry.source);
      if (!(entry.source in texts)) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
      return { text: texts[entry.source], name: entry.source };
    },
    reader: inThreadReader(catalogueLibrary),
  });
  return { catalogues, reads };
}

describe('Catalogue set', () => {
  it('reads nothing until wanted, then each entry once; a bad one is a sentence and the others load', async () => {
    const { catalogues, reads } = set({ 'pets.yaml': PETSTORE_30_YAML, 'broken.json': '{"openapi": "3.0.0",' });
    let changes = 0;
    catalogues.onDidChange(() => changes++);
    catalogues.setEntries([{ source: 'pets.yaml', host: 'base', module: 'pets' }, { source: 'broken.json', host: 'cluster' }]);
    assert.deepEqual(reads, []);
    assert.deepEqual(catalogues.routes(), []);
    await Promise.all([catalogues.ready(), catalogues.ready()]);
    assert.deepEqual(reads, ['pets.yaml', 'broken.json']);
    const [pets, broken] = catalogues.list();
    assert.equal(pets.state.kind, 'loaded');
    assert.equal(broken.state.kind, 'failed');
    assert.match(broken.state.kind === 'failed' ? broken.state.error.message : '', /broken\.json is not valid JSON/);
    assert.deepEqual(catalogues.routes(), [{ prefix: '/v1/pets', host: 'base', module: 'pets' }]);
    assert.equal(catalogues.find('GET', '/v1/pets/42')?.operation.operationId, 'showPetById');
    assert.equal(catalogues.find('GET', '/v1/pets/{{id}}')?.operation.operationId, 'showPetById');
    assert.equal(catalogues.find('DELETE', '/v1/pets/42'), undefined);
    assert.ok(changes >= 3);
    // The same entries again: nothing is read again.
    catalogues.setEntries([{ source: 'pets.yaml', host: 'base', module: 'pets' }, { source: 'broken.json', host: 'cluster' }]);
    await catalogues.ready();
    assert.equal(reads.length, 2);
  });

  it('reads the setting: a workspace file or https (http only on this computer), a host, an optional module', () => {
    const { entries, problems } = parseCatalogueEntries([
      { source: 'api/efat.yaml', host: 'cluster', module: 'efat' },
      { source: 'https://api.example.com/openapi.json', host: 'base' },
      { source: 'http://127.0.0.1:4402/openapi/core.json', host: 'base', module: 'core' },
      { source: 'http://api.example.com/openapi.json', host: 'base' },
      { source: 'https://user:pw@api.example.com/x', host: 'base' },
      { source: 'x.yaml', host: 'elsewhere' },
      { source: 'x.yaml', host: 'base', module: 'bad module' },
      'x.yaml',
    ]);
    assert.deepEqual(entries.map((entry) => entry.source), ['api/efat.yaml', 'https://api.example.com/openapi.json', 'http://127.0.0.1:4402/openapi/core.json']);
    assert.deepEqual(problems.map((problem) => problem.replace(/^tenantApi\.catalogues\[(\d)\] is ignored: /, '$1 ')), [
      '3 the address api.example.com does not use https (http only on this computer).',
      '4 the address api.example.com holds a user name or password.',
      '5 "host" must be "base" or "cluster".',
      '6 "module" must be a short name of letters, digits, ".", "_" or "-".',
      '7 it is not an object.',
    ]);
    assert.deepEqual(parseCatalogueEntries('x').problems, ['tenantApi.catalogues must be a list of catalogues; it is ignored.']);
  });

  it('fetches an address without credentials, refuses a redirect elsewhere and a description over the limit', async () => {
    const asked: Array<{ url: string; init?: RequestInit }> = [];
    const answer = (response: Response) => async (url: unknown, init?: RequestInit) => (asked.push({ url: String(url), init }), response);
    const deps = (fetcher: typeof fetch) => ({ readFile: async () => new Uint8Array(), fileSize: async () => 0, fetch: fetcher });
    const read = await readSource({ source: 'https://api.example.com/openapi.yaml' }, deps(answer(new Response('openapi: 3.0.0')) as typeof fetch));
    assert.equal(Buffer.from(read.text).toString('utf8'), 'openapi: 3.0.0', 'its bytes, decoded by the reader');
    assert.equal(read.file, undefined, 'no file beside it: its relative references are remote');
    assert.equal(asked[0].init?.redirect, 'manual');
    assert.deepEqual(Object.keys(asked[0].init?.headers ?? {}), ['Accept'], 'no Authorization, no licence key');
    await assert.rejects(readSource({ source: 'https://api.example.com/o.json' }, deps(answer(new Response('', { status: 302, headers: { location: 'https://evil.example/o.json' } })) as typeof fetch)), /answered with a redirect \(302\): only the address named in the setting is read/);
    await assert.rejects(readSource({ source: 'https://api.example.com/o.json' }, deps(answer(new Response('x', { headers: { 'content-length': String(MAX_DESCRIPTION_BYTES + 1) } })) as typeof fetch)), /over the limit of 20 MB/);
    await assert.rejects(readSource({ source: 'https://api.example.com/o.json' }, deps(answer(new Response('no', { status: 404, statusText: 'Not Found' })) as typeof fetch)), /answered 404 Not Found/);
    await assert.rejects(readSource({ source: 'big.yaml' }, { folder: '/w', readFile: async () => new Uint8Array(), fileSize: async () => MAX_DESCRIPTION_BYTES + 1, fetch }), /big\.yaml is 20 MB, over the limit of 20 MB/);
  });

  it('implies the fewest routes, after the user\'s rules and before the built-in ones', () => {
    const operations = ['/efat/api/v1/ditte', '/efat/api/v1/ditte/{id}', '/efat/api/v1/ditte/{id}/sedi', '/efat/api/v1/cartelle/{id}', '/{tenant}/x'].map((path) => ({ key: `GET ${path}`, method: 'GET', path, group: 'g', deprecated: false, parameters: [], responses: [] }));
    const routes = catalogueRoutes(operations, { host: 'cluster', module: 'efat' });
    assert.deepEqual(routes.map((route) => route.prefix), ['/efat/api/v1/ditte', '/efat/api/v1/cartelle/']);
    const table = new RouteTable([{ prefix: '/efat/api/v1/ditte/speciali', host: 'base' }], undefined, routes);
    assert.equal(table.match('/efat/api/v1/ditte/speciali')?.host, 'base', 'the user\'s rule first');
    assert.deepEqual(table.match('/efat/api/v1/cartelle/3'), { prefix: '/efat/api/v1/cartelle/', host: 'cluster', module: 'efat', tenantScoped: true });
    assert.equal(table.match('/efat/other')?.prefix, '/efat/', 'the built-in rule after them');
  });

  it('imports one request per operation: names, path variables, examples, status assertions, what it left out', async () => {
    assert.equal(IMPORTERS.find((importer) => importer.detects(PETSTORE_30_YAML))?.format, 'openapi');
    assert.equal(IMPORTERS.find((importer) => importer.detects(PETSTORE_20_JSON))?.format, 'openapi');
    assert.equal(IMPORTERS.find((importer) => importer.detects('{"info": {"name": "x"}, "item": []}'))?.format, 'postman', 'a Postman collection is not taken for a description');
    const tree = await importRequests({ text: TREE_31_JSON, source: 'folders.json' });
    const all = tree.files.map((file) => file.text).join('\n');
    assert.match(all, /^@id = 7$/m);
    assert.match(all, /^# @name get_folder\nGET \/efat\/api\/v1\/cartelle\/\{\{id\}\}\nX-Trace: abc\n\n\?\? status >= 200\n\?\? status < 300$/m);
    assert.doesNotMatch(all, /Authorization-Key/, 'a credential header is never written');
    assert.match(all, /^# The cookie parameter session is not imported: request files send no cookies\.$/m);
    assert.match(all, /^PUT \/efat\/api\/v1\/cartelle\/\{\{id\}\}\nContent-Type: application\/json\n\n\{\n {2}"name": "Documenti",\n {2}"children": \[\]\n\}\n\n\?\? status == 204$/m);
    assert.deepEqual(tree.notes.map((note) => note.where), ['GET /efat/api/v1/cartelle/{id}']);
    const pets = await importRequests({ text: PETSTORE_20_JSON, source: 'petstore.json' });
    assert.match(pets.files[0].text, /^# The body \(multipart\/form-data\) is not imported: request files send JSON bodies; write it by hand\.\n# @name uploadPhoto$/m);
    // Every file it wrote parses as a request file, with one request per operation.
    for (const file of [...tree.files, ...pets.files]) assert.deepEqual(parseRequestFile(file.text).problems, []);
    assert.deepEqual(pets.files.map((file) => [file.path, parseRequestFile(file.text).requests.length]), [['pets.http', 3]]);
  });

  it('warns where a request file\'s body breaks its schema, never at a {{variable}}', async () => {
    const { catalogues } = set({ 'pets.yaml': PETSTORE_30_YAML });
    catalogues.setEntries([{ source: 'pets.yaml', host: 'base' }]);
    await catalogues.ready();
    const text = ['POST /v1/pets', 'Content-Type: application/json', '', '{', '  "id": "seven",', '  "tag": {{tag}}', '}'].join('\n');
    const found = await diagnoseWithCatalogues(text, { routeFor: () => ({ prefix: '/v1/', host: 'base' }), environment: { tag: 'x' }, system: defaultSystemContext() }, catalogues);
    const schema = found.filter((item) => item.code === 'schema').map((item) => [item.line, item.start, item.severity, item.message]);
    assert.deepEqual(schema, [
      [3, 0, 'warning', "The body does not match the schema of POST /v1/pets: $ must have required property 'name' (required)"],
      [4, 8, 'warning', 'The body does not match the schema of POST /v1/pets: $.id must be integer (type)'],
    ]);
    const valid = text.replace('"seven"', '7').replace('{{tag}}', '"x", "name": "Rex"');
    assert.deepEqual((await diagnoseWithCatalogues(valid, { routeFor: () => ({ prefix: '/v1/', host: 'base' }), environment: {}, system: defaultSystemContext() }, catalogues)).filter((item) => item.code === 'schema'), []);
  });

  it('?? schema: written alone, passes or names where the answer breaks its schema, and says when nothing documents it', async () => {
    const { catalogues } = set({ 'pets.yaml': PETSTORE_30_YAML });
    catalogues.setEntries([{ source: 'pets.yaml', host: 'base' }]);
    await catalogues.ready();
    const file = parseRequestFile('GET /v1/pets\n\n?? schema\n?? schema == 1');
    assert.equal(file.requests[0].assertions.length, 1);
    assert.match(file.problems[0].detail ?? '', /"schema" is a whole check: write it alone, "\?\? schema"/);
    const answer = async (url: string, status: number, json: unknown) => {
      const response = { method: 'GET', url, status, headers: {}, bodyText: JSON.stringify(json), json, timeMs: 1 };
      const verdict = await contractVerdict(catalogues, response);
      return checkResponse(file.requests[0].assertions, { ...response, contract: () => verdict }, (text) => ({ text, problems: [] }))[0];
    };
    assert.equal((await answer('http://h/v1/pets', 200, [{ id: 1, name: 'Rex' }])).passed, true);
    const failed = await answer('http://h/v1/pets', 200, [{ id: 1, name: 'Rex' }, { id: 2 }]);
    assert.equal(failed.passed, false);
    assert.equal(failed.message, "schema: the body does not match the schema of GET /v1/pets for 200: $[1] must have required property 'name' (required)");
    assert.equal(failed.actual, "$[1] must have required property 'name' (required)");
    assert.match((await answer('http://h/v1/pets', 500, { code: 1, message: 'x' })).message, /matches the schema of GET \/v1\/pets for DEFAULT/);
    assert.match((await answer('http://h/v2/cats', 200, [])).message, /no catalogue documents GET \/v2\/cats/);
    const alone = checkResponse(file.requests[0].assertions, { status: 200, headers: {}, bodyText: '[]', json: [], timeMs: 1 }, (text) => ({ text, problems: [] }))[0];
    assert.match(alone.message, /no catalogue is attached \(tenantApi\.catalogues\)/);
  });
});
