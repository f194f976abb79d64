// Other tools in and out, driven as a user in a real editor against the sandbox: a cURL command pasted
// into Send Request's first step is sent; a Postman collection imported through the palette and its
// open dialog, then one of its requests sent from its CodeLens; Copy as Code's language picked from the
// palette; a variable of http-client.private.env.json used by a request and masked in its tab.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Sandbox } from '../../sandbox';
import { driver } from './helpers/driver';
import { clickLens, openFile, tabsLabelled } from './helpers/requestFileEditor';
import { endWorkbenchSuite, startSignedInAsMario, waitFor } from './helpers/workbench';

const WIDGET = '.quick-input-widget';
const ROW = `${WIDGET} .monaco-list-row`;
const TITLE = (text: string) => `${WIDGET} .quick-input-title:has-text("${text}")`;
const BOX = `${WIDGET} .quick-input-box input`;

/**
 * Types a path in the editor's open dialog until its box holds exactly that path and its list shows the
 * file: the dialog fills the box with the folder once it has read it, which overwrites what was typed before.
 */
async function typePathInDialog(file: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await driver.press('Control+A', { on: BOX });
    await driver.type(file);
    try {
      await driver.waitFor(`${ROW}:has-text("${path.basename(file)}")`, { timeoutMs: 10_000 });
      const box = await driver.value(BOX);
      if (box === file) return;
      throw new Error(`the box holds "${box}"`);
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** Runs a command from the palette, as a person does. */
async function fromPalette(title: string): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
  await driver.press('F1');
  await driver.waitFor(WIDGET, { timeoutMs: 10_000 });
  await driver.type(title);
  await driver.waitFor(`${ROW}:has-text("${title.replace(/^Tenant API: /, '')}")`, { timeoutMs: 10_000 });
  await driver.press('Enter');
}

function documentOfTab(tab: vscode.Tab): vscode.TextDocument {
  const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === (tab.input as vscode.TabInputText).uri.toString());
  assert.ok(document, `the document of ${tab.label}`);
  return document;
}

describe('other tools in and out', function () {
  this.timeout(180_000);
  let sandbox: Sandbox;
  let folder: string;
  const workspaceFolder = () => vscode.workspace.workspaceFolders![0].uri.fsPath;
  const written: string[] = [];

  before(async function () {
    if (!driver.available()) this.skip();
    sandbox = await startSignedInAsMario();
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'other-tools-'));
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  // A test that failed with a question open leaves it in front of the next test's clicks.
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });

  after(async () => {
    await endWorkbenchSuite(sandbox);
    for (const file of written) fs.rmSync(file, { recursive: true, force: true });
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('a cURL command pasted into Send Request\'s first step is sent, its bearer header dropped and said', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const before = sandbox.requests.length;
    const running = Promise.resolve(vscode.commands.executeCommand('tenantApi.sendRequest'));
    await driver.waitFor(TITLE('Send Request: path'), { timeoutMs: 15_000 });
    await driver.type(`curl '${sandbox.baseUrl}/api/configurazioni?pagina=2&dimensionePagina=3' -H 'Accept: application/json' -H 'Authorization: Bearer not-mine'`);
    await driver.press('Enter');
    const summary = (await running) as { status?: number } | undefined;
    assert.equal(summary?.status, 200, JSON.stringify(summary));
    const sent = sandbox.requests.slice(before).filter((request) => request.path === '/api/configurazioni');
    assert.equal(sent.length, 1);
    assert.match(sent[0].url, /\?pagina=2&dimensionePagina=3$/);
    assert.notEqual(sent[0].headers.authorization, 'Bearer not-mine', 'the client\'s own token, not the pasted one');
    await waitFor(async () => (await driver.notifications()).some((message) => /From the cURL command: The header Authorization was dropped/.test(message)), { what: 'the note on the dropped header' });
  });

  it('imports a Postman collection from the palette and its open dialog, then sends one of its requests from its CodeLens', async () => {
    const collection = {
      info: { name: 'Piattaforma UI', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      variable: [{ key: 'baseUrl', value: sandbox.baseUrl }],
      item: [{ name: 'Tenant', request: { method: 'GET', header: [{ key: 'Authorization', value: 'Bearer {{token}}' }], url: '{{baseUrl}}/v10/user-tenants' }, event: [{ listen: 'test', script: { exec: ['pm.response.to.have.status(200);'] } }] }],
    };
    const source = path.join(folder, 'piattaforma.postman_collection.json');
    fs.writeFileSync(source, JSON.stringify(collection));
    written.push(path.join(workspaceFolder(), 'Piattaforma UI.http'), path.join(workspaceFolder(), 'http-client.env.json'));
    await fromPalette('Tenant API: Import Postman Collection');
    // The editor's own open dialog: its box takes a path.
    await driver.waitFor(TITLE('Postman collections and environments to import'), { timeoutMs: 15_000 });
    // Enter, not a click on Import: the dialog takes the row the typed path made active, and VS Code's
    // dialog reads a clicked row from the selection, which only Enter sets (a click with the row active
    // and not selected fails inside the dialog, which then ignores every later click).
    const dialog = TITLE('Postman collections and environments to import');
    for (let attempt = 1; ; attempt++) {
      // A stalled extension host may take the last Enter after the wait below gave up on it.
      if (attempt > 1 && (await driver.waitFor(dialog, { state: 'hidden', timeoutMs: 500 }).then(() => true, () => false))) break;
      await typePathInDialog(source);
      await driver.press('Enter', { on: BOX });
      try {
        // Long enough for a loaded machine's extension host to take the answer.
        await driver.waitFor(dialog, { state: 'hidden', timeoutMs: 15_000 });
        break;
      } catch (error) {
        if (attempt < 3) continue;
        const box = await driver.value(BOX, { timeoutMs: 2_000 }).catch(() => '(none)');
        const message = await driver.text(`${WIDGET} .quick-input-message`, { timeoutMs: 2_000 }).catch(() => '(none)');
        throw new Error(`${String(error)}; the dialog's box holds "${box}", its message: "${message}"`);
      }
    }
    const editor = await waitFor(() => vscode.window.visibleTextEditors.find((candidate) => candidate.document.uri.fsPath.endsWith('Piattaforma UI.http')), { timeoutMs: 20_000, what: 'the imported request file' });
    assert.match(editor.document.getText(), /^### Tenant\nGET \{\{baseUrl\}\}\/v10\/user-tenants\n\n\?\? status == 200$/m);
    assert.ok(!editor.document.getText().includes('Authorization'));
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(workspaceFolder(), 'http-client.env.json'), 'utf8')), { $shared: { baseUrl: sandbox.baseUrl } });
    const before = sandbox.requests.length;
    await clickLens(editor, editor.document.getText().split('\n').indexOf('GET {{baseUrl}}/v10/user-tenants'), 'Send Tenant with Tenant API Workbench');
    const tab = await waitFor(() => tabsLabelled('GET Tenant')[0], { timeoutMs: 30_000, what: 'the response tab of Tenant' });
    assert.match(documentOfTab(tab).getText(), /^\/\/ 200 OK/m);
    assert.match(documentOfTab(tab).getText(), /status == 200/, 'the imported assertion is checked');
    assert.equal(sandbox.requests.slice(before).find((request) => request.path === '/v10/user-tenants')?.status, 200);
  });

  it('Copy as Code from the palette: the language picked, the snippet copied with the platform headers read from the environment', async () => {
    const editor = await waitFor(() => vscode.window.visibleTextEditors.find((candidate) => candidate.document.uri.fsPath.endsWith('Piattaforma UI.http')), { what: 'the request file' });
    await vscode.window.showTextDocument(editor.document, { viewColumn: vscode.ViewColumn.One, preview: false });
    const line = editor.document.getText().split('\n').indexOf('GET {{baseUrl}}/v10/user-tenants');
    editor.selection = new vscode.Selection(line, 0, line, 0);
    await vscode.env.clipboard.writeText('');
    await fromPalette('Tenant API: Copy as Code');
    await driver.waitFor(TITLE('Copy as Code'), { timeoutMs: 15_000 });
    await driver.click(`${ROW}:has-text("Python (requests)")`, { timeoutMs: 10_000 });
    const code = await waitFor(async () => (await vscode.env.clipboard.readText()) || undefined, { what: 'the snippet on the clipboard' });
    assert.match(code, /^import os\nimport requests\n/);
    assert.match(code, new RegExp(`url = "${sandbox.baseUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/v10/user-tenants"`));
    assert.match(code, /"Authorization": "Bearer " \+ os\.environ\["TENANT_API_TOKEN"\]/);
    assert.ok(!/eyJ/.test(code), 'no token in the code');
    await waitFor(async () => (await driver.notifications()).some((message) => /Copied as Python \(requests\)\. It reads TENANT_API_TOKEN from the environment/.test(message)), { what: 'the copy notification' });
  });

  it('a variable of http-client.private.env.json is used by a request and masked in its tab', async () => {
    const dir = path.join(folder, 'env');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'http-client.env.json'), JSON.stringify({ default: { pageSize: '2' }, Sandbox: { pageSize: '2' } }));
    fs.writeFileSync(path.join(dir, 'http-client.private.env.json'), JSON.stringify({ $shared: { traceCode: 'pr1vate-value-73' } }));
    fs.writeFileSync(path.join(dir, 'env.http'), '# @name envcheck\nGET /api/configurazioni?dimensionePagina={{pageSize}}&codice={{traceCode}}\nX-Trace: {{traceCode}}\n');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const editor = await openFile(path.join(dir, 'env.http'));
    const before = sandbox.requests.length;
    await clickLens(editor, 1, 'Send envcheck with Tenant API Workbench');
    const tab = await waitFor(() => tabsLabelled('GET envcheck')[0], { timeoutMs: 30_000, what: 'the response tab of envcheck' });
    const sent = sandbox.requests.slice(before).find((request) => request.path === '/api/configurazioni');
    assert.ok(sent);
    assert.match(sent.url, /dimensionePagina=2&codice=pr1vate-value-73$/, 'the files\' values were sent');
    assert.equal(sent.headers['x-trace'], 'pr1vate-value-73');
    const text = documentOfTab(tab).getText();
    assert.ok(!text.includes('pr1vate-value-73'), text.split('\n').slice(0, 12).join('\n'));
    assert.match(text, /codice=\*\*\*/);
  });
});
