// The README's pictures of the whole workbench, taken as a user gets there: the sandbox's tests.http
// sent from its CodeLens beside the Tenants view, the same file run in the Testing view, and the
// runner (`tenant-api run`) in VS Code's integrated terminal. Each test checks what its picture
// shows before taking it. `npm run screenshots` writes them into media/; other runs write them into
// test/vscode/screenshots/ and leave the tree clean.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Sandbox } from '../../sandbox';
import { passwordGrantEnv, sandboxWorkspace } from '../../http/cli/runnerProcess';
import { driver } from './helpers/driver';
import { clickLens, openFile, tabsLabelled } from './helpers/requestFileEditor';
import { endWorkbenchSuite, extensionExports, startSignedInAsMario, waitFor } from './helpers/workbench';

const repoRoot = process.env.TENANT_API_TEST_REPO ?? path.resolve(__dirname, '..', '..', '..', '..');
const folderOfPictures = process.env.TENANT_API_TEST_UPDATE_SCREENSHOTS === '1' ? 'media' : 'test/vscode/screenshots';
const PANEL = '[id="workbench.parts.panel"]';
const TESTS_FILE = 'tests.http';

interface TestRunReport {
  results: Array<{ label: string; kind: 'passed' | 'failed' | 'errored' | 'skipped' }>;
}

async function lastTestRun(): Promise<TestRunReport | undefined> {
  const hooks = ((await extensionExports()) as { testing?: { lastRun(): TestRunReport | undefined } }).testing;
  assert.ok(hooks, 'activate() exports { testing } in test runs');
  return hooks.lastRun();
}

function lineOf(editor: vscode.TextEditor, text: string): number {
  const line = editor.document.getText().split('\n').findIndex((candidate) => candidate.startsWith(text));
  assert.ok(line >= 0, `no line ${text}`);
  return line;
}

async function savePicture(name: string, selector?: string): Promise<void> {
  // Let the last frame settle (a CodeLens or a squiggle drawn after the state the test waited for).
  await new Promise((resolve) => setTimeout(resolve, 500));
  const file = await driver.screenshot(`${folderOfPictures}/${name}`, selector ? { selector } : {});
  assert.ok(file.endsWith(`${folderOfPictures}/${name}`), file);
}

/** A folder as a user's CI job has it: the request file and a .vscode/settings.json naming the sandbox as "Sandbox". */
function runnerWorkspace(sandbox: Sandbox): string {
  const folder = sandboxWorkspace(sandbox, sandbox.clients.password.clientId);
  fs.copyFileSync(path.join(repoRoot, 'test', 'sandbox', 'requests', TESTS_FILE), path.join(folder, TESTS_FILE));
  // `tenant-api` on the PATH, as `npm install -g` of the package puts it there: the built runner.
  fs.mkdirSync(path.join(folder, 'bin'));
  fs.writeFileSync(path.join(folder, 'bin', 'tenant-api'), `#!/bin/sh\nexec node ${JSON.stringify(path.join(repoRoot, 'dist', 'cli.js'))} "$@"\n`, { mode: 0o755 });
  return folder;
}

describe('README pictures of the workbench', function () {
  this.timeout(240_000);
  let sandbox: Sandbox;
  let testsFile: string;
  let cliFolder: string | undefined;

  before(async function () {
    if (!driver.available()) this.skip();
    // code-server would list every port the sandbox opens in the status bar and the panel: noise in a picture.
    await vscode.workspace.getConfiguration('remote').update('autoForwardPorts', false, vscode.ConfigurationTarget.Global);
    // Three columns in 1400 pixels: the minimaps' room goes to the text.
    await vscode.workspace.getConfiguration('editor').update('minimap.enabled', false, vscode.ConfigurationTarget.Global);
    sandbox = await startSignedInAsMario();
    // The workspace folder: the Testing view finds the file there.
    testsFile = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, TESTS_FILE);
    fs.copyFileSync(path.join(repoRoot, 'test', 'sandbox', 'requests', TESTS_FILE), testsFile);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  after(async () => {
    for (const terminal of vscode.window.terminals.filter((candidate) => candidate.name === 'tenant-api')) terminal.dispose();
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await endWorkbenchSuite(sandbox);
    await vscode.workspace.getConfiguration('remote').update('autoForwardPorts', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('editor').update('minimap.enabled', undefined, vscode.ConfigurationTarget.Global);
    if (testsFile) fs.rmSync(testsFile, { force: true });
    if (cliFolder) fs.rmSync(cliFolder, { recursive: true, force: true });
  });

  it('sends a request of tests.http from its CodeLens beside the Tenants view, and saves the screenshots', async () => {
    await driver.click('.activitybar a[aria-label^="Tenant API"]', { timeoutMs: 15_000 });
    await driver.waitFor('[id="workbench.parts.sidebar"] .monaco-list-row[aria-label^="Mario Rossi"]', { timeoutMs: 15_000 });
    const editor = await openFile(testsFile);
    const requestLine = lineOf(editor, 'GET /api/configurazioni?dimensionePagina=1');
    await clickLens(editor, requestLine, 'Send failsOnPurpose with Tenant API Workbench');
    const text = await waitFor(
      () => {
        const tab = tabsLabelled('GET failsOnPurpose')[0];
        const uri = tab && (tab.input as vscode.TabInputText).uri.toString();
        return vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri)?.getText();
      },
      { timeoutMs: 30_000, what: 'the response tab of failsOnPurpose' },
    );
    assert.match(text, /^\/\/ Assertions: 1 passed, 1 failed$/m);
    // The failed assertion is a problem at its line, drawn in the file.
    await driver.waitFor('.monaco-editor .squiggly-error', { timeoutMs: 15_000 });
    // The request in the middle of the file's editor, the response tab from its top, no cursor line in the way.
    editor.revealRange(new vscode.Range(requestLine - 14, 0, requestLine - 14, 0), vscode.TextEditorRevealType.AtTop);
    await driver.waitFor('.codelens-decoration a[title="Send failsOnPurpose with Tenant API Workbench"]', { timeoutMs: 10_000 });
    await savePicture('screenshot-request-file.png');
  });

  it('runs tests.http in the Testing view, the failure peeked at its line, and saves the screenshots', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.view.testing.focus');
    const row = (label: string) => `.test-explorer .monaco-list-row:has-text("${label}")`;
    // The workspace's copy: a request file opened from another folder (an earlier suite's) is listed too, with its folder.
    const workspaceFile = `${row(TESTS_FILE)}:not(:has-text("/"))`;
    // The first test's send read the organization's quota, so the run asks nothing first (against a quota
    // not known yet it would ask, and wait for an answer).
    const previous = await lastTestRun();
    await driver.click(workspaceFile, { timeoutMs: 30_000 });
    await driver.click(`${workspaceFile} .action-label.codicon-testing-run-icon`, { timeoutMs: 10_000 });
    const report = await waitFor(async () => {
      const last = await lastTestRun();
      return last !== previous ? last : undefined;
    }, { timeoutMs: 60_000, what: 'the test run to end' });
    assert.deepEqual(
      Object.fromEntries(report.results.map((result) => [result.label, result.kind])),
      { tenants: 'passed', ditte: 'passed', ultimaPagina: 'passed', senzaTenant: 'passed', failsOnPurpose: 'failed' },
    );
    await waitFor(async () => /^4\/5$/m.test(await driver.text('.test-explorer')) || undefined, { what: 'the Testing view to say 4/5' });
    // The file's tests listed under it, and the failure shown where it is, as "Peek Output" shows it.
    await driver.click(workspaceFile);
    await driver.press('ArrowRight');
    await driver.waitFor(row('failsOnPurpose'), { timeoutMs: 10_000 });
    const editor = await openFile(testsFile);
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    await vscode.commands.executeCommand('testing.openOutputPeek');
    await driver.waitFor('.monaco-editor .peekview-widget:has-text("expected 2, found 1")', { timeoutMs: 15_000 });
    await savePicture('screenshot-testing.png');
    await driver.press('Escape');
  });

  it('runs tenant-api on tests.http in the integrated terminal, and saves the screenshots', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    cliFolder = runnerWorkspace(sandbox);
    // The DOM renderer, whose text the test can read (the picture looks the same).
    await vscode.workspace.getConfiguration('terminal.integrated').update('gpuAcceleration', 'off', vscode.ConfigurationTarget.Global);
    try {
      const terminal = vscode.window.createTerminal({
        name: 'tenant-api',
        cwd: cliFolder,
        shellPath: '/bin/bash',
        shellArgs: ['--noprofile', '--norc'],
        env: { ...passwordGrantEnv(sandbox), PATH: `${path.join(cliFolder, 'bin')}:${process.env.PATH ?? ''}`, PS1: '$ ' },
      });
      terminal.show();
      terminal.sendText(`tenant-api run ${TESTS_FILE} --env Sandbox --reporter junit=report.xml`);
      const screen = await waitFor(async () => {
        const shown = await driver.text(`${PANEL} .xterm-rows`, { timeoutMs: 2000 }).catch(() => '');
        return /Exit code \d/.test(shown) ? shown : undefined;
      }, { timeoutMs: 60_000, what: 'the runner to finish in the terminal' });
      assert.match(screen, /5 requests: 4 passed, 1 failed/, screen);
      assert.match(screen, /Exit code 1: an assertion failed/, screen);
      assert.ok(fs.existsSync(path.join(cliFolder, 'report.xml')), 'the JUnit report is written');
      for (const secret of Object.values(passwordGrantEnv(sandbox))) assert.ok(!screen.includes(secret), 'no secret on the screen');
      await savePicture('screenshot-cli.png', PANEL);
    } finally {
      await vscode.workspace.getConfiguration('terminal.integrated').update('gpuAcceleration', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
