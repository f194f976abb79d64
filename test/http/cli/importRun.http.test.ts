// tenant-api import, then tenant-api run of what it wrote, against the sandbox, both as child processes:
// the sandbox's descriptions (fetched for the run from the settings, read from a file for the import)
// become request files whose status and schema assertions pass; a broken contract fails the run.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startSandbox, type Sandbox } from '../../sandbox';
import { OPENAPI_DOCUMENTS } from '../../sandbox/api/openapi';
import { buildRunner, passwordGrantEnv, runRunner, sandboxWorkspace } from './runnerProcess';

describe('tenant-api import, then run, against the sandbox', function () {
  this.timeout(120_000);
  let sandbox: Sandbox;
  let folder: string;
  let env: Record<string, string>;

  before(async () => {
    buildRunner();
    sandbox = await startSandbox({});
    folder = sandboxWorkspace(sandbox, sandbox.clients.password.clientId);
    const settingsFile = path.join(folder, '.vscode', 'settings.json');
    const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8').replace(/^\/\/.*\n/, '')) as Record<string, unknown>;
    settings['tenantApi.catalogues'] = OPENAPI_DOCUMENTS.map(({ file, host, module }) => ({ source: `${sandbox.baseUrl}/openapi/${file}`, host, ...(module ? { module } : {}) }));
    fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
    env = passwordGrantEnv(sandbox);
  });
  after(async () => {
    await sandbox.close();
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('imports each description, and the files it wrote pass against the sandbox, ?? schema included', async () => {
    for (const { file } of OPENAPI_DOCUMENTS) {
      fs.writeFileSync(path.join(folder, file), await (await fetch(`${sandbox.baseUrl}/openapi/${file}`)).text());
      const imported = await runRunner(['import', file, '--out', 'requests'], folder, {});
      assert.equal(imported.code, 0, imported.stderr);
      assert.match(imported.stdout, /^Wrote requests\/\S+\.http \(1 request\)$/m);
    }
    const ditte = fs.readFileSync(path.join(folder, 'requests', 'ditte.http'), 'utf8');
    assert.match(ditte, /^# @name ditte\nGET \/efat\/api\/v1\/ditte\n\n\?\? status == 200$/m);
    assert.doesNotMatch(ditte, /Authorization|User-Tenant/);
    // The contract too: every imported request checks its answer against its catalogue.
    for (const name of fs.readdirSync(path.join(folder, 'requests'))) fs.appendFileSync(path.join(folder, 'requests', name), '?? schema\n');

    const run = await runRunner(['run', 'requests', '--tenant', 'RC-MI', '--reporter', 'junit=out/junit.xml'], folder, env);
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    const junit = fs.readFileSync(path.join(folder, 'out', 'junit.xml'), 'utf8');
    assert.match(junit, /tests="4"/);
    assert.match(junit, /failures="0"/);
  });

  it('a broken contract fails the run and names the place in the body and the rule', async () => {
    fs.writeFileSync(path.join(folder, 'page.http'), '# @name page\nGET /api/configurazioni?dimensionePagina=2\n\n?? schema\n');
    const settingsFile = path.join(folder, '.vscode', 'settings.json');
    const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
    // A description that says the settings' values are numbers: the sandbox's text values break it.
    const strict = JSON.parse(await (await fetch(`${sandbox.baseUrl}/openapi/core.json`)).text());
    strict.components.schemas.Configurazione.properties.valore = { type: 'number' };
    fs.writeFileSync(path.join(folder, 'strict.json'), JSON.stringify(strict));
    settings['tenantApi.catalogues'] = [{ source: 'strict.json', host: 'base', module: 'core' }];
    fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
    const strictRun = await runRunner(['run', 'page.http', '--reporter', 'junit=out/strict.xml'], folder, env);
    assert.equal(strictRun.code, 1, `${strictRun.stdout}\n${strictRun.stderr}`);
    const failure = fs.readFileSync(path.join(folder, 'out', 'strict.xml'), 'utf8');
    assert.match(failure, /\$\.elementi\[\d\]\.valore must be number \(type\)/);
  });
});
