// Matrix runs in the editor, driven as a user: a test that names several tenants is an item with a
// child per tenant in the Testing view; its run sends once per tenant, each with its organization's key,
// and a tenant whose organization has no key for the module is skipped with the sentence that says what
// to set; the "Run for Every Tenant" profile runs a test that names none once per tenant of the
// signed-in user; test tags filter the view; Send All's summary has a row per request x tenant.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Sandbox } from '../../sandbox';
import { driver } from './helpers/driver';
import { endWorkbenchSuite, extensionExports, setLicenceKeys, startSignedInAsMario, waitFor } from './helpers/workbench';

interface TestRunReport {
  name: string;
  results: Array<{ file: string; id: string; label: string; test?: string; kind: 'passed' | 'failed' | 'errored' | 'skipped'; messages: Array<{ line: number; message: string }> }>;
}

interface StoreWithOrganizations {
  set(module: string, value: { key: string; label: string; organization: string; tenantIds?: string[] }): Promise<void>;
  put(module: string, value: { key: string; label: string; organization: string; tenantIds?: string[] }): Promise<void>;
}

const TENANTS_FILE = [
  '# @tenant RC-MI, RC-TO, BA-PR',
  '# @name ditte',
  '# @tag smoke',
  'GET /efat/api/v1/ditte?dimensionePagina=1',
  '?? status == 200',
  '?? body $.dimensionePagina == 1',
].join('\n');

describe('Matrix runs in the editor', function () {
  this.timeout(180_000);
  let sandbox: Sandbox;
  let folder: string;
  const written: string[] = [];

  const testing = async () => ((await extensionExports()) as { testing: { lastRun(): TestRunReport | undefined; discover(): Promise<void> } }).testing;
  const row = (label: string) => `.test-explorer .monaco-list-row:has-text("${label}")`;
  const key = (organization: string, module: string) => sandbox.licenceKeys.find((k) => k.organizationId === organization && k.module === module)!.key;
  const tenant = (code: string) => sandbox.tenants.find((candidate) => candidate.codiceAmbienteDati === code)!;
  const kinds = (report: TestRunReport) => Object.fromEntries(report.results.map((result) => [`${result.test ?? ''}/${result.label}`, result.kind]));

  function writeFile(name: string, text: string): string {
    const file = path.join(folder, name);
    fs.writeFileSync(file, `${text}\n`);
    written.push(file);
    return file;
  }

  async function nextRun(previous: TestRunReport | undefined): Promise<TestRunReport> {
    const hooks = await testing();
    return waitFor(() => (hooks.lastRun() !== previous ? hooks.lastRun() : undefined), { timeoutMs: 60_000, what: 'the test run to end' });
  }

  /** Expands a row of the Testing view (selects it, then the right arrow), and waits for a child's row. */
  async function expand(label: string, child: string): Promise<void> {
    await driver.click(row(label), { timeoutMs: 30_000 });
    await driver.press('ArrowRight');
    await driver.waitFor(row(child), { timeoutMs: 15_000 });
  }

  before(async function () {
    if (!driver.available()) this.skip();
    sandbox = await startSignedInAsMario();
    folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    // Rossi's keys cover RC-MI and RC-TO; Bianchi has a core key for BA-PR and no efat key.
    const store = (await extensionExports()).licenceKeys as unknown as StoreWithOrganizations;
    const rossi = [tenant('RC-MI').id, tenant('RC-TO').id];
    await store.set('efat', { key: key('org-rossi', 'efat'), label: 'Rossi efat', organization: 'Rossi Costruzioni S.r.l.', tenantIds: rossi });
    await store.set('core', { key: key('org-rossi', 'core'), label: 'Rossi core', organization: 'Rossi Costruzioni S.r.l.', tenantIds: rossi });
    await store.put('core', { key: key('org-bianchi', 'core'), label: 'Bianchi core', organization: 'Bianchi Alimentari S.p.A.', tenantIds: [tenant('BA-PR').id] });
  });

  afterEach(async () => {
    for (const file of written.splice(0)) fs.rmSync(file, { force: true });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    if (sandbox) await setLicenceKeys(sandbox, 'org-rossi');
    await endWorkbenchSuite(sandbox);
  });

  it('a test of three tenants has a child per tenant; run, each tenant is sent with its key, and BA-PR, whose organization has no efat key, is skipped saying what to set', async () => {
    writeFile('mx-tenants.http', TENANTS_FILE);
    await vscode.commands.executeCommand('workbench.view.testing.focus');
    await expand('mx-tenants.http', 'ditte');
    await expand('ditte', 'BA-PR');
    for (const code of ['RC-MI', 'RC-TO']) await driver.waitFor(row(code), { timeoutMs: 5_000 });

    const previous = (await testing()).lastRun();
    const before = sandbox.requests.length;
    await driver.click(row('mx-tenants.http'), { timeoutMs: 10_000 });
    await driver.click(`${row('mx-tenants.http')} .action-label.codicon-testing-run-icon`, { timeoutMs: 10_000 });
    const report = await nextRun(previous);
    assert.deepEqual(kinds(report), { 'ditte/RC-MI': 'passed', 'ditte/RC-TO': 'passed', 'ditte/BA-PR': 'skipped' });
    const skipped = report.results.find((result) => result.label === 'BA-PR')!;
    assert.match(skipped.messages[0]?.message ?? '', /^No licence key of the module "efat" covers the tenant BA-PR\. Set its organization's key with "Tenant API: Set Licence Key" and tick BA-PR\.$/);
    const calls = sandbox.requests.slice(before).filter((request) => request.path.startsWith('/efat/'));
    assert.deepEqual(calls.map((request) => [request.headers['user-tenant'], request.headers['authorization-key']]), [
      [tenant('RC-MI').id, key('org-rossi', 'efat')],
      [tenant('RC-TO').id, key('org-rossi', 'efat')],
    ], 'BA-PR never sent, not with Rossi\'s key either');
    // The view's summary counts what ran: two passed.
    await waitFor(async () => /^2\/\d$/m.test(await driver.text('.test-explorer')) || undefined, { what: 'the Testing view to count 2 passed' });
    await driver.screenshot('matrix-tenant-children');
  });

  it('"Run for Every Tenant" runs a test that names no tenant once per tenant of the signed-in user, each with its organization\'s key', async () => {
    writeFile('mx-every.http', '# @name conf\nGET /api/configurazioni?dimensionePagina=1\n?? status == 200\n?? body $.dimensionePagina == 1');
    await vscode.commands.executeCommand('workbench.view.testing.focus');
    const previous = (await testing()).lastRun();
    const before = sandbox.requests.length;
    const item = '.monaco-menu .action-item:has-text("Execute Using Profile")';
    await driver.click(row('mx-every.http'), { button: 'right', timeoutMs: 30_000 });
    await driver.click(item, { timeoutMs: 10_000 });
    await driver.click('.quick-input-list .monaco-list-row:has-text("Run for Every Tenant")', { timeoutMs: 10_000 });
    const report = await nextRun(previous);
    assert.deepEqual(kinds(report), { 'conf/RC-MI': 'passed', 'conf/RC-TO': 'passed', 'conf/BA-PR': 'passed' });
    const calls = sandbox.requests.slice(before).filter((request) => request.path === '/api/configurazioni');
    assert.deepEqual(calls.map((request) => request.headers['authorization-key']), [key('org-rossi', 'core'), key('org-rossi', 'core'), key('org-bianchi', 'core')]);
    await expand('mx-every.http', 'conf');
    await expand('conf', 'BA-PR');
  });

  it('a test\'s @tag is a test tag: the view\'s filter by it keeps only the tagged tests', async () => {
    writeFile('mx-tenants.http', TENANTS_FILE);
    writeFile('mx-untagged.http', '# @name untagged\nGET /api/configurazioni?dimensionePagina=1\n?? status == 200');
    await vscode.commands.executeCommand('workbench.view.testing.focus');
    await (await testing()).discover();
    await driver.waitFor(row('mx-untagged.http'), { timeoutMs: 30_000 });
    // The view's filter box ("Filter (e.g. text, !exclude, @tag)").
    await driver.click('.part.sidebar .suggest-input-container', { timeoutMs: 10_000 });
    await driver.type('@tenantApi.requestFiles:smoke');
    await driver.waitFor(row('mx-untagged.http'), { state: 'detached', timeoutMs: 15_000 });
    await driver.waitFor(row('mx-tenants.http'), { timeoutMs: 5_000 });
    await driver.screenshot('matrix-filtered-by-tag');
    await driver.press(['Control+a', 'Backspace']);
  });

  it('Send All: a response and a summary row per request x tenant, the skipped tenant\'s row saying what to set', async () => {
    const file = writeFile('mx-sendall.http', TENANTS_FILE);
    const result = (await vscode.commands.executeCommand('tenantApi.requestFile.sendAll', vscode.Uri.file(file))) as { summary: string; results: Array<{ label: string; status?: number; error?: { message: string } }>; document: string };
    assert.deepEqual(result.results.map((entry) => [entry.label, entry.status]), [['ditte [RC-MI]', 200], ['ditte [RC-TO]', 200], ['ditte [BA-PR]', undefined]]);
    assert.match(result.results[2].error?.message ?? '', /covers the tenant BA-PR/);
    const table = (await vscode.workspace.openTextDocument(vscode.Uri.parse(result.document))).getText();
    const rows = table.split('\n').filter((line) => /^\| .*ditte/.test(line));
    assert.deepEqual(rows.map((line) => /RC-MI|RC-TO|BA-PR/.exec(line)?.[0]), ['RC-MI', 'RC-TO', 'BA-PR'], table);
    assert.match(rows[2], /covers the tenant BA-PR/);
  });
});
