// Request files with assertions in VS Code's Testing view, driven as a user: the view opened, a
// file's row found and its run button clicked, the counts read from the view, the failure at its line.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Sandbox } from '../../sandbox';
import { driver } from './helpers/driver';
import { configure, endWorkbenchSuite, extensionExports, setLicenceKeys, signInAs, startSignedInAsMario, waitFor } from './helpers/workbench';

interface TestRunReport {
  name: string;
  cost?: string;
  declined?: boolean;
  results: Array<{ file: string; id: string; label: string; kind: 'passed' | 'failed' | 'errored' | 'skipped'; messages: Array<{ line: number; message: string; diff: boolean }> }>;
}

interface TestingHooks {
  lastRun(): TestRunReport | undefined;
  discover(): Promise<void>;
}

async function testing(): Promise<TestingHooks> {
  const hooks = ((await extensionExports()) as { testing?: TestingHooks }).testing;
  assert.ok(hooks, 'activate() exports { testing } in test runs');
  return hooks;
}

const CHECKS = [
  '# @name conf',
  'GET /api/configurazioni?dimensionePagina=1',
  '?? status == 200',
  '?? body $.organizzazione == org-rossi',
  '',
  '###',
  '# @name failsOnPurpose',
  'GET /api/configurazioni?dimensionePagina=2',
  '?? status == 201',
  '',
  '###',
  'GET /api/configurazioni?dimensionePagina=3',
  '?? body $.totaleElementi == 128',
  '?? body $.elementi[0] == {"codice": "NOT.THIS"}',
  '',
  '###',
  '# no assertions: not a test',
  'GET /api/configurazioni?dimensionePagina=4',
].join('\n');

describe('Testing view', function () {
  this.timeout(180_000);
  let sandbox: Sandbox;
  let folder: string;
  const written: string[] = [];

  function writeFile(name: string, text: string): string {
    const file = path.join(folder, name);
    fs.writeFileSync(file, text + '\n');
    written.push(file);
    return file;
  }

  before(async function () {
    if (!driver.available()) this.skip();
    sandbox = await startSignedInAsMario();
    folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
  });

  // Each test's files go with it: the Testing view shows only the rows on screen, so a long tree would hide the next file.
  afterEach(async () => {
    for (const file of written.splice(0)) fs.rmSync(file, { force: true });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    await endWorkbenchSuite(sandbox);
  });

  /** The row of a file (or test) in the Testing view. */
  const row = (label: string) => `.test-explorer .monaco-list-row:has-text("${label}")`;

  async function openTestingView(): Promise<void> {
    await vscode.commands.executeCommand('workbench.view.testing.focus');
  }

  /** Clicks the run button of a row of the Testing view (shown once the row is selected). */
  async function clickRun(label: string): Promise<void> {
    await driver.click(row(label), { timeoutMs: 30_000 });
    await driver.click(`${row(label)} .action-label.codicon-testing-run-icon`, { timeoutMs: 10_000 });
  }

  /**
   * Right-click on a row, then "Execute Using Profile": the workbench lists that item only once it
   * knows of a second profile, which reaches it a moment after the settings change; until then the
   * menu is closed and opened again, as a user would.
   */
  async function executeUsingProfile(label: string): Promise<void> {
    const item = '.monaco-menu .action-item:has-text("Execute Using Profile")';
    for (let attempt = 1; ; attempt++) {
      await driver.click(row(label), { button: 'right', timeoutMs: 30_000 });
      await driver.waitFor('.monaco-menu', { timeoutMs: 10_000 });
      if ((await driver.count(item)) > 0 || attempt === 5) break;
      await driver.press('Escape');
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    await driver.click(item, { timeoutMs: 10_000 });
  }

  /** Waits for a run that ended after `previous` (the hook's report object changes with each run). */
  async function nextRun(previous: TestRunReport | undefined, timeoutMs = 60_000): Promise<TestRunReport> {
    const hooks = await testing();
    return waitFor(() => (hooks.lastRun() !== previous ? hooks.lastRun() : undefined), { timeoutMs, what: 'the test run to end' });
  }

  /** Waits until the Testing view's text (its summary of the last run: passed/total) matches. */
  async function viewSays(pattern: RegExp): Promise<void> {
    await waitFor(async () => pattern.test(await driver.text('.test-explorer')) || undefined, { what: `the Testing view to say ${pattern}` });
  }

  /** The calls a run sent (the tenant listing the editor makes on its own aside). */
  const apiCalls = (from: number) => sandbox.requests.slice(from).filter((request) => request.path.startsWith('/api/'));

  const kinds = (report: TestRunReport) => Object.fromEntries(report.results.map((result) => [result.label, result.kind]));

  it('a file with assertions is an item; its run button runs it; the view counts passed and failed; the failure shows at its line', async () => {
    writeFile('tv-checks.http', CHECKS);
    await openTestingView();
    const previous = (await testing()).lastRun();
    const before = sandbox.requests.length;
    await clickRun('tv-checks.http');
    const report = await nextRun(previous);
    assert.deepEqual(kinds(report), { conf: 'passed', failsOnPurpose: 'failed', 'line 12': 'failed' }, 'the request without assertions is no test');
    assert.deepEqual(
      apiCalls(before).map((request) => [request.url.replace(/^http:\/\/[^/]+/, ''), request.status]),
      [1, 2, 3].map((size) => [`/api/configurazioni?dimensionePagina=${size}`, 200]),
      'in file order, once each, the request without assertions not sent',
    );
    // What the user sees: the view's summary of the run, and each test's state in the tree.
    await viewSays(/^1\/3$/m);
    const failed = report.results.find((result) => result.label === 'failsOnPurpose')!;
    assert.deepEqual(failed.messages.map((message) => [message.line, message.message, message.diff]), [[8, 'status: expected 201, found 200', false]]);
    const body = report.results.find((result) => result.label === 'line 12')!;
    assert.deepEqual(body.messages.map((message) => [message.line, message.diff]), [[13, true]], 'a body comparison is a diff');

    // Opened, the file shows the failure at the assertion's line, and a run button in the gutter per test.
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(path.join(folder, 'tv-checks.http')), { preview: false });
    editor.revealRange(new vscode.Range(0, 0, 0, 0), vscode.TextEditorRevealType.AtTop);
    // Test: Peek Output, as from the palette: the peek opens at the failed assertion's line.
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    await driver.waitFor('.editor-group-container.active .monaco-editor.focused', { timeoutMs: 10_000 });
    await vscode.commands.executeCommand('testing.openOutputPeek');
    await driver.waitFor('.monaco-editor .peekview-widget:has-text("status: expected 201, found 200")', { timeoutMs: 15_000 });
    await waitFor(() => vscode.window.activeTextEditor?.selection.active.line === 8 || undefined, { what: 'the cursor at the failed assertion (line 9)' });
    await driver.screenshot('testing-failure-at-line');
    await driver.press('Escape');
    const glyphs = '.monaco-editor .glyph-margin-widgets .testing-run-glyph';
    assert.equal(await driver.count(glyphs), 3, 'a run button in the gutter per test, none for the request without assertions');

    // The gutter's button of one request runs that request alone.
    const again = sandbox.requests.length;
    const single = (await testing()).lastRun();
    await driver.click(`${glyphs} >> nth=0`, { timeoutMs: 10_000 });
    const one = await nextRun(single);
    assert.deepEqual(kinds(one), { conf: 'passed' });
    assert.deepEqual(apiCalls(again).map((request) => request.path), ['/api/configurazioni']);
  });

  it('the tree follows the file; a request that gets no answer is errored with what to do, and the notification offers the fix', async () => {
    const file = writeFile('tv-follows.http', '# @name first\nGET /api/configurazioni?dimensionePagina=1\n?? status == 200\n');
    await openTestingView();
    await driver.click(row('tv-follows.http'), { timeoutMs: 30_000 });
    await driver.press('ArrowRight');
    await driver.waitFor(row('first'), { timeoutMs: 10_000 });
    // A request with an assertion added on disk: a new child; one without: none.
    fs.appendFileSync(file, '\n###\n# @name second\nGET /api/configurazioni?dimensionePagina=2\n?? status == 200\n\n###\n# @name plain\nGET /api/configurazioni\n');
    await driver.waitFor(row('second'), { timeoutMs: 15_000 });
    assert.equal(await driver.count(row('plain')), 0, 'a request without assertions is no test');

    const keys = (await extensionExports()).licenceKeys!;
    await keys.clear('core');
    try {
      await vscode.commands.executeCommand('notifications.clearAll');
      const previous = (await testing()).lastRun();
      const before = sandbox.requests.length;
      await clickRun('tv-follows.http');
      const report = await nextRun(previous);
      assert.deepEqual(kinds(report), { first: 'errored', second: 'errored' });
      assert.match(report.results[0].messages[0].message, /No licence key is set for the module "core"\. Set one with "Tenant API: Set Licence Key"\./);
      assert.equal(report.results[0].messages[0].line, 1, 'at the request line');
      assert.equal(apiCalls(before).length, 0, 'nothing reached the server');
      const offer = await waitFor(async () => (await driver.notifications()).find((message) => /No licence key/.test(message)), { what: 'the notification with Set Licence Key' });
      assert.match(offer, /No licence key is set for the module "core"/);
      await driver.waitFor('.notification-toast .monaco-button:has-text("Set Licence Key")', { timeoutMs: 10_000 });
      await viewSays(/^0\/2$/m);
    } finally {
      await vscode.commands.executeCommand('notifications.clearAll');
      await setLicenceKeys(sandbox, 'org-rossi');
    }
  });

  it('30 requests with assertions, run with "Run Tests" on the selected item: all pass, the cost is said, 0 x 429 at the sandbox', async () => {
    writeFile('tv-thirty.http', Array.from({ length: 30 }, (_, index) => `GET /api/configurazioni?pagina=${index + 1}&dimensionePagina=1\n?? status == 200\n?? body $.pagina == ${index + 1}`).join('\n\n###\n'));
    await openTestingView();
    const previous = (await testing()).lastRun();
    const before = sandbox.requests.length;
    await driver.click(row('tv-thirty.http'), { button: 'right', timeoutMs: 30_000 });
    const started = Date.now();
    await driver.click('.monaco-menu .action-item:has(.action-label:text-is("Run Test"))', { timeoutMs: 10_000 });
    const report = await nextRun(previous, 90_000);
    const calls = apiCalls(before);
    console.log(`      30 tests: ${calls.length} calls in ${Date.now() - started} ms; ${report.name}`);
    assert.equal(report.results.length, 30);
    assert.deepEqual([...new Set(report.results.map((result) => result.kind))], ['passed']);
    assert.equal(calls.length, 30);
    assert.equal(calls.filter((request) => request.status === 429).length, 0, '0 x 429');
    assert.match(report.cost ?? '', /^30 calls, about 5 s at the limit, [\d.]+ % of Rossi Costruzioni S\.r\.l\.'s remaining quota$/);
    await viewSays(/^30\/30$/m);
  });

  it('Cancel in the middle: the call in flight is aborted, it and the rest are skipped, nothing unanswered passes', async () => {
    writeFile('tv-cancel.http', Array.from({ length: 40 }, (_, index) => `# @name c${index + 1}\nGET /api/configurazioni?pagina=${index + 1}&dimensionePagina=2\n?? status == 200`).join('\n\n###\n'));
    await openTestingView();
    const previous = (await testing()).lastRun();
    const before = sandbox.requests.length;
    await clickRun('tv-cancel.http');
    await waitFor(() => apiCalls(before).length >= 8 || undefined, { timeoutMs: 30_000, what: 'a few answers' });
    // Cancel: the Testing view's title shows the button while the run goes.
    await driver.click('.part.sidebar .action-label[aria-label*="Cancel Test Run"]', { timeoutMs: 5_000 });
    const report = await nextRun(previous);
    const answered = new Set(apiCalls(before).filter((request) => request.status === 200).map((request) => new URL(request.url).searchParams.get('pagina')));
    const passed = report.results.filter((result) => result.kind === 'passed');
    const skipped = report.results.filter((result) => result.kind === 'skipped');
    console.log(`      cancelled after ${answered.size} answers: ${passed.length} passed, ${skipped.length} skipped`);
    assert.equal(report.results.length, 40);
    // How far the run got depends on how fast the click landed: what counts is where it stopped.
    assert.ok(skipped.length > 0, `Cancel came after the last request: ${JSON.stringify(kinds(report))}`);
    assert.deepEqual(
      report.results.map((result) => result.kind),
      [...Array<string>(passed.length).fill('passed'), ...Array<string>(40 - passed.length).fill('skipped')],
      'the requests before the Cancel passed, the one in flight and the rest are skipped, none failed or errored',
    );
    for (const result of passed) assert.ok(answered.has(result.label.slice(1)), `${result.label} passed without an answer`);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.ok(apiCalls(before).length <= passed.length + 1, 'nothing more was sent after Cancel');
  });

  it('a run of more than a few calls says what it costs first, asks above the setting\'s share, and a declined run sends nothing', async () => {
    writeFile('tv-thirty.http', Array.from({ length: 30 }, (_, index) => `GET /api/configurazioni?pagina=${index + 1}&dimensionePagina=1\n?? status == 200`).join('\n\n###\n'));
    await configure({ 'quota.confirmRunPercent': 0.01 });
    try {
      await openTestingView();
      const previous = (await testing()).lastRun();
      const before = sandbox.requests.length;
      await driver.showDialogs(true);
      try {
        await clickRun('tv-thirty.http');
        const question = await driver.clickDialogButton('Cancel', { timeoutMs: 20_000 });
        assert.match(question, /^This test run makes 30 calls, about 5 s at the limit, [\d.]+ % of Rossi Costruzioni S\.r\.l\.'s remaining quota\. Run it\?\n/);
      } finally {
        await driver.showDialogs(false);
      }
      const report = await nextRun(previous);
      assert.equal(report.declined, true);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      assert.equal(apiCalls(before).length, 0, 'a declined run sends nothing');
    } finally {
      await configure({ 'quota.confirmRunPercent': undefined });
    }
  });

  it('a protected environment has its Run profile and asks once per run before its writes: declined sends nothing, confirmed sends every write', async () => {
    writeFile('tv-writes.http', ['POST /api/configurazioni', 'Content-Type: application/json', '', '{"a": 1}', '?? status >= 200', '', '###', 'POST /api/configurazioni', 'Content-Type: application/json', '', '{"a": 2}', '?? status >= 200'].join('\n'));
    await configure({ environments: [{ name: 'Prod', protected: true }] });
    try {
      // Prod's own sign-in and keys, then back in Default.
      assert.equal(await vscode.commands.executeCommand('tenantApi.switchEnvironment', { name: 'Prod' }), 'Prod');
      await signInAs(sandbox, 'mario.rossi');
      await setLicenceKeys(sandbox, 'org-rossi');
      assert.equal(await vscode.commands.executeCommand('tenantApi.switchEnvironment', { name: 'Default' }), 'Default');
      await openTestingView();
      const question = '.quick-input-widget .quick-input-title:has-text("Send POST to the protected environment \\"Prod\\"?")';
      let previous = (await testing()).lastRun();
      const before = sandbox.requests.length;
      // Execute Using Profile...: a profile per environment, the protected one named so.
      await executeUsingProfile('tv-writes.http');
      await driver.waitFor('.quick-input-list .monaco-list-row:has-text("Run in Default")', { timeoutMs: 10_000 });
      await driver.click('.quick-input-list .monaco-list-row:has-text("Run in Prod (protected)")', { timeoutMs: 10_000 });
      await driver.waitFor(question, { timeoutMs: 20_000 });
      assert.equal((await extensionExports() as { environments: { active(): { name: string } } }).environments.active().name, 'Prod', 'the profile\'s environment is made active');
      assert.match(await driver.text('.quick-input-widget .quick-input-message'), /2 calls that are not a GET/);
      await driver.press('Escape');
      const declined = await nextRun(previous);
      assert.equal(declined.declined, true);
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(apiCalls(before).length, 0, 'declined: nothing sent');

      previous = declined;
      await clickRun('tv-writes.http');
      await driver.waitFor(question, { timeoutMs: 20_000 });
      await driver.type('Prod');
      await driver.press('Enter');
      const confirmed = await nextRun(previous);
      assert.deepEqual(apiCalls(before).map((request) => request.method), ['POST', 'POST'], 'asked once, both sent');
      assert.deepEqual(confirmed.results.map((result) => result.kind), ['passed', 'passed']);
    } finally {
      await vscode.commands.executeCommand('tenantApi.switchEnvironment', { name: 'Default' });
      await configure({ environments: undefined });
    }
  });
});
