// Assertions (?? lines) in request files, driven as a user: typing one with the completion list,
// a malformed line's diagnostic, Send (the CodeLens clicked) and the response tab's assertion section,
// a failed assertion as a problem at its line until it is fixed and sent again, and a script block
// that is shown as ignored and never sent.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Sandbox } from '../../sandbox';
import { driver } from './helpers/driver';
import { clickLens, openFile, tabsLabelled } from './helpers/requestFileEditor';
import { endWorkbenchSuite, startSignedInAsMario, waitFor } from './helpers/workbench';

const repoRoot = process.env.TENANT_API_TEST_REPO ?? path.resolve(__dirname, '..', '..', '..', '..');
const SUGGESTIONS = '.editor-widget.suggest-widget.visible .monaco-list';

function lineOf(editor: vscode.TextEditor, text: string, from = 0): number {
  const line = editor.document.getText().split('\n').findIndex((candidate, index) => index >= from && candidate.startsWith(text));
  assert.ok(line >= 0, `no line ${text}`);
  return line;
}

function failures(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((diagnostic) => diagnostic.source === 'Tenant API tests');
}

/** Puts the file back as it is on disk (the editor first: Revert works on the active one). */
async function revert(editor: vscode.TextEditor): Promise<void> {
  await vscode.window.showTextDocument(editor.document, { viewColumn: vscode.ViewColumn.One, preview: false });
  await vscode.commands.executeCommand('workbench.action.files.revert');
  assert.equal(editor.document.isDirty, false);
}

async function responseText(prefix: string, changedFrom?: string): Promise<string> {
  return waitFor(
    () => {
      const tab = tabsLabelled(prefix)[0];
      const uri = tab && (tab.input as vscode.TabInputText).uri.toString();
      const text = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri)?.getText();
      return text !== undefined && text !== changedFrom ? text : undefined;
    },
    { timeoutMs: 30_000, what: `the response tab ${prefix}` },
  );
}

describe('Assertions in request files', function () {
  this.timeout(180_000);
  let sandbox: Sandbox;
  let folder: string;

  before(async function () {
    if (!driver.available()) this.skip();
    sandbox = await startSignedInAsMario();
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'assertions-'));
    fs.copyFileSync(path.join(repoRoot, 'test', 'sandbox', 'requests', 'tests.http'), path.join(folder, 'tests.http'));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await endWorkbenchSuite(sandbox);
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('typing "?? " offers the subjects, then the operators; hover says what a word checks', async () => {
    const file = path.join(folder, 'typed.http');
    fs.writeFileSync(file, 'GET /api/configurazioni\n\n');
    const editor = await openFile(file);
    editor.selection = new vscode.Selection(2, 0, 2, 0);
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    await driver.waitFor('.editor-group-container.active .monaco-editor.focused', { timeoutMs: 10_000 });
    await driver.type('?? ');
    const subjects = await waitFor(async () => {
      const text = await driver.text(SUGGESTIONS, { timeoutMs: 2000 }).catch(() => '');
      return ['status', 'header', 'body', 'duration'].every((name) => text.includes(name)) ? text : undefined;
    }, { what: 'the subjects in the completion list' });
    assert.ok(!subjects.includes('startsWith'), 'no operator before a subject');
    await driver.type('sta');
    await driver.press('Enter');
    const operators = await waitFor(async () => {
      const text = await driver.text(SUGGESTIONS, { timeoutMs: 2000 }).catch(() => '');
      return ['==', 'startsWith', 'exists'].every((name) => text.includes(name)) ? text : undefined;
    }, { what: 'the operators in the completion list' });
    assert.ok(!operators.includes('duration'), 'no subject after a subject');
    await driver.press('Enter');
    await driver.type('200');
    await driver.press('Escape');
    await waitFor(() => editor.document.lineAt(2).text === '?? status == 200' || undefined, { what: `the typed line (now "${editor.document.lineAt(2).text}")` });

    await editor.edit((edit) => edit.insert(editor.document.lineAt(2).range.end, '\n?? body $.elementi exists'));
    const hovers = (await vscode.commands.executeCommand('vscode.executeHoverProvider', editor.document.uri, new vscode.Position(3, 21))) as vscode.Hover[];
    // As shown: MarkdownString.appendText writes spaces as &nbsp; and escapes punctuation.
    const hover = hovers.flatMap((found) => found.contents.map((content) => (content as vscode.MarkdownString).value)).join('\n').replace(/&nbsp;/g, ' ').replace(/\\(?=[^\w\s])/g, '');
    assert.match(hover, /is present \(any value, 0 and false included\)/, hover);
    assert.match(hover, /Differs from httpYac/, hover);
    await revert(editor);
  });

  it('a malformed assertion shows a diagnostic on the part that is wrong', async () => {
    const file = path.join(folder, 'malformed.http');
    fs.writeFileSync(file, ['GET /api/configurazioni', '', '?? status 200', '?? body $.a ==', '?? js response.parsedBody.a == 1', '?? status == 200'].join('\n'));
    const editor = await openFile(file);
    const found = await waitFor(() => {
      const items = vscode.languages.getDiagnostics(editor.document.uri).filter((diagnostic) => diagnostic.code === 'assertion');
      return items.length >= 3 ? items : undefined;
    }, { what: 'the assertion diagnostics' });
    const where = found.map((item) => [item.range.start.line, item.range.start.character, item.range.end.character]).sort((a, b) => a[0] - b[0]);
    assert.deepEqual(where, [[2, 3, 13], [3, 12, 14], [4, 3, 5]]);
    assert.match(found.find((item) => item.range.start.line === 4)!.message, /runs JavaScript/);
    await driver.waitFor('.monaco-editor .squiggly-error', { timeoutMs: 15_000 });
  });

  it('Send shows each assertion passed or failed in the response tab; a failed one is a problem at its line until fixed and sent again', async () => {
    const editor = await openFile(path.join(folder, 'tests.http'));
    const requestLine = lineOf(editor, 'GET /api/configurazioni?dimensionePagina=1');
    await clickLens(editor, requestLine, 'Send failsOnPurpose with Tenant API Workbench');
    const text = await responseText('GET failsOnPurpose');
    const failing = lineOf(editor, '?? body $.dimensionePagina == 2', requestLine);
    assert.match(text, /^\/\/ Assertions: 1 passed, 1 failed$/m);
    assert.ok(text.includes(`//   passed · line ${failing} · ?? status == 200 · expected 200, found 200`), text.slice(0, 1500));
    assert.ok(text.includes(`//   FAILED · line ${failing + 1} · ?? body $.dimensionePagina == 2\n//       body $.dimensionePagina: expected 2, found 1`), text.slice(0, 1500));

    const [problem] = await waitFor(() => (failures(editor.document.uri).length > 0 ? failures(editor.document.uri) : undefined), { what: 'the failed assertion as a problem' });
    assert.equal(problem.range.start.line, failing);
    assert.equal(problem.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(problem.message, 'body $.dimensionePagina: expected 2, found 1');
    await driver.waitFor('.monaco-editor .squiggly-error', { timeoutMs: 15_000 });

    // A line added above moves the problem with its line; fixing the assertion's line removes it.
    await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), '# edited\n'));
    assert.equal(failures(editor.document.uri)[0]?.range.start.line, failing + 1);
    const fixed = editor.document.lineAt(failing + 1);
    await editor.edit((edit) => edit.replace(new vscode.Range(failing + 1, fixed.text.length - 1, failing + 1, fixed.text.length), '1'));
    assert.deepEqual(failures(editor.document.uri), []);

    await clickLens(editor, requestLine + 1, 'Send failsOnPurpose with Tenant API Workbench');
    const again = await responseText('GET failsOnPurpose', text);
    assert.match(again, /^\/\/ Assertions: 2 passed, 0 failed$/m);
    assert.deepEqual(failures(editor.document.uri), []);
    await revert(editor);
  });

  it('sending a request again clears the problems its last send left', async () => {
    const file = path.join(folder, 'size.http');
    fs.writeFileSync(file, ['@size = 2', '', '###', '# @name pageSize', 'GET /api/configurazioni?dimensionePagina=1', '', '?? body $.dimensionePagina == {{size}}'].join('\n'));
    const editor = await openFile(file);
    await clickLens(editor, 4, 'Send pageSize with Tenant API Workbench');
    const first = await responseText('GET pageSize');
    await waitFor(() => (failures(editor.document.uri).length === 1 ? true : undefined), { what: 'the failed assertion as a problem' });
    // The expected value comes from a variable: its line changes, the assertion's does not.
    await editor.edit((edit) => edit.replace(new vscode.Range(0, 0, 0, '@size = 2'.length), '@size = 1'));
    assert.equal(failures(editor.document.uri).length, 1, 'still there: its line was not edited');
    await clickLens(editor, 4, 'Send pageSize with Tenant API Workbench');
    const second = await responseText('GET pageSize', first);
    assert.match(second, /^\/\/ Assertions: 1 passed, 0 failed$/m);
    await waitFor(() => (failures(editor.document.uri).length === 0 ? true : undefined), { what: 'no problem after the passing send' });
    await revert(editor);
  });

  it('a > {% %} handler is shown as ignored and never sent as the body', async () => {
    const file = path.join(folder, 'handler.http');
    const lines = ['# @name withHandler', 'POST /api/configurazioni', 'Content-Type: application/json', '', '{"a": 1}', '', '> {%', '  client.global.set("id", response.body.id);', '%}', '', '?? status == 405'];
    fs.writeFileSync(file, lines.join('\n'));
    const editor = await openFile(file);
    const [warning] = await waitFor(() => {
      const items = vscode.languages.getDiagnostics(editor.document.uri).filter((diagnostic) => diagnostic.code === 'script');
      return items.length > 0 ? items : undefined;
    }, { what: 'the script warning' });
    assert.equal(warning.range.start.line, 6);
    assert.equal(warning.severity, vscode.DiagnosticSeverity.Warning);
    assert.match(warning.message, /never run/);

    const before = sandbox.requests.length;
    await clickLens(editor, 1, 'Send withHandler with Tenant API Workbench');
    const text = await responseText('POST withHandler');
    const sent = sandbox.requests.slice(before).filter((request) => request.path === '/api/configurazioni');
    assert.equal(sent.length, 1);
    assert.equal(sent[0].body, '{"a": 1}', 'the body without the handler');
    assert.match(text, /^\/\/ Request body \(8 B\)\n\/\/ {3}\{"a": 1\}$/m, 'the tab shows the body as sent, as a Send Request tab does');
    assert.doesNotMatch(text, /client\.test/, 'the handler is not part of it');
    assert.match(text, /^\/\/ Assertions: 1 passed, 0 failed$/m, 'the answer an error carried is checked too');
  });

  it('Send All of tests.http counts each request\'s assertions in the table and says the total', async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    // A fresh copy: the tests above edited tests.http.
    const file = path.join(folder, 'all', 'tests.http');
    fs.mkdirSync(path.dirname(file));
    fs.copyFileSync(path.join(repoRoot, 'test', 'sandbox', 'requests', 'tests.http'), file);
    const editor = await openFile(file);
    await clickLens(editor, lineOf(editor, 'GET /v10/user-tenants'), 'Send every request of this file in order with Tenant API Workbench');
    const tab = await waitFor(() => tabsLabelled('Send All tests.http')[0], { timeoutMs: 60_000, what: 'the summary tab' });
    const uri = (tab.input as vscode.TabInputText).uri.toString();
    const summary = await waitFor(() => vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri)?.getText(), { what: 'the summary' });
    const lines = summary.split('\n');
    assert.ok(lines.some((line) => /^5 requests: .*\. Assertions: 18 passed, 1 failed$/.test(line)), summary);
    assert.match(lines.find((line) => line.includes('Status')) ?? '', /^\| +Status \| +Time \| +Size \| Assertions +\| Request \|$/);
    assert.match(lines.find((line) => line.includes('GET failsOnPurpose')) ?? '', /^\| +200 \| .* \| 1 passed, 1 failed +\| GET failsOnPurpose/);
    assert.match(lines.find((line) => line.includes('GET tenants')) ?? '', /^\| +200 \| .* \| 6 passed +\| GET tenants/);
    const failing = lineOf(editor, '?? body $.dimensionePagina == 2', lineOf(editor, 'GET /api/configurazioni?dimensionePagina=1'));
    await waitFor(() => (failures(editor.document.uri).map((item) => item.range.start.line).join() === String(failing) ? true : undefined), { what: 'the one failed assertion as a problem' });
  });
});
