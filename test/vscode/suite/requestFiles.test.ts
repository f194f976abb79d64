// Request files (.http) inside a real VS Code, against the sandbox, driven as a user: the example file
// is opened, the CodeLens clicked in the browser, the response tab appears beside the file.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Sandbox } from '../../sandbox';
import { driver } from './helpers/driver';
import { clickLens, openFile, tabsLabelled } from './helpers/requestFileEditor';
import { configure, endWorkbenchSuite, extensionExports, setLicenceKeys, signOutEveryone, startSignedInAsMario, waitFor, workbenchApi } from './helpers/workbench';

const repoRoot = process.env.TENANT_API_TEST_REPO ?? path.resolve(__dirname, '..', '..', '..', '..');

function lineOf(editor: vscode.TextEditor, text: string): number {
  const line = editor.document.getText().split('\n').findIndex((candidate) => candidate.startsWith(text));
  assert.ok(line >= 0, `no line ${text}`);
  return line;
}

describe('request files', function () {
  this.timeout(180_000);
  let sandbox: Sandbox;
  let folder: string;
  const tenant = (code: string) => sandbox.tenants.find((candidate) => candidate.codiceAmbienteDati === code)!;

  before(async function () {
    if (!driver.available()) this.skip();
    sandbox = await startSignedInAsMario();
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'request-files-'));
    fs.copyFileSync(path.join(repoRoot, 'test', 'sandbox', 'requests', 'example.http'), path.join(folder, 'example.http'));
  });

  after(async () => {
    await endWorkbenchSuite(sandbox);
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('Send above a named request of the example file opens its 200 tab beside the file', async () => {
    const editor = await openFile(path.join(folder, 'example.http'));
    const before = sandbox.requests.length;
    await clickLens(editor, lineOf(editor, 'GET /efat/api/v1/ditte?dimensionePagina={{pageSize}}'), 'Send ditte with Tenant API Workbench');
    const tab = await waitFor(() => tabsLabelled('GET ditte · RC-MI')[0], { timeoutMs: 30_000, what: 'the tab "GET ditte · RC-MI"' });
    assert.notEqual(tab.group.viewColumn, vscode.ViewColumn.One, 'the response opens beside the file');
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, editor.document.uri.fsPath, 'the focus stays in the file');
    const response = vscode.workspace.textDocuments.find((document) => document.uri.toString() === (tab.input as vscode.TabInputText).uri.toString());
    assert.ok(response);
    const text = response.getText();
    assert.match(text, /^\/\/ GET http:\/\/127\.0\.0\.1:\d+\/efat\/api\/v1\/ditte\?dimensionePagina=5$/m);
    assert.match(text, /^\/\/ 200 OK/m);
    // The header block passes through the redactor, which names no credential scheme or value.
    assert.match(text, /^\/\/ {3}Authorization: \[redacted\]$/m, 'the request headers, credentials masked');
    assert.ok(!/Bearer ey/.test(text), 'no token in the tab');
    assert.ok(!text.includes(sandbox.licenceKeys[0].key) && !text.includes('RSSEFAT8B3N6P2W5Y7QD'), 'no licence key in the tab');
    const sent = sandbox.requests.slice(before).filter((request) => request.path === '/efat/api/v1/ditte');
    assert.equal(sent.length, 1);
    assert.equal(sent[0].headers['user-tenant'], tenant('RC-MI').id);
    assert.equal(sent[0].status, 200);

    // Sending again updates the same tab.
    await clickLens(editor, lineOf(editor, 'GET /efat/api/v1/ditte?dimensionePagina={{pageSize}}'), 'Send ditte with Tenant API Workbench');
    await waitFor(() => sandbox.requests.slice(before).filter((request) => request.path === '/efat/api/v1/ditte').length === 2 || undefined, { what: 'the second send' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(tabsLabelled('GET ditte').length, 1, 'one tab per named request');
  });

  it('Ctrl+Alt+Enter sends the request under the cursor', async () => {
    const editor = await openFile(path.join(folder, 'example.http'));
    const line = lineOf(editor, 'GET /api/configurazioni');
    editor.selection = new vscode.Selection(line + 1, 4, line + 1, 4);
    editor.revealRange(new vscode.Range(line, 0, line, 0), vscode.TextEditorRevealType.AtTop);
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    await driver.waitFor('.editor-group-container.active .monaco-editor.focused', { timeoutMs: 10_000 });
    const before = sandbox.requests.length;
    await driver.press('Control+Alt+Enter');
    await waitFor(() => tabsLabelled('GET configurazioni')[0], { timeoutMs: 30_000, what: 'the tab of configurazioni' });
    assert.deepEqual(sandbox.requests.slice(before).map((request) => request.url.replace(/^http:\/\/[^/]+/, '')), ['/api/configurazioni?pagina=1&dimensionePagina=5']);
  });

  it('uses a value from one response in the next request (query and tenant)', async () => {
    const editor = await openFile(path.join(folder, 'example.http'));
    const before = sandbox.requests.length;
    await clickLens(editor, lineOf(editor, 'GET /efat/api/v1/ditte?dimensionePagina={{pageSize}}&pagina='), 'Send ultimaPagina with Tenant API Workbench');
    await waitFor(() => tabsLabelled('GET ultimaPagina · RC-MI')[0], { timeoutMs: 30_000, what: 'the tab of ultimaPagina' });
    const lastPage = String(Math.ceil(40000 / 5));
    const chained = sandbox.requests.slice(before).find((request) => request.url.includes('pagina=' + lastPage));
    assert.ok(chained, JSON.stringify(sandbox.requests.slice(before).map((request) => request.url)));
    assert.equal(chained.status, 200);

    // The tenant of secondoTenant comes from the listing, sent first because it was not sent yet.
    const second = sandbox.requests.length;
    await clickLens(editor, lineOf(editor, 'GET /efat/api/v1/ditte?dimensionePagina=1'), 'Send secondoTenant with Tenant API Workbench');
    await waitFor(() => tabsLabelled('GET secondoTenant · RC-TO')[0], { timeoutMs: 30_000, what: 'the tab of secondoTenant' });
    const calls = sandbox.requests.slice(second);
    assert.deepEqual(calls.map((request) => request.path), ['/v10/user-tenants', '/efat/api/v1/ditte']);
    assert.equal(calls[1].headers['user-tenant'], tenant('RC-TO').id);
    assert.match(calls[1].headers['x-request-id'] ?? '', /^[0-9a-f-]{36}$/);
  });

  it('Send All of 20 requests gets no 429 from the sandbox and shows the summary', async () => {
    const blocks = Array.from({ length: 20 }, (_, index) =>
      index % 2 === 0 ? `# @name c${index}\nGET /api/configurazioni?pagina=${index + 1}&dimensionePagina=1` : `# @name d${index}\n# @tenant RC-TO\nGET /efat/api/v1/ditte?pagina=${index}&dimensionePagina=1`,
    );
    const file = path.join(folder, 'twenty.http');
    fs.writeFileSync(file, blocks.join('\n\n###\n') + '\n');
    await setLicenceKeys(sandbox, 'org-rossi');
    const editor = await openFile(file);
    const before = sandbox.requests.length;
    // Earlier suites may leave notifications or the notification list open, which hide new toasts.
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('notifications.hideList');
    const started = Date.now();
    await clickLens(editor, 1, 'Send every request of this file in order with Tenant API Workbench');
    const summary = await waitFor(
      async () => (await driver.notifications()).find((message) => message.startsWith('Send All finished:')),
      { timeoutMs: 90_000, what: 'the Send All summary' },
    );
    const calls = sandbox.requests.slice(before);
    console.log(`      Send All: ${calls.length} calls in ${Date.now() - started} ms; ${summary}`);
    assert.equal(calls.length, 20);
    assert.equal(calls.filter((request) => request.status === 429).length, 0);
    assert.match(summary, /20 requests: /);
    await waitFor(() => tabsLabelled('Send All twenty.http')[0], { what: 'the summary tab' });
  });

  it('Send All of 30 says what it will cost first, asks above the setting\'s share, and a declined run sends nothing', async () => {
    const file = path.join(folder, 'thirty.http');
    fs.writeFileSync(file, Array.from({ length: 30 }, (_, index) => `GET /api/configurazioni?pagina=${index + 1}&dimensionePagina=1`).join('\n\n###\n') + '\n');
    // The readings of the run above are known: 30 calls are well under 1 % of org-rossi's quota, so ask from 0.01 %.
    await configure({ 'quota.confirmRunPercent': 0.01 });
    try {
      const editor = await openFile(file);
      const before = sandbox.requests.length;
      await driver.showDialogs(true);
      try {
        await clickLens(editor, 0, 'Send every request of this file in order with Tenant API Workbench');
        const question = await driver.clickDialogButton('Cancel', { timeoutMs: 20_000 });
        assert.match(question, /^Send All makes 30 calls, about 5 s at the limit, [\d.]+ % of Rossi Costruzioni S\.r\.l\.'s remaining quota\. Send it\?\n/);
        assert.match(question, /You are asked from 0\.01 % of a remaining weekly quota, and when a quota is not known yet \(tenantApi\.quota\.confirmRunPercent\)/);
      } finally {
        await driver.showDialogs(false);
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
      assert.equal(sandbox.requests.length, before, 'a declined run sends nothing');
      // Under the setting's share it only says the cost, and sends: 30 x 200, no 429.
      await configure({ 'quota.confirmRunPercent': undefined });
      const result = (await vscode.commands.executeCommand('tenantApi.requestFile.sendAll', editor.document.uri)) as { cost?: string; statuses: Record<string, number> };
      assert.match(result.cost ?? '', /^30 calls, about 5 s at the limit, /);
      assert.deepEqual(result.statuses, { 200: 30 });
      assert.equal(sandbox.requests.slice(before).filter((request) => request.status === 429).length, 0);
    } finally {
      await configure({ 'quota.confirmRunPercent': undefined });
    }
  });

  it('a request file\'s response tab: its path in the title, the status, no extension, JSON colours, Re-run and Copy as cURL from its title bar, in the history', async () => {
    const file = path.join(folder, 'unnamed.http');
    fs.writeFileSync(file, '# @tenant RC-MI\nGET /efat/api/v1/ditte?dimensionePagina=1\n');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const editor = await openFile(file);
    const before = sandbox.requests.length;
    await clickLens(editor, 1, 'Send line 2 with Tenant API Workbench');
    await waitFor(() => sandbox.requests.slice(before).some((request) => request.path === '/efat/api/v1/ditte') || undefined, { timeoutMs: 30_000, what: 'the send' });
    // Not "GET line 2": the path's last segment, whose data, the status; no ".jsonc" at the end.
    const tab = await waitFor(() => tabsLabelled('GET ditte · RC-MI · 200')[0], { timeoutMs: 30_000, what: 'the tab "GET ditte · RC-MI · 200"' });
    assert.equal(tab.label, 'GET ditte · RC-MI · 200');
    const uri = (tab.input as vscode.TabInputText).uri;
    assert.equal(uri.scheme, 'tenant-api-response', 'the one response provider');
    const response = await waitFor(() => vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString() && document.languageId === 'jsonc'), { what: 'the tab in JSON' });
    assert.match(response.getText(), /^\/\/ 200 OK/m);
    const entry = (await workbenchApi()).history()[0];
    assert.deepEqual([entry.method, entry.path, entry.query, entry.tenantId, entry.status], ['GET', '/efat/api/v1/ditte', { dimensionePagina: '1' }, tenant('RC-MI').id, 200], 'the send is in the history');

    // The tab's title bar: Re-run sends the file's request again, into the same tab.
    await vscode.window.showTextDocument(response, { preview: false, viewColumn: tab.group.viewColumn });
    const actions = '.editor-group-container.active .editor-actions .action-label';
    await driver.click(`${actions}.codicon-history`, { timeoutMs: 10_000 });
    await waitFor(() => sandbox.requests.slice(before).filter((request) => request.path === '/efat/api/v1/ditte').length === 2 || undefined, { what: 'the re-run' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(tabsLabelled('GET ditte · RC-MI').length, 1, 'the same tab');

    await vscode.env.clipboard.writeText('');
    await vscode.window.showTextDocument(response, { preview: false, viewColumn: tab.group.viewColumn });
    await driver.click(`${actions}.codicon-terminal`, { timeoutMs: 10_000 });
    const curl = await waitFor(async () => (await vscode.env.clipboard.readText()) || undefined, { what: 'the cURL command' });
    assert.match(curl, /^curl .*\/efat\/api\/v1\/ditte\?dimensionePagina=1/);
    assert.match(curl, /User-Tenant: /);
    assert.ok(await driver.count(`${actions}.codicon-save-as`) === 1, 'Save to Request File is offered too');
  });

  it('Send All shows a table (status, time, size) whose rows open their responses', async () => {
    const file = path.join(folder, 'three.http');
    fs.writeFileSync(file, '# @name conf\nGET /api/configurazioni?dimensionePagina=1\n\n###\n# @tenant RC-TO\nGET /efat/api/v1/ditte?dimensionePagina=2\n\n###\nGET /api/does-not-exist\n');
    const editor = await openFile(file);
    await clickLens(editor, 1, 'Send every request of this file in order with Tenant API Workbench');
    const tab = await waitFor(() => tabsLabelled('Send All three.http')[0], { timeoutMs: 60_000, what: 'the summary tab' });
    const uri = (tab.input as vscode.TabInputText).uri;
    const summary = await waitFor(() => vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString() && document.languageId === 'markdown'), { what: 'the summary in Markdown' });
    const lines = summary.getText().split('\n');
    assert.match(lines.find((line) => line.includes('Status')) ?? '', /^\| +Status \| +Time \| +Size \| Request \|$/);
    const row = (title: string) => lines.findIndex((line) => line.includes(title));
    assert.match(lines[row('GET conf ·')], /^\| +200 \| +\d+ ms \| +[\d.,]+ (B|KB|kB) \| GET conf · Rossi Costruzioni S\.r\.l\. · 200 \|$/);
    assert.match(lines[row('GET ditte · RC-TO · 200')], /^\| +200 \| /);
    assert.match(lines[row('GET does-not-exist')], /^\| +404 \| /);

    const links = (await vscode.commands.executeCommand('vscode.executeLinkProvider', uri)) as vscode.DocumentLink[];
    assert.equal(links.length, 3, 'a link per row');
    // The user puts the cursor on the second row's link and opens it (Open Link, as Ctrl+click does).
    const shown = await vscode.window.showTextDocument(summary, { preview: false, viewColumn: tab.group.viewColumn });
    const link = links.find((candidate) => candidate.range.start.line === row('GET ditte · RC-TO · 200'));
    assert.ok(link);
    shown.selection = new vscode.Selection(link.range.start.translate(0, 2), link.range.start.translate(0, 2));
    await vscode.commands.executeCommand('editor.action.openLink');
    const opened = await waitFor(() => (vscode.window.activeTextEditor?.document.uri.path.endsWith('/GET ditte · RC-TO · 200') ? vscode.window.activeTextEditor : undefined), { what: 'the response of the second row' });
    assert.match(opened.document.getText(), /^\/\/ GET http:\/\/127\.0\.0\.1:\d+\/efat\/api\/v1\/ditte\?dimensionePagina=2$/m);
    assert.equal(opened.document.languageId, 'jsonc');
  });

  it('a bad file shows its diagnostics', async () => {
    const file = path.join(folder, 'bad.http');
    fs.writeFileSync(
      file,
      [
        '# @tenant XX-NONE',
        'GET /nowhere/x?q={{missing}}',
        '',
        '###',
        'POST /api/configurazioni',
        'Authorization: Bearer abc',
        'Content-Type: application/json',
        '',
        '{ "a": 1, }',
        '###',
        'GET /api/x?v={{nobody.response.body.$.id}}',
      ].join('\n'),
    );
    const editor = await openFile(file);
    const diagnostics = await waitFor(
      () => {
        const found = vscode.languages.getDiagnostics(editor.document.uri);
        return found.length >= 6 ? found : undefined;
      },
      { what: 'the diagnostics of bad.http' },
    );
    const byCode = diagnostics.map((diagnostic) => `${diagnostic.range.start.line}:${String(diagnostic.code)}`).sort();
    assert.deepEqual(byCode, ['0:unknownTenant', '10:unknownRequest', '1:noRoute', '1:unknownVariable', '5:credentialHeader', '8:malformedJson']);
    await driver.waitFor('.monaco-editor .squiggly-error', { timeoutMs: 15_000 });
  });
  it('Save to Request File appends the request of a response tab as a block, without credentials', async () => {
    const summary = (await vscode.commands.executeCommand('tenantApi.sendRequest', {
      method: 'GET',
      path: '/efat/api/v1/ditte',
      tenantId: tenant('RC-TO').id,
      query: { dimensionePagina: '2' },
    })) as { ok: boolean; document?: string };
    assert.ok(summary.ok && summary.document, JSON.stringify(summary));
    await vscode.window.showTextDocument(vscode.Uri.parse(summary.document), { preview: false });
    const file = path.join(folder, 'saved.http');
    fs.writeFileSync(file, '# Saved requests\nGET /api/configurazioni\n');
    const saved = await vscode.commands.executeCommand('tenantApi.requestFile.saveRequest', undefined, file);
    assert.equal(saved, vscode.Uri.file(file).toString());
    const text = fs.readFileSync(file, 'utf8');
    assert.match(text, /\n###\n# @name ditte\n# @tenant RC-TO\nGET \/efat\/api\/v1\/ditte\n {4}\?dimensionePagina=2\n/);
    assert.ok(!/Authorization|User-Tenant/i.test(text));
  });
  it('works whatever language another extension gives .http files; a setting turns its CodeLens off', async () => {
    const editor = await openFile(path.join(folder, 'example.http'));
    // REST Client and httpYac claim .http as their `http` language: stand in for them with another language.
    const claimed = await vscode.languages.setTextDocumentLanguage(editor.document, 'plaintext');
    const lenses = (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', claimed.uri)) as vscode.CodeLens[];
    const titles = lenses.map((lens) => lens.command?.title ?? '');
    assert.ok(titles.filter((title) => title.includes('Send (Tenant API)')).length >= 6, titles.join(' | '));
    assert.ok(titles.some((title) => title.includes('Send All (Tenant API)')));
    const symbols = (await vscode.commands.executeCommand('vscode.executeDocumentSymbolProvider', claimed.uri)) as vscode.DocumentSymbol[];
    assert.deepEqual(symbols.map((symbol) => symbol.name), ['tenants', 'configurazioni', 'ditte', 'ditteTorino', 'ultimaPagina', 'secondoTenant']);

    const line = lineOf(editor, 'GET /efat/api/v1/ditte?dimensionePagina={{pageSize}}&pagina=');
    const column = claimed.lineAt(line).text.indexOf('{{ditte.response') + 3;
    const hovers = (await vscode.commands.executeCommand('vscode.executeHoverProvider', claimed.uri, new vscode.Position(line, column))) as vscode.Hover[];
    const hoverText = hovers.flatMap((hover) => hover.contents.map((content) => (content as vscode.MarkdownString).value)).join('\n');
    assert.match(hoverText, /\n8000\n/, hoverText);

    const tenantLine = lineOf(editor, '# @tenant RC-TO');
    const completions = (await vscode.commands.executeCommand('vscode.executeCompletionItemProvider', claimed.uri, new vscode.Position(tenantLine, '# @tenant '.length))) as vscode.CompletionList;
    const labels = completions.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
    for (const code of ['RC-MI', 'RC-TO', 'BA-PR']) assert.ok(labels.includes(code), labels.join(' '));

    await vscode.workspace.getConfiguration('tenantApi').update('requestFiles.codeLens', false, vscode.ConfigurationTarget.Global);
    try {
      const none = (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', claimed.uri)) as vscode.CodeLens[];
      assert.equal(none.filter((lens) => lens.command?.title.includes('Tenant API')).length, 0);
    } finally {
      await vscode.workspace.getConfiguration('tenantApi').update('requestFiles.codeLens', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  // A request file offers the fixes Send Request offers, and sends again once they succeed.
  it('signed out, Send offers Sign In (not "not one of your tenants"), and after signing in the request goes', async () => {
    const file = path.join(folder, 'signedOut.http');
    fs.writeFileSync(file, '# @name ditteAfterSignIn\n# @tenant RC-MI\nGET /efat/api/v1/ditte?dimensionePagina=1\n');
    await signOutEveryone();
    const mario = sandbox.users.find((user) => user.username === 'mario.rossi')!;
    await driver.robot.setCredentials({ username: mario.username, password: mario.password });
    await vscode.commands.executeCommand('notifications.clearAll');
    const editor = await openFile(file);
    const before = sandbox.requests.length;
    await clickLens(editor, 2, 'Send ditteAfterSignIn with Tenant API Workbench');
    const offer = await waitFor(async () => (await driver.notifications()).find((message) => /not signed in/.test(message)), { what: 'the Sign In offer' });
    assert.doesNotMatch(offer, /not one of your tenants/);
    assert.equal(sandbox.requests.length, before, 'nothing was sent');
    await driver.clickNotificationButton('Sign In', { message: 'not signed in' });
    await waitFor(() => tabsLabelled('GET ditteAfterSignIn · RC-MI')[0], { timeoutMs: 60_000, what: 'the response tab after signing in' });
    const sent = sandbox.requests.slice(before).filter((request) => request.path === '/efat/api/v1/ditte');
    assert.deepEqual(sent.map((request) => [request.status, request.headers['user-tenant']]), [[200, tenant('RC-MI').id]]);
  });

  it('no licence key, Send offers Set Licence Key, and once it is set the request goes', async () => {
    const file = path.join(folder, 'noKey.http');
    fs.writeFileSync(file, '# @name configurazioniAfterKey\nGET /api/configurazioni?dimensionePagina=1\n');
    const keys = (await extensionExports()).licenceKeys!;
    await keys.clear('core');
    const coreKey = sandbox.licenceKeys.find((key) => key.module === 'core' && key.organizationId === 'org-rossi')!;
    await vscode.commands.executeCommand('notifications.clearAll');
    const editor = await openFile(file);
    const before = sandbox.requests.length;
    await clickLens(editor, 1, 'Send configurazioniAfterKey with Tenant API Workbench');
    await waitFor(async () => (await driver.notifications()).find((message) => /licence key/i.test(message)), { what: 'the Set Licence Key offer' });
    await driver.clickNotificationButton('Set Licence Key', { message: 'licence key' });
    await inputStep('Licence key for the module', coreKey.key);
    await inputStep('Label for this key');
    // Which tenants the key covers: RC-MI, whose organization the efat key already names (no name is asked).
    await driver.waitFor(`${TITLE('Which of your tenants does this licence cover?')}`, { timeoutMs: 15_000 });
    await driver.click('.quick-input-widget .monaco-list-row:has-text("RC-MI")', { timeoutMs: 15_000 });
    const row = '.quick-input-widget .monaco-list-row:has-text("RC-MI")';
    await driver.waitFor(`${row}[aria-checked="true"], ${row} input[type="checkbox"]:checked, ${row} .monaco-custom-toggle.checked`, { timeoutMs: 10_000 });
    await driver.press('Enter');
    await waitFor(() => tabsLabelled('GET configurazioniAfterKey')[0], { timeoutMs: 60_000, what: 'the response tab after the key was set' });
    const sent = sandbox.requests.slice(before).filter((request) => request.path === '/api/configurazioni');
    assert.deepEqual(sent.map((request) => [request.status, request.headers['authorization-key']]), [[200, coreKey.key]]);
  });
});

const TITLE = (text: string) => `.quick-input-widget .quick-input-title:has-text("${text}")`;

/** Waits for a quick input by its title, types `keys` (if any) and presses Enter. */
async function inputStep(title: string, keys?: string): Promise<void> {
  await driver.waitFor(TITLE(title), { timeoutMs: 15_000 });
  if (keys) await driver.type(keys);
  await driver.press('Enter');
}
