// Environment files as JetBrains, httpYac, Kulala and REST Client users write them, read for a request file's folder.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { EnvironmentFiles } from '../../../src/settings/environmentFileSources';
import { EnvironmentFileError, mergeEnvironmentFiles, parseDotenv, parseEnvironmentFile } from '../../../src/settings/environmentFiles';

const root = path.resolve('/work/project');
const at = (...parts: string[]) => path.join(root, ...parts);

/** Environment files in memory, counting reads. */
function files(contents: Record<string, string>) {
  const reads: string[] = [];
  const environmentFiles = new EnvironmentFiles({
    read: (file) => {
      reads.push(file);
      return contents[file];
    },
    rootOf: (folder) => (folder.startsWith(root) ? root : undefined),
    show: (file) => path.relative(root, file),
  });
  return { environmentFiles, reads, contents };
}

describe('settings/environmentFiles', () => {
  it('reads environments of variables; numbers and true/false become text, objects (SSL settings) are no variables', () => {
    assert.deepEqual(parseEnvironmentFile('{"dev": {"host": "localhost", "port": 8080, "debug": true, "SSLConfiguration": {"a": 1}}, "$shared": {}}', 'x'), { dev: { host: 'localhost', port: '8080', debug: 'true' }, $shared: {} });
    assert.deepEqual(parseEnvironmentFile('\uFEFF  ', 'x'), {});
  });

  it('a JSON error is one sentence with the file, line and column', () => {
    assert.throws(() => parseEnvironmentFile('{\n  "dev": {\n    "a": "1",\n  }\n}', 'sub/http-client.env.json'), (error: unknown) => error instanceof EnvironmentFileError && /^sub\/http-client\.env\.json:4:3: /.test(error.message));
    assert.throws(() => parseEnvironmentFile('[1]', 'e.json'), /e\.json: an environment file is an object of environments/);
    assert.throws(() => parseEnvironmentFile('{"dev": "x"}', 'e.json'), /the environment "dev" is not an object of variables/);
  });

  it('.env: NAME=value, export, quotes, comments', () => {
    assert.deepEqual(parseDotenv('# c\nA=1\nexport B = two words # note\nC="x\\ny"\nD=\'$raw\'\nE=\n bad line\n'), { A: '1', B: 'two words', C: 'x\ny', D: '$raw', E: '' });
  });

  it('merges an import into an existing file: the imported environments win, the others stay', () => {
    const merged = mergeEnvironmentFiles('{"dev": {"a": "1", "b": "2"}, "prod": {"a": "9"}}', '{"dev": {"b": "3"}, "test": {"c": "4"}}', 'f');
    assert.deepEqual(JSON.parse(merged), { dev: { a: '1', b: '3' }, prod: { a: '9' }, test: { c: '4' } });
  });

  it('for a folder: $shared under the environment, private over public, the nearer folder over the ones above; private values are secrets', () => {
    const { environmentFiles } = files({
      [at('http-client.env.json')]: JSON.stringify({ $shared: { host: 'shared', page: '1' }, dev: { host: 'root-dev', user: 'ada' } }),
      [at('http-client.private.env.json')]: JSON.stringify({ dev: { token: 'root-secret', user: 'private-ada' } }),
      [at('api', 'http-client.env.json')]: JSON.stringify({ DEV: { page: '2', token: 'now-public' } }),
      [at('api', '.env')]: 'KEY=dot-secret\n',
    });
    const dev = environmentFiles.forFolder(at('api'), 'dev');
    assert.deepEqual(dev.variables, { host: 'root-dev', page: '2', user: 'private-ada', token: 'now-public' });
    assert.deepEqual([...dev.secrets].sort(), ['user']);
    assert.deepEqual(dev.dotenv, { KEY: 'dot-secret' });
    assert.deepEqual(dev.origins.page, { file: at('api', 'http-client.env.json'), secret: false });
    assert.deepEqual(dev.origins['$dotenv KEY'], { file: at('api', '.env'), secret: true });
    assert.deepEqual(environmentFiles.forFolder(at(), 'prod').variables, { host: 'shared', page: '1' }, 'an environment the files do not name gets $shared');
    assert.deepEqual(environmentFiles.environmentNames(at('api')), ['DEV']);
  });

  it('stops at the workspace root, reads each file once until invalidated, and says a broken file once while the others count', () => {
    const { environmentFiles, reads, contents } = files({
      [path.join(path.dirname(root), 'http-client.env.json')]: '{"dev": {"outside": "1"}}',
      [at('http-client.env.json')]: '{"dev": {"a": "1",}}',
      [at('api', 'http-client.env.json')]: '{"dev": {"b": "2"}}',
    });
    const first = environmentFiles.forFolder(at('api'), 'dev');
    assert.deepEqual(first.variables, { b: '2' });
    assert.deepEqual(first.problems.map((problem) => [problem.file, problem.message.replace(/:\d+:\d+:.*$/, '')]), [[at('http-client.env.json'), 'http-client.env.json']]);
    const count = reads.length;
    environmentFiles.forFolder(at('api'), 'dev');
    assert.equal(reads.length, count, 'cached');
    contents[at('http-client.env.json')] = '{"dev": {"a": "1"}}';
    environmentFiles.invalidate();
    assert.deepEqual(environmentFiles.forFolder(at('api'), 'dev').variables, { a: '1', b: '2' });
    assert.deepEqual(environmentFiles.forFolder('/elsewhere/x', 'dev').variables, {}, 'a folder outside the workspace reads only its own files');
  });
});
