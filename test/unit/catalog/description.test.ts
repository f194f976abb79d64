// Reading descriptions: the three versions, JSON and YAML, file and circular references, a remote
// reference reported and never fetched, the schema check, samples, and every bad input refused once.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { readDescription, SchemaChecker, exampleBody } from '../../../src/catalog/library';
import { MAX_DESCRIPTION_BYTES, MAX_YAML_ALIASES } from '../../../src/catalog/limits';
import { CatalogueError, type CatalogueDocument } from '../../../src/catalog/types';
import { describeFailure } from '../../../src/catalog/catalogues';
import { PETSTORE_20_JSON, PETSTORE_30_YAML, TREE_31_JSON } from './examples';

function checker(document: CatalogueDocument) {
  const check = new SchemaChecker(document.document, document.version);
  return (key: string, status: string | 'body', value: unknown) => {
    const operation = document.operations.find((candidate) => candidate.key === key)!;
    const pointer = status === 'body' ? operation.body!.schemaPointer! : operation.responses.find((response) => response.status === status)!.schemaPointer!;
    return check.check(pointer, value);
  };
}

async function refusal(text: string, options: { file?: string; readFile?: (file: string) => Promise<string> } = {}): Promise<CatalogueError> {
  try {
    await readDescription({ text, name: options.file ?? 'api.yaml', file: options.file, readFile: options.readFile });
  } catch (error) {
    assert.ok(error instanceof CatalogueError, String(error));
    return error;
  }
  assert.fail('the description was read');
}

describe('Catalogue descriptions', () => {
  it('reads OpenAPI 3.0 in YAML: the server\'s path before each path, groups, parameters, the schemas by pointer', async () => {
    const document = await readDescription({ text: PETSTORE_30_YAML, name: 'petstore.yaml' });
    assert.equal(document.version, '3.0');
    assert.equal(document.title, 'Swagger Petstore');
    assert.deepEqual(document.operations.map((operation) => operation.key), ['GET /v1/pets', 'POST /v1/pets', 'GET /v1/pets/{petId}']);
    const [list, create, show] = document.operations;
    assert.equal(list.group, 'pets');
    assert.deepEqual(list.parameters, [{ name: 'limit', in: 'query', required: false, description: 'How many items to return at one time (max 100)', type: 'integer' }]);
    assert.deepEqual(create.body && { required: create.body.required, json: create.body.json, mediaType: create.body.mediaType }, { required: true, json: true, mediaType: 'application/json' });
    assert.equal(show.parameters[0].required, true);
    assert.deepEqual(list.responses.map((response) => response.status), ['200', 'DEFAULT']);

    const check = checker(document);
    assert.deepEqual(check('GET /v1/pets', '200', [{ id: 1, name: 'Rex' }]), []);
    assert.deepEqual(check('GET /v1/pets', '200', [{ id: 1, name: 'Rex' }, { id: 'two', name: 'Fido' }]), [{ pointer: '/1/id', path: '$[1].id', rule: 'type', message: 'must be integer' }]);
    assert.deepEqual(check('POST /v1/pets', 'body', { id: 3 }), [{ pointer: '', path: '$', rule: 'required', message: "must have required property 'name'" }]);
  });

  it('reads Swagger 2.0 in JSON: basePath, a body parameter, form fields as a body it cannot send', async () => {
    const document = await readDescription({ text: PETSTORE_20_JSON, name: 'petstore.json' });
    assert.equal(document.version, '2.0');
    assert.deepEqual(document.operations.map((operation) => `${operation.key} ${operation.group}`), ['GET /api/pets pets', 'POST /api/pets pets', 'POST /api/pets/{id}/photo pets']);
    const add = document.operations[1];
    assert.deepEqual(exampleBody(document, add.body!), { name: 'Fido', tag: 'string' });
    assert.deepEqual(document.operations[2].body && { json: document.operations[2].body.json, mediaType: document.operations[2].body.mediaType }, { json: false, mediaType: 'multipart/form-data' });
    const check = checker(document);
    assert.deepEqual(check('GET /api/pets', '200', [{ id: 1, name: 'Rex' }]), []);
    assert.equal(check('GET /api/pets', '200', [{ id: 1 }])[0].path, '$[0]');
  });

  it('reads OpenAPI 3.1: server variables, the 2020-12 dialect, a circular schema checked at depth, the documented example', async () => {
    const document = await readDescription({ text: TREE_31_JSON, name: 'folders.json' });
    assert.equal(document.version, '3.1');
    const [get, put] = document.operations;
    assert.equal(get.key, 'GET /efat/api/v1/cartelle/{id}');
    assert.equal(get.group, 'Cartelle');
    assert.deepEqual(get.parameters.map((parameter) => `${parameter.in} ${parameter.name} ${parameter.required}`), ['path id true', 'header Authorization-Key true', 'header X-Trace true', 'cookie session false']);
    assert.deepEqual(exampleBody(document, put.body!), { name: 'Documenti', children: [] });
    const check = checker(document);
    const deep = { name: 'a', children: [{ name: 'b', children: [{ name: 'c', note: null, kind: 'folder', children: [{ name: 7 }] }] }] };
    assert.deepEqual(check(get.key, '2XX', deep).map((violation) => `${violation.path} ${violation.rule}`), ['$.children[0].children[0].children[0].name type']);
    assert.deepEqual(check(get.key, '2XX', { name: 'a', size: [1, 2] }).map((violation) => `${violation.path} ${violation.rule}`), ['$.size[1] type'], 'prefixItems is 2020-12');
    assert.deepEqual(check(get.key, '2XX', { name: 'a', note: 'x' }).map((violation) => violation.rule), ['dependentRequired']);
    assert.deepEqual(check(get.key, '2XX', { name: 'a', extra: 1 }), [{ pointer: '/extra', path: '$.extra', rule: 'additionalProperties', message: 'is not a documented property' }]);
    // openapi-sampler cuts the circle short.
    assert.equal(typeof exampleBody(document, { required: false, mediaType: 'application/json', json: true, schemaPointer: '/components/schemas/Folder' }), 'object');
  });

  it('bundles relative files (YAML and JSON, one referring to the next), circular between files included', async () => {
    const files: Record<string, string> = {
      [path.resolve('/w/api.yaml')]: 'openapi: 3.0.3\ninfo: {title: Files, version: "1"}\npaths:\n  /nodi:\n    get:\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: "./schemas/node.yaml#/Node"}\n',
      [path.resolve('/w/schemas/node.yaml')]: 'Node:\n  type: object\n  required: [id]\n  properties:\n    id: {$ref: "../common.json#/Id"}\n    parent: {$ref: "#/Node"}\n',
      [path.resolve('/w/common.json')]: '{"Id": {"type": "integer", "minimum": 1}}',
    };
    const read: string[] = [];
    const document = await readDescription({ text: files[path.resolve('/w/api.yaml')], file: path.resolve('/w/api.yaml'), readFile: async (file) => (read.push(file), files[file]) });
    assert.deepEqual(read.sort(), [path.resolve('/w/common.json'), path.resolve('/w/schemas/node.yaml')]);
    const check = checker(document);
    assert.deepEqual(check('GET /nodi', '200', { id: 2, parent: { id: 1 } }), []);
    assert.deepEqual(check('GET /nodi', '200', { id: 2, parent: { id: 0 } }).map((violation) => `${violation.path} ${violation.rule}`), ['$.parent.id minimum']);

    const missing = await refusal(files[path.resolve('/w/api.yaml')].replace('./schemas/node.yaml', './gone.yaml'), { file: path.resolve('/w/api.yaml'), readFile: async (file) => (files[file] === undefined ? Promise.reject(Object.assign(new Error('no'), { code: 'ENOENT' })) : files[file]) });
    assert.match(missing.message, /gone\.yaml, referenced by the description, cannot be read: ENOENT/);
  });

  it('reports a remote reference and never fetches it: that part is left empty', async () => {
    const text = 'openapi: 3.0.3\ninfo: {title: Remote, version: "1"}\npaths:\n  /a:\n    get:\n      responses:\n        "200":\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: "https://schemas.example.com/a.json#/A"}\n';
    const read: string[] = [];
    const document = await readDescription({ text, file: path.resolve('/w/api.yaml'), readFile: async (file) => (read.push(file), '{}') });
    assert.deepEqual(read, []);
    assert.equal(document.notes.length, 1);
    assert.match(document.notes[0].message, /The reference https:\/\/schemas\.example\.com\/a\.json#\/A is not fetched/);
    assert.deepEqual(checker(document)('GET /a', '200', { anything: true }), []);
    // A relative reference of a description read from an address is remote too.
    const fromAddress = await readDescription({ text: text.replace('https://schemas.example.com/a.json', 'a.json'), name: 'https://api.example.com/openapi.yaml' });
    assert.match(fromAddress.notes[0].message, /a\.json#\/A is not fetched/);
  });

  describe('refuses, with one sentence naming where', () => {
    it('malformed JSON, with its line and column', async () => {
      const error = await refusal('{\n  "openapi": "3.0.0",\n  "info": {,\n}', { file: 'api.json' });
      assert.match(describeFailure(error), /^api\.json is not valid JSON: .* \(line 3, column 12\)$/);
    });
    it('malformed YAML, with its line and column', async () => {
      const error = await refusal('openapi: 3.0.0\ninfo:\n  title: [a, b\npaths: {}\n');
      assert.match(describeFailure(error), /^api\.yaml is not valid YAML: .*\(line \d, column \d\)$/);
      assert.ok(error.where?.line && error.where.line >= 3, JSON.stringify(error.where));
    });
    it('a description over the size limit, naming the limit', async () => {
      const error = await refusal(`openapi: 3.0.0\n#${'x'.repeat(MAX_DESCRIPTION_BYTES)}\n`);
      assert.match(error.message, /is 20 MB, over the limit of 20 MB for a description/);
    });
    it('YAML that expands without bound', async () => {
      const lines = ['openapi: 3.0.0', 'a: &a [x, x, x, x, x, x, x, x, x, x]'];
      for (const [name, previous] of [['b', 'a'], ['c', 'b'], ['d', 'c'], ['e', 'd'], ['f', 'e'], ['g', 'f']]) lines.push(`${name}: &${name} [${Array(10).fill(`*${previous}`).join(', ')}]`);
      const started = performance.now();
      const error = await refusal(lines.join('\n'));
      assert.match(error.message, new RegExp(`YAML aliases expand beyond ${MAX_YAML_ALIASES} nodes`));
      assert.ok(performance.now() - started < 5000, 'refused before it grew');
    });
    it('a document that is not a description, or of a version it does not read', async () => {
      assert.match((await refusal('{"info": {"title": "x"}, "item": []}')).message, /not an OpenAPI or Swagger description: it has no "openapi" or "swagger" field/);
      assert.match((await refusal('openapi: 4.0.0\npaths: {}\n')).message, /OpenAPI 4\.0\.0: only Swagger 2\.0 and OpenAPI 3\.0 and 3\.1 are read/);
      assert.match((await refusal('  \n')).message, /is empty/);
      assert.match((await refusal('- a\n- b\n')).message, /it is not an object/);
    });
  });
});
