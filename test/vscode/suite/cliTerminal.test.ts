// Run Request File in Terminal, as a person runs it: a request file open, the palette,
// the command's title, Enter; a terminal named tenant-api opens in the file's folder running the
// bundled runner. Light: what the runner then does is proven by test/http/cli and dailyUse.test.ts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { driver } from './helpers/driver';
import { waitFor } from './helpers/workbench';

const WIDGET = '.quick-input-widget';
const ROW = `${WIDGET} .monaco-list-row`;

describe('Run Request File in Terminal', function () {
  this.timeout(60_000);
  let folder: string;

  before(function () {
    if (!driver.available()) this.skip();
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'run-in-terminal-'));
    fs.writeFileSync(path.join(folder, 'smoke.http'), 'GET /v10/user-tenants\n?? status == 200\n');
  });

  after(async () => {
    for (const terminal of vscode.window.terminals.filter((candidate) => candidate.name.startsWith('tenant-api'))) terminal.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('from the palette, opens a tenant-api terminal in the file\'s folder', async () => {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(folder, 'smoke.http')));
    await vscode.window.showTextDocument(document);
    const before = vscode.window.terminals.length;
    await driver.press('F1');
    await driver.waitFor(WIDGET, { timeoutMs: 10_000 });
    await driver.type('Tenant API: Run Request File in Terminal');
    await driver.waitFor(`${ROW}:has-text("Run Request File in Terminal")`, { timeoutMs: 10_000 });
    await driver.press('Enter');
    const terminal = await waitFor(() => vscode.window.terminals.find((candidate) => candidate.name.startsWith('tenant-api · ')), { timeoutMs: 20_000, what: 'the tenant-api terminal, named after the environment' });
    assert.equal(vscode.window.terminals.length, before + 1);
    const options = terminal.creationOptions as vscode.TerminalOptions;
    assert.equal(vscode.Uri.file(String(options.cwd)).fsPath, vscode.Uri.file(folder).fsPath, 'the terminal starts in the folder of the file (no workspace folder holds it)');
    assert.ok(options.env && 'TENANT_API_EDITOR_SETTINGS' in options.env, 'the editor\'s settings go through the terminal\'s environment (dailyUse.test.ts runs it)');
  });
});
