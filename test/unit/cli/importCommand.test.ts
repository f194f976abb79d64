// tenant-api import: the format detected or named, all files written or none, one line when it cannot.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli, type CliDeps } from '../../../src/cli/commands';
import { importCommand, ImportFailed } from '../../../src/cli/importCommand';
import { parseArguments, UsageError } from '../../../src/cli/options';
import { ImportError, type Importer } from '../../../src/engine/importers';

const twoFiles: Importer = {
  format: 'postman',
  detects: (text) => text.startsWith('{"info"'),
  read: async ({ text }) => {
    if (text.includes('broken')) throw new ImportError('collection.json: line 1, column 9: not JSON');
    return {
      format: 'postman',
      files: [{ path: 'a.http', text: 'GET /api/configurazioni\n', requests: 1 }, { path: 'sub/b.http', text: 'GET /efat/api/v1/ditte\n', requests: 1 }],
      notes: [{ where: 'item "Login"', message: 'the test script was not imported' }],
    };
  },
};
const empty: Importer = { format: 'curl', detects: (text) => text.startsWith('curl'), read: async () => ({ format: 'curl', files: [], notes: [] }) };

function workspace() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-'));
  const out: string[] = [];
  const err: string[] = [];
  const output = { interactive: false, out: (line: string) => out.push(line), err: (line: string) => err.push(line), status: () => undefined };
  return { dir, out, err, deps: (stdin = '') => ({ cwd: dir, output, readStdin: async () => stdin, importers: [twoFiles, empty] }) };
}

describe('tenant-api import', () => {
  it('reads import, its input and its options', () => {
    assert.deepEqual(
      { ...parseArguments(['import', '-', '--format', 'curl', '--out', 'req', '--force']) },
      { ...parseArguments(['import', '-']), format: 'curl', out: 'req', force: true },
    );
    assert.throws(() => parseArguments(['import']), (e: unknown) => e instanceof UsageError && /takes one input/.test(e.message));
    assert.throws(() => parseArguments(['import', 'a.json', 'b.json']), /takes one input/);
    assert.throws(() => parseArguments(['import', 'a.json', '--format', 'har']), /--format takes openapi, postman, curl, got "har"/);
    assert.throws(() => parseArguments(['run', 'a.http', '--out', 'x']), /Unknown option --out for "run"/);
  });

  it('writes every file of the detected format under --out and names what it dropped', async () => {
    const ws = workspace();
    fs.writeFileSync(path.join(ws.dir, 'collection.json'), '{"info":{}}');
    await importCommand(parseArguments(['import', 'collection.json', '--out', 'requests']), ws.deps());
    assert.equal(fs.readFileSync(path.join(ws.dir, 'requests', 'sub', 'b.http'), 'utf8'), 'GET /efat/api/v1/ditte\n');
    assert.deepEqual(ws.out, [`Wrote ${path.join('requests', 'a.http')} (1 request)`, `Wrote ${path.join('requests', 'sub', 'b.http')} (1 request)`]);
    assert.deepEqual(ws.err, ['item "Login": the test script was not imported']);
  });

  it('writes nothing when one file exists, unless --force', async () => {
    const ws = workspace();
    fs.writeFileSync(path.join(ws.dir, 'b.http'), 'mine');
    fs.mkdirSync(path.join(ws.dir, 'sub'));
    fs.writeFileSync(path.join(ws.dir, 'sub', 'b.http'), 'mine');
    await assert.rejects(importCommand(parseArguments(['import', '-']), ws.deps('{"info":{}}')), (e: unknown) => e instanceof ImportFailed && /sub.b\.http exists: nothing was written/.test(e.message));
    assert.equal(fs.existsSync(path.join(ws.dir, 'a.http')), false, 'the file before the existing one is not written either');
    await importCommand(parseArguments(['import', '-', '--force']), ws.deps('{"info":{}}'));
    assert.equal(fs.readFileSync(path.join(ws.dir, 'sub', 'b.http'), 'utf8'), 'GET /efat/api/v1/ditte\n');
  });

  const refusals: Array<[string, string[], string, RegExp]> = [
    ['an empty input', ['import', '-'], '  \n', /standard input is empty: nothing to import/],
    ['an unknown format', ['import', '-'], 'hello', /not a format tenant-api can import/],
    ['an unreadable input', ['import', '-'], '{"info": broken', /line 1, column 9: not JSON/],
    ['an input with no request', ['import', '-'], 'curl', /holds no request to import/],
    ['a file that does not exist', ['import', 'missing.json'], '', /Cannot read missing\.json: ENOENT/],
  ];
  for (const [what, argv, stdin, message] of refusals) {
    it(`refuses ${what} with one line and writes nothing`, async () => {
      const ws = workspace();
      await assert.rejects(importCommand(parseArguments(argv), ws.deps(stdin)), (e: unknown) => e instanceof ImportFailed && message.test(e.message) && !e.message.includes('\n'));
      assert.deepEqual(fs.readdirSync(ws.dir), []);
    });
  }

  it('exits 2 with the line on stderr', async () => {
    const ws = workspace();
    const deps = { ...ws.deps('hello'), env: {}, fetch: fetch, clock: { now: () => 0 }, logger: () => ({}), version: '0' } as unknown as CliDeps;
    assert.equal(await runCli(parseArguments(['import', '-']), deps), 2);
    assert.match(ws.err.join('\n'), /not a format tenant-api can import/);
  });

  it('a collection, then its environment, into one folder: the environment file takes both in; a broken one stops the import', async () => {
    const ws = workspace();
    const deps = { ...ws.deps(), importers: undefined };
    const collection = { info: { name: 'Shop', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, variable: [{ key: 'baseUrl', value: 'http://127.0.0.1:1' }], item: [{ name: 'List', request: { method: 'GET', url: '{{baseUrl}}/v10/user-tenants' } }] };
    const environment = { name: 'Sandbox', values: [{ key: 'baseUrl', value: 'http://127.0.0.1:2', enabled: true }], _postman_variable_scope: 'environment' };
    fs.writeFileSync(path.join(ws.dir, 'shop.json'), JSON.stringify(collection));
    fs.writeFileSync(path.join(ws.dir, 'sandbox.json'), JSON.stringify(environment));
    await importCommand(parseArguments(['import', 'shop.json']), deps);
    await importCommand(parseArguments(['import', 'sandbox.json']), deps);
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(ws.dir, 'http-client.env.json'), 'utf8')), { $shared: { baseUrl: 'http://127.0.0.1:1' }, Sandbox: { baseUrl: 'http://127.0.0.1:2' } });
    fs.writeFileSync(path.join(ws.dir, 'http-client.env.json'), '{"a": }');
    await assert.rejects(importCommand(parseArguments(['import', 'sandbox.json']), deps), (e: unknown) => e instanceof ImportFailed && /^http-client\.env\.json:1:7: .*nothing was written\.$/.test(e.message));
  });
});
