// The quick fixes of request-file diagnostics, driven as a user: the cursor on the problem, Ctrl+.
// opens the quick-fix menu in the browser, a click on the fix (and on a quick pick's answer when
// it asks), then the file has changed and the diagnostic is gone.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Sandbox } from '../../sandbox';
import { driver } from './helpers/driver';
import { endWorkbenchSuite, startSignedInAsMario, waitFor } from './helpers/workbench';

const FILE = [
  '# @name listing',
  '# @tenant XX-NOPE',
  'GET /efat/api/v1/ditte?dimensionePagina={{pageSize}}',
  'Authorization: Bearer abc.def',
  '',
  '###',
  '# @name elsewhere',
  'GET /nowhere/items',
  '',
  '###',
  '# @name body',
  'POST /api/configurazioni',
  'Content-Type: application/json',
  '',
  '{"a": [1, 2,],',
  ' "b": "x"}',
].join('\n');

const QUICK_FIX_MENU = '.action-widget';

function diagnosticsOf(uri: vscode.Uri, code: string): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((diagnostic) => diagnostic.source === 'Tenant API' && diagnostic.code === code);
}

describe('request file quick fixes', function () {
  this.timeout(180_000);
  let sandbox: Sandbox;
  let folder: string;
  let editor: vscode.TextEditor;

  before(async function () {
    if (!driver.available()) this.skip();
    sandbox = await startSignedInAsMario();
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'quick-fixes-'));
    fs.writeFileSync(path.join(folder, 'fixes.http'), FILE);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(folder, 'fixes.http')));
    editor = await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.One, preview: false });
  });

  after(async () => {
    await vscode.workspace.getConfiguration('tenantApi').update('routes', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await endWorkbenchSuite(sandbox);
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  /** Waits for the diagnostic, puts the cursor on it, presses Ctrl+. and clicks the fix titled `title`. */
  async function chooseFix(code: string, title: string): Promise<void> {
    const [diagnostic] = await waitFor(() => (diagnosticsOf(editor.document.uri, code).length > 0 ? diagnosticsOf(editor.document.uri, code) : undefined), {
      timeoutMs: 20_000,
      what: `the diagnostic ${code}`,
    });
    editor = await vscode.window.showTextDocument(editor.document, { viewColumn: vscode.ViewColumn.One, preview: false });
    editor.selection = new vscode.Selection(diagnostic.range.start, diagnostic.range.start);
    editor.revealRange(diagnostic.range, vscode.TextEditorRevealType.InCenter);
    // A key pressed while a notification takes the focus is lost, and a menu that loses the focus closes:
    // focus the editor and open the menu again, as a user would.
    for (let attempt = 1; ; attempt++) {
      try {
        await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
        await driver.waitFor('.editor-group-container.active .monaco-editor.focused', { timeoutMs: 10_000 });
        await driver.press('Control+.');
        await driver.waitFor(QUICK_FIX_MENU, { timeoutMs: 5_000 });
        if (await pickInMenu(title)) return;
        assert.fail(`no fix "${title}" in the menu: ${await driver.text(QUICK_FIX_MENU)}`);
      } catch (error) {
        if (attempt === 3 || error instanceof assert.AssertionError) throw error;
        await driver.press('Escape');
      }
    }
  }

  /** As with the keyboard: down the menu to the fix, then Enter. False when the menu has no such fix. */
  async function pickInMenu(title: string): Promise<boolean> {
    const focused = `${QUICK_FIX_MENU} .monaco-list-row.focused`;
    for (let step = 0; step < 10; step++) {
      await driver.waitFor(focused, { timeoutMs: 5_000 });
      if ((await driver.text(focused)).includes(title)) {
        // On the row: an Enter sent after a notification closed the menu would go into the file.
        await driver.press('Enter', { on: focused, timeoutMs: 2_000 });
        return true;
      }
      await driver.press('ArrowDown');
    }
    return false;
  }

  async function gone(code: string): Promise<void> {
    await waitFor(() => (diagnosticsOf(editor.document.uri, code).length === 0 ? true : undefined), { timeoutMs: 20_000, what: `the diagnostic ${code} to go` });
  }

  const text = () => editor.document.getText();

  it('removes a credential header written in the file', async () => {
    await chooseFix('credentialHeader', 'Remove the header Authorization');
    await gone('credentialHeader');
    assert.ok(!text().includes('Authorization: Bearer'), text());
    assert.match(text(), /dimensionePagina=\{\{pageSize\}\}\n\n###/);
  });

  it('defines an unknown variable above the request, the cursor after "= "', async () => {
    await chooseFix('unknownVariable', 'Define the variable pageSize above the request');
    await gone('unknownVariable');
    assert.ok(text().startsWith('@pageSize = \n# @name listing\n'), text());
    await waitFor(() => (vscode.window.activeTextEditor?.selection.active.isEqual(new vscode.Position(0, 12)) ? true : undefined), {
      what: 'the cursor after "@pageSize = "',
    });
  });

  it('replaces an unknown tenant with one picked from the user\'s tenants', async () => {
    await chooseFix('unknownTenant', 'Pick one of your tenants…');
    await driver.click('.quick-input-widget .monaco-list-row:has-text("RC-TO")', { timeoutMs: 10_000 });
    await gone('unknownTenant');
    assert.match(text(), /^# @tenant RC-TO$/m);
  });

  it('adds a route rule to tenantApi.routes for a path no route serves', async () => {
    await chooseFix('noRoute', 'Add a route rule for /nowhere/ to tenantApi.routes…');
    await driver.click('.quick-input-widget .monaco-list-row:has-text("Base URL")', { timeoutMs: 10_000 });
    await driver.click('.quick-input-widget .monaco-list-row:has-text("No licence key")', { timeoutMs: 10_000 });
    await gone('noRoute');
    const routes = vscode.workspace.getConfiguration('tenantApi').get<unknown[]>('routes') ?? [];
    assert.deepEqual(routes.at(-1), { prefix: '/nowhere/', host: 'base' });
  });

  it('repairs a JSON body with trailing commas, or shows where it breaks', async () => {
    const [diagnostic] = await waitFor(() => diagnosticsOf(editor.document.uri, 'malformedJson')[0] && diagnosticsOf(editor.document.uri, 'malformedJson'), {
      timeoutMs: 20_000,
      what: 'the JSON diagnostic',
    });
    const line = text().split('\n').indexOf('{"a": [1, 2,],');
    assert.deepEqual([diagnostic.range.start.line, diagnostic.range.start.character], [line, 12], 'at the "]" after the trailing comma');

    await chooseFix('malformedJson', 'Show where the JSON breaks');
    await waitFor(() => (vscode.window.activeTextEditor?.selection.isEqual(diagnostic.range) ? true : undefined), { what: 'the offending character selected' });

    await chooseFix('malformedJson', 'Remove the trailing commas and format the body');
    await gone('malformedJson');
    assert.ok(text().endsWith('{\n  "a": [\n    1,\n    2\n  ],\n  "b": "x"\n}'), text());
  });
});
