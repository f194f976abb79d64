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
import { extensionExports, setLicenceKeys, signInAs, signOutEveryone, waitFor, workbenchApi } from './helpers/workbench';

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

// Issue 36 (daily use, second round): the texts it changed, as an Italian user meets them. Laura (one
// tenant, Bianchi's keys) against a sandbox of her own: no call of this session has counted against
// Bianchi when the first Send All asks.
(inItalian ? describe : () => undefined)('Italian display language: daily use, second round (cost, bodies, assertions, watch, quota, notices)', function (this: Mocha.Suite) {
  this.timeout(120_000);
  const suite = signInSuite({});
  let folder: string;

  before(async function () {
    if (!driver.available()) return this.skip();
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'italian-daily-'));
    await signInAs(suite.sandbox, 'laura.verdi');
    await setLicenceKeys(suite.sandbox, 'org-bianchi');
  });

  afterEach(async () => {
    await driver.showDialogs(false);
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  async function open(name: string, text: string): Promise<vscode.TextEditor> {
    const file = path.join(folder, name);
    fs.writeFileSync(file, text);
    return vscode.window.showTextDocument(vscode.Uri.file(file), { viewColumn: vscode.ViewColumn.One, preview: false });
  }

  it('the first Send All asks, saying in Italian that the remaining quota is not known yet', async () => {
    const editor = await open('costo.http', Array.from({ length: 6 }, (_, index) => `GET /api/configurazioni?pagina=${index + 1}`).join('\n\n###\n') + '\n');
    await driver.showDialogs(true);
    const running = Promise.resolve(vscode.commands.executeCommand('tenantApi.requestFile.sendAll', editor.document.uri));
    const question = await driver.clickDialogButton('Annulla', { timeoutMs: 30_000 });
    await running;
    await driver.screenshot('italian-cost-unknown');
    assert.match(question, /^Invia tutte fa 6 chiamate, circa 1 s al limite, quota residua di Bianchi Alimentari S\.p\.A\. non ancora nota\. Inviarle\?/);
    assert.match(question, /La quota settimanale residua di Bianchi Alimentari S\.p\.A\. non è ancora nota: nessuna risposta di questa sessione l'ha indicata\./);
  });

  it('a broken body is asked about at its line and column; a failed assertion says what was expected and found', async () => {
    const editor = await open('corpo.http', ['POST /api/configurazioni', 'Content-Type: application/json', '', '{', '  "a": 1', '  "b": 2', '}', ''].join('\n'));
    await driver.showDialogs(true);
    const declined = Promise.resolve(vscode.commands.executeCommand('tenantApi.requestFile.send', editor.document.uri, 0));
    assert.match(await driver.clickDialogButton('Annulla', { timeoutMs: 20_000 }), /^Il corpo non è JSON valido \(riga 6, colonna 3\)\. Inviarlo comunque\?/);
    assert.deepEqual(((await declined) as { error?: unknown }).error, { kind: 'cancelled', message: 'Non inviata: il corpo non è JSON valido.' });
    await driver.showDialogs(false);

    const checked = await open('verifica.http', 'GET /api/configurazioni?dimensionePagina=1\n?? status == 201\n?? body $.dimensionePagina == 2\n');
    await vscode.commands.executeCommand('tenantApi.requestFile.send', checked.document.uri, 0);
    const problems = await waitFor(() => {
      const found = vscode.languages.getDiagnostics(checked.document.uri).filter((diagnostic) => diagnostic.code === 'assertionFailed');
      return found.length === 2 ? found.map((diagnostic) => diagnostic.message) : undefined;
    }, { what: 'the two failed assertions at their lines' });
    assert.deepEqual(problems, ['status: atteso 201, trovato 200', 'body $.dimensionePagina: atteso 2, trovato 1']);
  });

  it('Watch says in Italian that it sends now; the quota tooltip names the organization, its times 24-hour', async () => {
    await vscode.commands.executeCommand('tenantApi.watch', { path: '/api/configurazioni' });
    try {
      await waitFor(async () => (await driver.notifications()).find((message) => message === 'Osservo GET configurazioni: inviata ora, poi ogni 60 s.'), { what: 'the watch notification in Italian' });
    } finally {
      const watches = ((await extensionExports()) as unknown as { watches: { list(): Array<{ id: number }> } }).watches;
      for (const watch of watches.list()) await vscode.commands.executeCommand('tenantApi.stopWatch', watch.id);
    }
    const status = await waitFor(async () => {
      const current = (await workbenchApi()).statusBar();
      return current.organization ? current : undefined;
    }, { what: 'a reading in the status bar' });
    assert.match(status.tooltip, /\*\*Organizzazione:\*\* Bianchi Alimentari S\.p\.A\. \(una quota settimanale per tutte le sue chiavi di licenza\)/);
    assert.match(status.tooltip, /\*\*Rilevato:\*\* \d\d:\d\d:\d\d \(/);
    assert.doesNotMatch(status.tooltip, /[AP]M/);
  });

  it('signed out, the notification says the request goes once signed in, not to try again', async () => {
    await signOutEveryone();
    await vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'GET', path: '/api/configurazioni' });
    const notice = await waitFor(async () => (await driver.notifications()).find((message) => message.startsWith('Non hai effettuato l\'accesso a Tenant API.')), { what: 'the sign-in notice' });
    assert.equal(notice, 'Non hai effettuato l\'accesso a Tenant API. Accedi: la richiesta parte appena hai effettuato l\'accesso.');
  });
});
