// The editor's reader: descriptions read in a worker thread (the sources, compiled as the tests' own
// thread does), their bytes moved there, the operations sent back a few dozen at a time, errors with
// their place, files a reference names read by this thread, checks and bodies asked by handle, and
// a worker that stops when it holds nothing or dies.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { CatalogueSet, describeFailure } from '../../../src/catalog/catalogues';
import { startCatalogueWorker } from '../../../src/catalog/lazyLibrary';
import { MAX_DESCRIPTION_BYTES, MAX_YAML_ALIASES } from '../../../src/catalog/limits';
import { WorkerReader, type StartWorker } from '../../../src/catalog/workerReader';
import { CatalogueError, isCatalogueError, type CatalogueOperation } from '../../../src/catalog/types';
import { defaultSystemContext } from '../../../src/engine/systemVariables';
import { diagnoseWithCatalogues } from './bodyCheck';
import { PETSTORE_30_YAML, TREE_31_JSON } from './examples';

const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));

/** Starts workers as the editor does, and keeps each to watch it. */
function watched(start: StartWorker = startCatalogueWorker) {
  const workers: Worker[] = [];
  const exited = (worker: Worker) => new Promise<number>((resolve) => worker.once('exit', resolve));
  return { workers, exited, start: (data: Record<string, unknown>) => (workers.push(start(data)), workers[workers.length - 1]) };
}

async function refusal(reader: WorkerReader, text: string, name = 'api.json'): Promise<CatalogueError> {
  const error = await reader.read({ text: bytes(text), name }).then(() => undefined, (failure: unknown) => failure);
  assert.ok(isCatalogueError(error), `refused with a CatalogueError: ${String(error)}`);
  return error;
}

/** A description of `count` paths, one GET each. */
function manyPaths(count: number): string {
  const paths = Object.fromEntries(Array.from({ length: count }, (_, index) => [`/items${index}/{id}`, { get: { summary: `item ${index}`, responses: { 200: { description: 'ok' } } } }]));
  return JSON.stringify({ openapi: '3.0.3', info: { title: 'Many', version: '1' }, paths });
}

describe('Catalogue reader in a worker thread', () => {
  // One worker for the tests that need no fresh one: a worker compiles the sources first (most of a second).
  let shared: WorkerReader;
  before(() => (shared = new WorkerReader(startCatalogueWorker)));
  after(() => shared.dispose());

  it('reads a description there: its bytes moved, not copied, and its operations sent back in turns', async () => {
    const { workers, exited, start } = watched();
    const reader = new WorkerReader(start, undefined, 0);
    const text = bytes(manyPaths(180));
    const batches: CatalogueOperation[][] = [];
    const read = await reader.read({ text, name: 'many.json' }, (operations) => batches.push(operations));
    assert.equal(text.byteLength, 0, 'the buffer went to the worker');
    assert.equal(read.description.title, 'Many');
    assert.equal(read.description.operations.length, 180);
    assert.ok(batches.length >= 3, `in turns: ${batches.map((batch) => batch.length).join(', ')}`);
    assert.deepEqual(batches.flat().map((operation) => operation.key), read.description.operations.map((operation) => operation.key));
    assert.equal('document' in read.description, false, 'the description itself stays in the worker');
    assert.equal(workers.length, 1);
    const gone = exited(workers[0]);
    read.release();
    await gone;
    await assert.rejects(read.check('/paths', {}), /The catalogue reader stopped: read the catalogue again/);
    // The next read starts another.
    assert.equal((await reader.read({ text: bytes(manyPaths(2)), name: 'two.json' })).description.operations.length, 2);
    assert.equal(workers.length, 2);
    reader.dispose();
  });

  it('refuses what the reader refuses, with the same sentence, file, line and column; in the editor\'s language', async () => {
    const reader = shared;
    const json = await refusal(reader, '{\n  "openapi": "3.0.0",\n  "info": {,\n}');
    assert.ok(json instanceof CatalogueError);
    assert.match(describeFailure(json), /^api\.json is not valid JSON: .* \(line 3, column 12\)$/);
    assert.equal(json.where?.file, 'api.json');
    const yaml = await refusal(reader, 'openapi: 3.0.0\ninfo:\n  title: [a, b\npaths: {}\n', 'api.yaml');
    assert.ok(yaml.where?.line && yaml.where.line >= 3, JSON.stringify(yaml.where));
    const lines = ['openapi: 3.0.0', 'a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (const [name, previous] of [['b', 'a'], ['c', 'b'], ['d', 'c'], ['e', 'd'], ['f', 'e'], ['g', 'f']]) lines.push(`${name}: &${name} [${Array(10).fill(`*${previous}`).join(', ')}]`);
    assert.match((await refusal(reader, lines.join('\n'), 'bomb.yaml')).message, new RegExp(`YAML aliases expand beyond ${MAX_YAML_ALIASES} nodes`));
    const huge = new Uint8Array(MAX_DESCRIPTION_BYTES + 1).fill(0x20);
    const over = await reader.read({ text: huge, name: 'huge.json' }).catch((error: CatalogueError) => error);
    assert.match(String((over as Error).message), /huge\.json is 20 MB, over the limit of 20 MB for a description/);

    const italian = new WorkerReader(startCatalogueWorker, { '{0} is not valid JSON: {1}': '{0} non è JSON valido: {1}' });
    assert.match((await refusal(italian, '{"openapi": ')).message, /^api\.json non è JSON valido: /);
    italian.dispose();
  });

  it('asks this thread for the files a relative reference names', async () => {
    const files: Record<string, string> = {
      [path.resolve('/w/schemas/node.yaml')]: 'Node:\n  type: object\n  required: [id]\n  properties:\n    id: {type: integer, minimum: 1}\n    parent: {$ref: "#/Node"}\n',
    };
    const main = 'openapi: 3.0.3\ninfo: {title: Files, version: "1"}\npaths:\n  /nodi:\n    post:\n      requestBody:\n        content:\n          application/json:\n            schema: {$ref: "./schemas/node.yaml#/Node"}\n      responses:\n        "201": {description: ok}\n';
    const asked: string[] = [];
    const readFile = async (file: string) => {
      asked.push(file);
      if (files[file] === undefined) throw Object.assign(new Error('no'), { code: 'ENOENT' });
      return files[file];
    };
    const reader = shared;
    const read = await reader.read({ text: bytes(main), file: path.resolve('/w/api.yaml'), name: 'api.yaml', readFile });
    assert.deepEqual(asked, [path.resolve('/w/schemas/node.yaml')]);
    const body = read.description.operations[0].body!;
    assert.deepEqual((await read.check(body.schemaPointer!, { id: 2, parent: { id: 0 } })).map((violation) => `${violation.path} ${violation.rule}`), ['$.parent.id minimum']);
    const missing = await reader.read({ text: bytes(main.replace('./schemas/node.yaml', './gone.yaml')), file: path.resolve('/w/api.yaml'), name: 'api.yaml', readFile }).catch((error: Error) => error);
    assert.match((missing as Error).message, /gone\.yaml, referenced by the description, cannot be read: ENOENT/);
    read.release();
  });

  it('answers checks, located body checks and example bodies by handle, as the catalogue set asks them', async () => {
    const reader = { read: shared.read.bind(shared), dispose: () => undefined };
    const catalogues = new CatalogueSet({ read: async (entry) => ({ text: bytes(entry.source === 'pets.yaml' ? PETSTORE_30_YAML : TREE_31_JSON), name: entry.source }), reader });
    catalogues.setEntries([{ source: 'pets.yaml', host: 'base' }, { source: 'folders.json', host: 'cluster' }]);
    await catalogues.ready();
    const create = catalogues.find('POST', '/v1/pets')!;
    assert.ok(create, 'indexed as the operations came');
    assert.deepEqual(await catalogues.exampleBody(create), { id: 0, name: 'string', tag: 'string' });
    const text = ['POST /v1/pets', 'Content-Type: application/json', '', '{', '  "id": "seven",', '  "tag": {{tag}}', '}'].join('\n');
    const found = await diagnoseWithCatalogues(text, { routeFor: () => ({ prefix: '/v1/', host: 'base' }), environment: { tag: 'x' }, system: defaultSystemContext() }, catalogues);
    assert.deepEqual(
      found.filter((item) => item.code === 'schema').map((item) => [item.line, item.start, item.end]),
      [[3, 0, 1], [4, 8, 15]],
    );
    // A property the schema does not document: at the property, not its value.
    const put = catalogues.find('PUT', '/efat/api/v1/cartelle/7')!;
    const body = '{\n  "name": "a",\n  "extra": 12\n}';
    assert.deepEqual(
      (await catalogues.checkBody(put, put.operation.body!.schemaPointer!, body)).map((violation) => [violation.rule, violation.offset, violation.length]),
      [['additionalProperties', body.indexOf('"extra"'), 2]],
    );
    const list = catalogues.find('GET', '/v1/pets')!;
    const pointer = list.operation.responses.find((response) => response.status === '200')!.schemaPointer!;
    assert.deepEqual((await catalogues.check(list, pointer, [{ id: 1 }])).map((violation) => violation.message), ["must have required property 'name'"]);
    catalogues.dispose();
    await assert.rejects(catalogues.check(list, pointer, []), /no longer loaded/);
  });

  it('a worker that dies fails what it owed with a sentence; the next read starts another', async () => {
    let first = true;
    const start: StartWorker = (data) => {
      if (!first) return startCatalogueWorker(data);
      first = false;
      return new Worker('process.exit(3)', { eval: true });
    };
    const reader = new WorkerReader(start);
    await assert.rejects(reader.read({ text: bytes(PETSTORE_30_YAML), name: 'pets.yaml' }), (error: Error) => isCatalogueError(error) && /The catalogue reader stopped: it exited with code 3/.test(error.message));
    const read = await reader.read({ text: bytes(PETSTORE_30_YAML), name: 'pets.yaml' });
    assert.equal(read.description.operations.length, 3);
    reader.dispose();
    await assert.rejects(read.check('/paths/~1pets/get', []), /The catalogue reader stopped: read the catalogue again/);
  });
});
