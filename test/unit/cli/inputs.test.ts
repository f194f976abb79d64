// What the runner reads: the workspace's settings (JSONC, through src/settings as the extension reads
// them), secrets from the environment or stdin, the files and globs, and the quota guard's arithmetic.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseSecretLines, readCredentials } from '../../../src/cli/credentials';
import { chooseGrant, missingCredentials } from '../../../src/cli/grants';
import { parseJsonc } from '../../../src/cli/jsonc';
import { UsageError } from '../../../src/cli/options';
import { nextCallRefusal, startRefusal } from '../../../src/cli/quotaGuard';
import { expandFiles, globPattern, loadFiles } from '../../../src/cli/requestFiles';
import { defaultSystemContext } from '../../../src/engine/systemVariables';
import { readWorkspaceSettings } from '../../../src/cli/workspaceSettings';
import { redact } from '../../../src/common/redact';
import { quoteArgument, runnerCommandLine } from '../../../src/requestFiles/runnerCommandLine';

describe('tenant-api inputs', () => {
  let folder: string;
  before(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-inputs-'));
    fs.mkdirSync(path.join(folder, '.vscode'));
    fs.mkdirSync(path.join(folder, 'tests', 'deep'), { recursive: true });
    for (const file of ['tests/a.http', 'tests/deep/b.rest', 'tests/notes.txt']) fs.writeFileSync(path.join(folder, file), 'GET /v10/user-tenants\n');
    fs.writeFileSync(
      path.join(folder, '.vscode', 'settings.json'),
      `{
  // the sandbox, as npm start writes it
  "tenantApi.baseUrl": "https://api.example.com", /* top level */
  "tenantApi.requestTimeoutSeconds": 7,
  "tenantApi.environments": [
    { "name": "Sandbox", "authUrl": "http://127.0.0.1:4401/", "baseUrl": "http://127.0.0.1:4402", "variables": { "pageSize": 5, "url": "http://x//y" }, },
  ],
}`,
    );
  });
  after(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('reads JSONC: comments and trailing commas, never inside strings', () => {
    assert.deepEqual(parseJsonc('{ "a": "// no", "b": "/* no */", /* c */ "c": [1, 2,], }'), { a: '// no', b: '/* no */', c: [1, 2] });
    assert.throws(() => parseJsonc('{ "a": }'));
    assert.throws(() => parseJsonc('\uFEFF{\n  "a": 1\n  "b": 2 }'), /comma expected at line 3, column 3/);
  });

  it('reads the environment named, as the extension would (overlay, trailing slash, variables as text), from a subfolder too', () => {
    const settings = readWorkspaceSettings({ env: 'sandbox', cwd: path.join(folder, 'tests', 'deep') });
    assert.equal(settings.environment.name, 'Sandbox');
    assert.equal(settings.auth.authUrl, 'http://127.0.0.1:4401');
    assert.equal(settings.api.baseUrl, 'http://127.0.0.1:4402');
    assert.equal(settings.api.requestTimeoutSeconds, 7, 'a global setting applies in every environment');
    assert.deepEqual(settings.environment.settings.variables, { pageSize: '5', url: 'http://x//y' });
    assert.equal(readWorkspaceSettings({ cwd: folder }).api.baseUrl, 'https://api.example.com', 'no --env: the configured top-level settings');
    assert.throws(() => readWorkspaceSettings({ env: 'Prod', cwd: folder }), (error: unknown) => error instanceof UsageError && /No environment "Prod".*known: default, Sandbox/.test(error.message));
  });

  it('takes the editor\'s settings when the editor started the run (not the workspace file), unless --workspace names a folder', () => {
    const editor = JSON.stringify({ 'tenantApi.environments': [{ name: 'Sandbox', authUrl: 'http://127.0.0.1:5501', baseUrl: 'http://127.0.0.1:5502' }], 'tenantApi.requestTimeoutSeconds': 9 });
    const settings = readWorkspaceSettings({ env: 'Sandbox', cwd: folder, editorSettings: editor });
    assert.deepEqual([settings.api.baseUrl, settings.api.requestTimeoutSeconds, settings.file], ['http://127.0.0.1:5502', 9, undefined]);
    assert.equal(settings.source, "the editor's settings (user, workspace and folder)");
    assert.equal(settings.place, settings.source, 'a missing setting is to be set in the editor');
    const bare = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-bare-'));
    try {
      assert.equal(readWorkspaceSettings({ cwd: bare, workspace: bare }).place, '.vscode/settings.json', 'no file: the file to create, not "no settings file"');
    } finally {
      fs.rmSync(bare, { recursive: true, force: true });
    }
    assert.equal(readWorkspaceSettings({ env: 'Sandbox', cwd: folder, editorSettings: editor, workspace: folder }).api.baseUrl, 'http://127.0.0.1:4402', '--workspace wins');
    assert.equal(readWorkspaceSettings({ cwd: folder, editorSettings: '' }).source, path.join(folder, '.vscode', 'settings.json'));
    assert.throws(() => readWorkspaceSettings({ cwd: folder, editorSettings: '[1]' }), (error: unknown) => error instanceof UsageError && /TENANT_API_EDITOR_SETTINGS is not a JSON object/.test(error.message));
    assert.throws(() => readWorkspaceSettings({ env: 'Prod', cwd: folder, editorSettings: editor }), (error: unknown) => error instanceof UsageError && /No environment "Prod" in the editor's settings/.test(error.message));
  });

  it('takes secrets from the environment or stdin lines (stdin wins), and masks every one of them', () => {
    const stdin = parseSecretLines('# secrets\nTENANT_API_PASSWORD=from-stdin-pw\n\nTENANT_API_KEY_EFAT=EFATKEY1234567\n');
    const credentials = readCredentials({ TENANT_API_USERNAME: 'mario', TENANT_API_PASSWORD: 'from-env-pw', TENANT_API_CLIENT_SECRET: 'cs-123456', TENANT_API_KEY_CORE: 'COREKEY1234567' }, stdin);
    assert.equal(credentials.password, 'from-stdin-pw');
    assert.deepEqual([...credentials.licenceKeys], [['core', 'COREKEY1234567'], ['efat', 'EFATKEY1234567']]);
    assert.equal(redact('x from-stdin-pw cs-123456 COREKEY1234567 EFATKEY1234567'), 'x [redacted] [redacted] [redacted] [redacted]');
    assert.throws(() => parseSecretLines('password=x'), UsageError);
    assert.equal(chooseGrant(undefined, credentials), 'password');
    assert.equal(chooseGrant(undefined, readCredentials({})), 'client_credentials');
    assert.equal(chooseGrant(undefined, readCredentials({}), true), 'device', 'nothing set, a person at the terminal: the device code flow');
    assert.equal(chooseGrant(undefined, readCredentials({ TENANT_API_CLIENT_SECRET: 'cs-123456' }), true), 'client_credentials');
    assert.equal(chooseGrant('password', readCredentials({}), true), 'password');
    assert.match(missingCredentials('client_credentials', readCredentials({}))!, /TENANT_API_CLIENT_SECRET/);
    assert.match(missingCredentials('password', readCredentials({ TENANT_API_USERNAME: 'u' }))!, /TENANT_API_PASSWORD/);
  });

  it('expands files, folders and globs in order, each once; a name that matches nothing is a usage error', () => {
    assert.ok(globPattern('tests/**/*.http').test('tests/a.http'));
    assert.ok(globPattern('tests/**/*.http').test('tests/x/y/a.http'));
    assert.ok(!globPattern('tests/*.http').test('tests/x/a.http'));
    const relative = (files: string[]) => files.map((file) => path.relative(folder, file).split(path.sep).join('/'));
    assert.deepEqual(relative(expandFiles(['tests/**/*.http', 'tests'], folder)), ['tests/a.http', 'tests/deep/b.rest']);
    assert.deepEqual(relative(expandFiles(['tests/deep/b.rest', 'tests/*.http'], folder)), ['tests/deep/b.rest', 'tests/a.http']);
    assert.throws(() => expandFiles(['missing/*.http'], folder), (error: unknown) => error instanceof UsageError && /No request file matches "missing\/\*\.http"/.test(error.message));
  });

  it('says which lines of a file will not be run or sent (a script block, a credential header), and fails on a malformed assertion', () => {
    const file = path.join(folder, 'tests', 'warned.http');
    fs.writeFileSync(file, ['GET /v10/user-tenants', 'Authorization: Bearer x', '?? status == 200', '', '> {%', '  client.test("t", () => true);', '%}'].join('\n'));
    const context = { routeFor: () => ({ prefix: '/v10', host: 'base' }) as never, environment: {}, system: defaultSystemContext() };
    const warnings: string[] = [];
    const [loaded] = loadFiles([file], folder, context, (line) => warnings.push(line));
    assert.equal(loaded.parsed.requests[0].assertions.length, 1);
    assert.equal(warnings.length, 2, warnings.join('\n'));
    assert.match(warnings[0], /^tests\/warned\.http:2: Authorization is not sent from a file/);
    assert.match(warnings[1], /^tests\/warned\.http:5: Scripts in request files are never run/);
    fs.writeFileSync(file, 'GET /v10/user-tenants\n?? status frobnicates 200\n');
    assert.throws(() => loadFiles([file], folder, context), (error: unknown) => error instanceof UsageError && /warned\.http:2: /.test(error.message));
    fs.rmSync(file);
  });

  it('guards the quota per organization: refuses to start or to make the next call below --keep-quota, and stops at --max-calls', () => {
    const reading = { organization: 'Rossi', module: 'efat', used: 900, limit: 1000, seenAt: 0 };
    const bianchi = { organization: 'Bianchi', module: 'efat', used: 10, limit: 1000, seenAt: 0 };
    assert.equal(startRefusal([reading, bianchi], new Map([['Rossi', 50]]), { keepQuotaPercent: 5 }), undefined);
    assert.match(startRefusal([reading, bianchi], new Map([['Rossi', 51]]), { keepQuotaPercent: 5 })!, /leave 4\.9 % of Rossi's weekly quota \(900 of 1000 used\)/);
    assert.equal(startRefusal([reading, bianchi], new Map([['Bianchi', 500]]), { keepQuotaPercent: 5 }), undefined, 'another organization has its own quota, the same module or not');
    assert.match(startRefusal([reading, bianchi], new Map([['Bianchi', 500], ['Rossi', 60]]), { keepQuotaPercent: 5 })!, /of Rossi's/);
    assert.equal(nextCallRefusal([reading], 'Rossi', 3, { keepQuotaPercent: 9.9 }), undefined);
    assert.match(nextCallRefusal([reading], 'Rossi', 3, { keepQuotaPercent: 10 })!, /quota guard/);
    assert.equal(nextCallRefusal([reading], 'Bianchi', 3, { keepQuotaPercent: 10 }), undefined, 'an organization with no reading is not guessed');
    assert.match(nextCallRefusal([], undefined, 2, { maxCalls: 2 })!, /--max-calls 2: 2 call\(s\) made/);
    assert.equal(nextCallRefusal([], undefined, 1, { maxCalls: 2 }), undefined);
  });

  it('builds the terminal command of Run Request File in Terminal, quoted for the shell', () => {
    assert.equal(quoteArgument('a b$c"d', 'linux'), '"a b\\$c\\"d"');
    assert.equal(
      runnerCommandLine({ execPath: '/usr/bin/node', cliPath: '/ext/dist/cli.js', file: 'my tests/a.http', environment: 'Sandbox', platform: 'linux' }),
      '/usr/bin/node /ext/dist/cli.js run "my tests/a.http" --env Sandbox',
    );
    assert.equal(
      runnerCommandLine({ execPath: 'C:\\Program Files\\Code\\Code.exe', cliPath: 'C:\\ext\\dist\\cli.js', file: 'a.http', environment: 'default', platform: 'win32' }),
      '& "C:\\Program Files\\Code\\Code.exe" "C:\\ext\\dist\\cli.js" run a.http --env default',
    );
  });
});
