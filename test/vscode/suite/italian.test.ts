// The extension's Italian strings in a VS Code that runs in Italian: `npm run test:vscode -- --locale it`
// (the runner installs a language pack built from npm packages, see runner/languagePack.ts), or
// `npm run test:vscode:it`. In an editor that is not in Italian they are not registered at all: the
// code-server runner fails a run with pending tests, and CI runs them in their own Italian pass.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { driver } from './helpers/driver';
import { signInSuite } from './helpers/signInSuite';
import { setLicenceKeys, signInAs, signOutEveryone, waitFor } from './helpers/workbench';

const SIDEBAR = '[id="workbench.parts.sidebar"]';

const inItalian = vscode.env.language.startsWith('it');

(inItalian ? describe : () => undefined)('Italian display language (--locale it)', function (this: Mocha.Suite) {
  this.timeout(60_000);
  let bundle: Record<string, string>;

  before(async function () {
    if (!driver.available()) return this.skip();
    const { repoRoot } = await driver.info();
    bundle = JSON.parse(fs.readFileSync(path.join(repoRoot, 'l10n', 'bundle.l10n.it.json'), 'utf8')) as Record<string, string>;
    await signOutEveryone();
  });

  after(async () => {
    if (!bundle) return;
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('workbench.view.explorer');
  });

  it('VS Code itself runs in Italian (its own words, from the language pack)', async () => {
    assert.equal(vscode.env.language, 'it');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // The empty editor area's shortcuts: key names come from VS Code's core messages.
    await waitFor(async () => /MAIUSC/.test(await driver.text('.editor-group-watermark')), { timeoutMs: 10_000, what: 'MAIUSC in the editor watermark' });
  });

  it('the Tenants view, signed out, greets in Italian with the manifest\'s Italian buttons', async () => {
    await vscode.commands.executeCommand('tenantApi.tenants.focus');
    await waitFor(async () => /Accedi per consultare i tuoi tenant/.test(await driver.text(SIDEBAR)), { timeoutMs: 10_000, what: 'the Italian welcome text' });
    const sidebar = await driver.text(SIDEBAR);
    assert.match(sidebar, /Apri le impostazioni/);
    await driver.screenshot('italian-tenants-view');
  });

  it('the command palette lists the commands with their Italian titles', async () => {
    await driver.press('F1');
    await driver.waitFor('.quick-input-widget', { timeoutMs: 10_000 });
    await driver.type('Tenant API: Accedi');
    const lines = async () => (await driver.text('.quick-input-widget .quick-input-list')).split('\n').map((line) => line.trim());
    // The list once it shows the command (or the time limit, and the assertion says what it showed).
    await waitFor(async () => (await lines()).includes('Tenant API: Accedi') || undefined, { timeoutMs: 10_000, what: 'the Italian title in the palette' }).catch(() => undefined);
    const entries = await lines();
    await driver.screenshot('italian-palette');
    await driver.press('Escape');
    assert.ok(entries.includes('Tenant API: Accedi'), entries.join(' | '));
  });

  it('messages from the code (vscode.l10n) come from bundle.l10n.it.json', async () => {
    const expected = bundle['You are not signed in to Tenant API.'];
    assert.ok(expected && expected !== 'You are not signed in to Tenant API.');
    await vscode.commands.executeCommand('tenantApi.signOut');
    await waitFor(async () => (await driver.notifications()).includes(expected), { timeoutMs: 10_000, what: `"${expected}"` });
  });

  it('Set Licence Key asks whose licence it is in Italian, with Altro… last', async () => {
    const running = Promise.resolve(vscode.commands.executeCommand('tenantApi.setLicenceKey', { module: 'core', key: 'ITALIANTEST1234', label: 'core' }));
    const title = bundle['Which organization holds this licence?'];
    await driver.waitFor(`.quick-input-widget .quick-input-title:has-text("${title}")`, { timeoutMs: 10_000 });
    await driver.waitFor('.quick-input-widget .quick-input-list .monaco-list-row', { timeoutMs: 10_000 });
    const rows = (await driver.text('.quick-input-widget .quick-input-list')).split('\n').map((line) => line.trim()).filter(Boolean);
    await driver.screenshot('italian-licence-holder');
    await driver.press('Escape');
    assert.equal(await running, false);
    assert.ok(rows.includes(bundle['Sign In to choose from your tenants']), rows.join(' | '));
    assert.match(rows.at(-1) ?? '', new RegExp(`^${bundle['Other…']}`), rows.join(' | '));
  });
});

// What a day's requests show (labels, masked values, counts), translated too. Signed in as Laura (one tenant) against a sandbox of its own.
(inItalian ? describe : () => undefined)('Italian display language: a day\'s requests (labels, masked values, counts)', function (this: Mocha.Suite) {
  this.timeout(120_000);
  const suite = signInSuite({});
  let folder: string;
  let bundle: Record<string, string>;

  before(async function () {
    if (!driver.available()) return this.skip();
    bundle = JSON.parse(fs.readFileSync(path.join((await driver.info()).repoRoot, 'l10n', 'bundle.l10n.it.json'), 'utf8')) as Record<string, string>;
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'italian-'));
    await signInAs(suite.sandbox, 'laura.verdi');
    await setLicenceKeys(suite.sandbox, 'org-bianchi');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  async function sendAll(name: string, text: string): Promise<string> {
    const file = path.join(folder, name);
    fs.writeFileSync(file, text);
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.window.showTextDocument(vscode.Uri.file(file));
    await vscode.commands.executeCommand('tenantApi.requestFile.sendAll', vscode.Uri.file(file));
    const finished = bundle['Send All finished: {0}'].replace('{0}', '');
    return waitFor(async () => (await driver.notifications()).find((message) => message.startsWith(finished)), { what: 'the Send All notification' });
  }

  it('one request is "1 richiesta", one not sent "1 richiesta non inviata"; the sent headers say [nascosto]', async () => {
    const sent = await sendAll('one.http', 'GET /api/configurazioni\n');
    assert.match(sent, /: 1 richiesta: 1 × 200$/);
    await vscode.commands.executeCommand('tenantApi.requestFile.send', vscode.Uri.file(path.join(folder, 'one.http')), 0);
    const tab = await waitFor(
      () => vscode.workspace.textDocuments.find((document) => /^\/\/.*authorization-key/im.test(document.getText())),
      { what: 'the response tab with the headers sent' },
    );
    assert.match(tab.getText(), /authorization: \[nascosto\]/i);
    assert.doesNotMatch(tab.getText(), /\[redacted\]/);

    const failed = await sendAll('unknown.http', 'GET /nessuna/regola\n');
    await driver.screenshot('italian-send-all-one');
    assert.match(failed, /: 1 richiesta: 1 richiesta non inviata$/);
  });

  it('the built-in endpoint "User tenants" is offered as "Tenant dell\'utente"', async () => {
    const file = path.join(folder, 'paths.http');
    fs.writeFileSync(file, 'GET /v');
    const document = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(document);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, new vscode.Position(0, 6));
    const tenants = list.items.find((item) => (typeof item.label === 'string' ? item.label : item.label.label) === '/v10/user-tenants');
    assert.match(String(tenants?.detail), /Tenant dell'utente/, list.items.map((item) => `${JSON.stringify(item.label)} ${item.detail}`).join(' | '));
  });
});
