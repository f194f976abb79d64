// Postman collections (v2.1 and v2.0) and environment exports in: each construct, written as files that parse.
import * as assert from 'node:assert/strict';
import { importRequests, ImportError, type ImportResult } from '../../../src/engine/importers';
import { parseRequestFile } from '../../../src/engine/parser';
import { onlyStatusChecks } from '../../../src/engine/importers/postmanScripts';

const V21 = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
const V20 = 'https://schema.getpostman.com/json/collection/v2.0.0/collection.json';

const collection = {
  info: { name: 'Gestionale', schema: V21 },
  auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{token}}' }] },
  variable: [
    { key: 'baseUrl', value: 'https://api.example.com' },
    { key: 'pageSize', value: 5 },
    { key: 'apiToken', value: 'tok-123' },
    { key: 'old', value: 'x', disabled: true },
  ],
  item: [
    {
      name: 'Tenants',
      request: {
        method: 'GET',
        header: [
          { key: 'Accept', value: 'application/json' },
          { key: 'X-Debug', value: '1', disabled: true },
          { key: 'Authorization', value: 'Bearer {{token}}' },
        ],
        url: { raw: '{{baseUrl}}/v10/user-tenants?all=true&skip=1', host: ['{{baseUrl}}'], path: ['v10', 'user-tenants'], query: [{ key: 'all', value: 'true' }, { key: 'skip', value: '1', disabled: true }] },
        description: 'Lists your tenants.\n\nMore text that is not kept.',
      },
      event: [{ listen: 'test', script: { exec: ['pm.test("Status is 200", function () {', '    pm.response.to.have.status(200);', '});'] } }],
    },
    {
      name: 'Anagrafica',
      item: [
        {
          name: 'Crea cliente',
          request: {
            method: 'POST',
            header: [],
            body: { mode: 'raw', raw: '{\n  "nome": "Ada",\n  "id": "{{$guid}}"\n}', options: { raw: { language: 'json' } } },
            url: { raw: '{{baseUrl}}/api/clienti/:id', host: ['{{baseUrl}}'], path: ['api', 'clienti', ':id'], variable: [{ key: 'id', value: '42' }] },
          },
          event: [
            { listen: 'prerequest', script: { exec: ['pm.environment.set("x", Date.now());'] } },
            { listen: 'test', script: { exec: ['pm.expect(pm.response.code).to.eql(201);', 'pm.environment.set("id", pm.response.json().id);'] } },
          ],
        },
        {
          name: 'Sub',
          item: [
            { name: 'Login form', request: { method: 'POST', url: '{{baseUrl}}/login', body: { mode: 'urlencoded', urlencoded: [{ key: 'user', value: 'ada lovelace' }, { key: 'pwd', value: '{{password}}' }, { key: 'off', value: '1', disabled: true }] } } },
            { name: 'Upload', request: { method: 'POST', url: '{{baseUrl}}/upload', body: { mode: 'formdata', formdata: [{ key: 'title', value: 'Q1', type: 'text' }, { key: 'file', src: '/tmp/a.pdf', type: 'file' }] } } },
            { name: 'Query', request: { method: 'POST', url: '{{baseUrl}}/graphql', body: { mode: 'graphql', graphql: { query: '{ ditte { id } }', variables: '{"n": 1}' } } } },
          ],
        },
      ],
    },
  ],
};

function fileOf(result: ImportResult, path: string): string {
  const file = result.files.find((candidate) => candidate.path === path);
  assert.ok(file, `${path} in ${result.files.map((candidate) => candidate.path).join(', ')}`);
  return file.text;
}

describe('engine/importers/postman', () => {
  let result: ImportResult;
  before(async () => {
    result = await importRequests({ text: JSON.stringify(collection), source: 'gestionale.postman_collection.json' });
  });

  it('is detected; each folder with requests is a file under the collection\'s name; every file parses', () => {
    assert.equal(result.format, 'postman');
    assert.deepEqual(
      result.files.map((file) => [file.path, file.requests]),
      [['Gestionale.http', 1], ['Gestionale/Anagrafica.http', 1], ['Gestionale/Anagrafica/Sub.http', 3], ['http-client.env.json', 0], ['http-client.private.env.json', 0]],
    );
    for (const file of result.files.filter((candidate) => candidate.path.endsWith('.http'))) assert.deepEqual(parseRequestFile(file.text).problems, [], file.text);
  });

  it('a request: its name, description, enabled query parameters and headers; a status-only test as an assertion', () => {
    const [tenants] = parseRequestFile(fileOf(result, 'Gestionale.http')).requests;
    assert.equal(tenants.name, 'Tenants');
    assert.equal(tenants.url, '{{baseUrl}}/v10/user-tenants?all=true');
    assert.deepEqual(tenants.headers.map((header) => [header.name, header.value]), [['Accept', 'application/json']]);
    assert.deepEqual(tenants.assertions.map((assertion) => assertion.text), ['?? status == 200']);
    assert.match(fileOf(result, 'Gestionale.http'), /^# Lists your tenants\.\nGET /m);
    assert.match(fileOf(result, 'Gestionale.http'), /\n\?\? status == 200\n$/);
  });

  it('raw JSON kept as written, path variables filled, dynamic variables renamed; a script that does more is named, not run', () => {
    const text = fileOf(result, 'Gestionale/Anagrafica.http');
    const [create] = parseRequestFile(text).requests;
    assert.equal(create.url, '{{baseUrl}}/api/clienti/42');
    assert.equal(create.body?.kind === 'inline' && create.body.text, '{\n  "nome": "Ada",\n  "id": "{{$guid}}"\n}');
    assert.deepEqual(create.headers.map((header) => [header.name, header.value]), [['Content-Type', 'application/json']]);
    assert.deepEqual(create.assertions, []);
    const notes = result.notes.filter((note) => note.where === 'item "Anagrafica › Crea cliente"').map((note) => note.message);
    assert.deepEqual(notes, [
      'The pre-request script was not imported (scripts are never run): pm.environment.set("x", Date.now());',
      'The test script was not imported (scripts are never run): pm.expect(pm.response.code).to.eql(201);',
    ]);
  });

  it('urlencoded, text form-data and GraphQL bodies; a file part is named', () => {
    const [login, upload, query] = parseRequestFile(fileOf(result, 'Gestionale/Anagrafica/Sub.http')).requests;
    const body = (request: typeof login) => (request.body?.kind === 'inline' ? request.body.text : '');
    assert.equal(body(login), 'user=ada%20lovelace&pwd={{password}}');
    assert.equal(login.headers[0].value, 'application/x-www-form-urlencoded');
    assert.match(body(upload), /name="title"\n\nQ1\n--TenantApiFormBoundary--$/);
    assert.ok(!body(upload).includes('a.pdf'));
    assert.deepEqual(JSON.parse(body(query)), { query: '{ ditte { id } }', variables: { n: 1 } });
    assert.ok(result.notes.some((note) => note.where === 'item "Anagrafica › Sub › Upload"' && /form field file sends a file/.test(note.message)));
  });

  it('auth blocks and credential headers are dropped and named; collection variables go to $shared, secrets to the private file', () => {
    assert.ok(result.notes.some((note) => note.where === 'the collection' && note.message.startsWith('The bearer auth was dropped')));
    assert.ok(result.notes.some((note) => note.where === 'item "Tenants"' && note.message.startsWith('The header Authorization was dropped')));
    assert.deepEqual(JSON.parse(fileOf(result, 'http-client.env.json')), { $shared: { baseUrl: 'https://api.example.com', pageSize: '5' } });
    assert.deepEqual(JSON.parse(fileOf(result, 'http-client.private.env.json')), { $shared: { apiToken: 'tok-123' } });
    assert.ok(result.notes.some((note) => /http-client\.private\.env\.json holds secret values \(apiToken\): keep it out of version control/.test(note.message)));
  });

  it('v2.0: a URL and headers written as strings', async () => {
    const old = { info: { name: 'Old', schema: V20 }, item: [{ name: 'One', request: { method: 'delete', url: 'https://api.example.com/a/1', header: 'Accept: text/plain\nX-Trace: 7' } }] };
    const imported = await importRequests({ text: JSON.stringify(old) });
    const [one] = parseRequestFile(fileOf(imported, 'Old.http')).requests;
    assert.deepEqual([one.method, one.url, one.headers.map((header) => header.name)], ['DELETE', 'https://api.example.com/a/1', ['Accept', 'X-Trace']]);
  });

  it('an environment export becomes an environment of the env files, secret values apart', async () => {
    const environment = { name: 'Sandbox', values: [{ key: 'baseUrl', value: 'http://127.0.0.1:4000', enabled: true }, { key: 'password', value: 'p4ss', enabled: true, type: 'secret' }, { key: 'off', value: 'x', enabled: false }], _postman_variable_scope: 'environment' };
    const imported = await importRequests({ text: JSON.stringify(environment), source: 'Sandbox.postman_environment.json' });
    assert.deepEqual(JSON.parse(fileOf(imported, 'http-client.env.json')), { Sandbox: { baseUrl: 'http://127.0.0.1:4000' } });
    assert.deepEqual(JSON.parse(fileOf(imported, 'http-client.private.env.json')), { Sandbox: { password: 'p4ss' } });
  });

  it('refuses what it cannot read with one line and the place', async () => {
    await assert.rejects(importRequests({ text: '{"info": {"name": "x"}, "item": [ }', source: 'broken.json' }, 'postman'), (error: unknown) => error instanceof ImportError && /^broken\.json: line 1, column 35: /.test(error.message));
    await assert.rejects(importRequests({ text: '{"info": {"name": "x", "schema": "https://schema.getpostman.com/json/collection/v1.0.0/collection.json"}, "item": []}' }, 'postman'), /v1 are not supported/);
    await assert.rejects(importRequests({ text: '{"a": 1}', source: 'other.json' }, 'postman'), /other\.json is neither a Postman collection/);
    await assert.rejects(importRequests({ text: JSON.stringify({ info: { name: 'Empty', schema: V21 }, item: [{ name: 'F', item: [] }] }) }), /holds no request to import/);
  });

  it('reads a test script as status checks only when that is all it does', () => {
    assert.deepEqual(onlyStatusChecks('pm.test("ok", () => {\n  pm.response.to.have.status(204);\n});'), [204]);
    assert.deepEqual(onlyStatusChecks('// the status\npm.expect(pm.response.code).to.equal(200);'), [200]);
    assert.equal(onlyStatusChecks('pm.response.to.have.status(200);\npm.expect(pm.response.json().id).to.exist;'), undefined);
    assert.equal(onlyStatusChecks('console.log(1)'), undefined);
  });
});
