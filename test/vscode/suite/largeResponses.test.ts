// A large response, driven as a user: Send on a request file's listing of 40,000 records (about
// 21.7 MB), the tab opens with a preview of the first items (small: folding works), the CodeLens
// "Open the whole response" is clicked in the browser, and the whole listing opens, searchable.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Sandbox } from '../../sandbox';
import { driver } from './helpers/driver';
import { clickLens } from './helpers/requestFileEditor';
import { endWorkbenchSuite, startSignedInAsMario, waitFor } from './helpers/workbench';

const OPEN_WHOLE_TOOLTIP = 'Opens every item in a tab of its own; a large document takes seconds to open';

function tabLabelled(prefix: string): vscode.Tab | undefined {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((tab) => tab.label.startsWith(prefix));
}

function documentOf(tab: vscode.Tab): vscode.TextDocument | undefined {
  const uri = (tab.input as vscode.TabInputText).uri.toString();
  return vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri);
}

describe('large responses', function () {
  this.timeout(360_000);
  let sandbox: Sandbox;
  let folder: string;

  before(async function () {
    if (!driver.available()) this.skip();
    sandbox = await startSignedInAsMario();
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'large-responses-'));
    fs.writeFileSync(path.join(folder, 'large.http'), ['# @name tutte', '# @tenant RC-MI', 'GET /efat/api/v1/ditte?dimensionePagina=40000', ''].join('\n'));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await endWorkbenchSuite(sandbox);
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('opens a 21 MB listing as a preview of its first items, then the whole listing on request', async () => {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(folder, 'large.http')));
    const editor = await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.One, preview: false });
    await clickLens(editor, 0, 'Send tutte with Tenant API Workbench');
    const started = performance.now();
    const tab = await waitFor(() => tabLabelled('GET tutte'), { timeoutMs: 60_000, what: 'the response tab of tutte' });
    const preview = await waitFor(() => documentOf(tab), { timeoutMs: 10_000, what: 'the preview document' });
    const shownMs = performance.now() - started;
    const sent = sandbox.requests.filter((request) => request.path === '/efat/api/v1/ditte').at(-1);
    assert.equal(sent?.status, 200);

    const text = preview.getText();
    assert.match(text, /^\/\/ Preview: the first 50 of 40,000 items of a 2\d\.\d MB response\./m);
    assert.match(text, /^ {4}\/\/ … 39,950 more items: Open the whole response$/m);
    assert.ok(text.length < 100_000, `the preview is small: ${text.length} characters`);
    assert.equal(text.match(/"codiceDitta"/g)?.length, 50);
    // Folding works in the preview: the JSON folding of every record shown.
    const folds = await waitFor(async () => {
      const ranges = (await vscode.commands.executeCommand('vscode.executeFoldingRangeProvider', preview.uri)) as vscode.FoldingRange[] | undefined;
      return ranges && ranges.length >= 50 ? ranges : undefined;
    }, { timeoutMs: 20_000, what: 'folding ranges in the preview' });
    console.log(`      21 MB listing: the preview shown ${shownMs.toFixed(0)} ms after the click (request, transfer and parse included; load average ${os.loadavg()[0].toFixed(1)}); ${folds.length} folding ranges`);

    // The CodeLens above the preview's notice, clicked in the response tab.
    const shown = await vscode.window.showTextDocument(preview, { viewColumn: tab.group.viewColumn, preview: false });
    await clickLens(shown, 0, OPEN_WHOLE_TOOLTIP);
    const whole = await waitFor(
      () => vscode.workspace.textDocuments.find((candidate) => candidate.uri.scheme === 'tenant-api-whole-response' && candidate.getText().length > 0),
      // Laid out in the extension host: seconds on a quiet machine, over a minute at load 20.
      { timeoutMs: 150_000, what: 'the whole response' },
    );
    assert.match(whole.uri.path, /GET tutte.* \(whole\)\.jsonc$/);
    const all = whole.getText();
    assert.equal(all.match(/"codiceDitta"/g)?.length, 40_000, 'every record');
    assert.ok(all.includes('"codiceDitta":"RC-MI-040000"'), 'the last record');

    // Search in the whole response: the Find widget finds the last record.
    await waitFor(() => (vscode.window.activeTextEditor?.document === whole ? true : undefined), { what: 'the whole response focused' });
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    await driver.press('Control+f');
    await driver.waitFor('.find-widget.visible', { timeoutMs: 10_000 });
    await driver.type('RC-MI-040000');
    await waitFor(async () => ((await driver.text('.find-widget .matchesCount')).includes('1 of 1') ? true : undefined), { timeoutMs: 20_000, what: 'one match' });
    await driver.press('Escape');
  });
});
