// The runner from a clean install: `npm pack`, the tarball installed into an empty folder, then
// `npx tenant-api --version` and a run against the sandbox with nothing of this repository around.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startSandbox, type Sandbox } from '../../sandbox';
import { BUILT_FOR_THIS_RUN, passwordGrantEnv, REPO, runRunner, sandboxWorkspace } from './runnerProcess';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

describe('tenant-api from npm pack, installed into an empty folder', function () {
  this.timeout(240_000);
  let sandbox: Sandbox;
  let scratch: string;
  let project: string;

  before(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-pack-'));
    // prepack builds dist/cli.js (and dist/catalog.js, the libraries it loads for a catalogue); the package carries them and nothing of src/.
    // In a test run that built them already, a second build would rewrite dist/cli.js while other test files run it.
    const scripts = process.env[BUILT_FOR_THIS_RUN] === '1' ? ['--ignore-scripts'] : [];
    const packed = JSON.parse(execFileSync(npm, ['pack', '--json', ...scripts, '--pack-destination', scratch], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' })) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = packed[0].files.map((file) => file.path).sort();
    assert.deepEqual(files, ['CHANGELOG.md', 'LICENSE', 'README.md', 'dist/catalog.js', 'dist/cli.js', 'package.json']);
    project = path.join(scratch, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'package.json'), '{ "name": "ci-job", "private": true }\n');
    // --offline: the runner is one bundled file, so installing it needs nothing from a registry.
    execFileSync(npm, ['install', '--offline', '--no-audit', '--no-fund', path.join(scratch, packed[0].filename)], { cwd: project, stdio: 'ignore', shell: process.platform === 'win32' });
    const installed = fs.readdirSync(path.join(project, 'node_modules')).filter((name) => !name.startsWith('.'));
    assert.deepEqual(installed, ['tenant-api-workbench'], 'the tarball brings no other package');
    sandbox = await startSandbox({});
  });
  after(async () => {
    await sandbox?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('npm pack builds the bundles it carries first (prepack)', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    assert.equal(manifest.scripts.prepack, 'node esbuild.mjs');
  });

  it('npx tenant-api --version prints the package version', () => {
    const version = execFileSync(npx, ['--no-install', 'tenant-api', '--version'], { cwd: project, encoding: 'utf8', shell: process.platform === 'win32' }).trim();
    assert.equal(version, JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).version);
  });

  it('the installed runner imports an OpenAPI description: the libraries it loads for it are in the package', async () => {
    fs.writeFileSync(path.join(project, 'efat.json'), await (await fetch(`${sandbox.baseUrl}/openapi/core.json`)).text());
    const bin = path.join(project, 'node_modules', 'tenant-api-workbench', 'dist', 'cli.js');
    const result = await runRunner(['import', 'efat.json', '--out', 'imported'], project, {}, '', bin);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(fs.readFileSync(path.join(project, 'imported', 'configurazioni.http'), 'utf8'), /^GET \/api\/configurazioni$/m);
  });

  it('the installed runner runs the smoke file against the sandbox', async () => {
    const workspace = sandboxWorkspace(sandbox, sandbox.clients.password.clientId);
    try {
      fs.copyFileSync(path.join(REPO, 'test', 'sandbox', 'requests', 'cli-smoke.http'), path.join(workspace, 'smoke.http'));
      const env = passwordGrantEnv(sandbox);
      const bin = path.join(project, 'node_modules', 'tenant-api-workbench', 'dist', 'cli.js');
      const result = await runRunner(['run', 'smoke.http', '--env', 'Sandbox'], workspace, env, '', bin);
      assert.equal(result.code, 0, result.stdout + result.stderr);
      assert.match(result.stdout, /4 requests: 4 passed/);
    } finally {
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  });
});
