// Watching a resource and the cache of static resources, against the sandbox, driven as a user:
// the Tenants view's rows and context menu, the response tab's title bar and CodeLens, a request file's
// CodeLens, the status bar item and its list. The sandbox's per-tenant summary (/efat/api/v1/riepilogo)
// changes when the test says so (updateSummary) and counts the calls that reach it (callsTo).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Sandbox } from '../../sandbox';
import { driver } from './helpers/driver';
import { clickLens, clickLensIn } from './helpers/requestFileEditor';
import { configure, endWorkbenchSuite, extensionExports, setLicenceKeys, signInAs, signOutEveryone, startSignedInAsMario, waitFor } from './helpers/workbench';

const SUMMARY = '/efat/api/v1/riepilogo';
const SIDEBAR = '[id="workbench.parts.sidebar"]';
const WATCH_ITEM = '[id="tenant-api.tenant-api-workbench.tenantApi.watches"]';
/** The watch's minute under the test's time scale (setTimeScale(0.01)): 600 ms. */
const SCALE = 0.01;
const SCALED_MINUTE_MS = 60_000 * SCALE;

interface WatchInfo {
  id: number;
  label: string;
  description: { method: string; path: string; tenant?: string; environment: string };
  intervalSeconds: number;
  pinned: boolean;
  calls: number;
  paused: boolean;
  document?: string;
}

interface WatchHooks {
  list(): WatchInfo[];
  pinned(): unknown[];
  statusBar(): { visible: boolean; text: string; tooltip: string };
  setTimeScale(scale: number): void;
  clearPins(): Promise<void>;
}

function tabLabelled(prefix: string): vscode.Tab | undefined {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((tab) => tab.label.startsWith(prefix));
}

function textOfTab(tab: vscode.Tab): string | undefined {
  const uri = (tab.input as vscode.TabInputText).uri.toString();
  return vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri)?.getText();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('watch and cache', function () {
  this.timeout(180_000);
  let sandbox: Sandbox;
  let watches: WatchHooks;
  let folder: string;
  const tenant = (code: string) => sandbox.tenants.find((candidate) => candidate.codiceAmbienteDati === code)!;
  /** The calls that reached the summary of one tenant, in order. */
  const summaryCalls = (code: string, since = 0) =>
    sandbox.requests.slice(since).filter((request) => request.path === SUMMARY && request.headers['user-tenant'] === tenant(code).id);

  /** Shows only this tenant's resources in the Tenants view (Mario's other tenants collapsed), clicking rows as a user would. */
  async function expandOnly(code: string): Promise<void> {
    await vscode.commands.executeCommand('tenantApi.tenants.focus');
    const mario = sandbox.users.find((user) => user.username === 'mario.rossi')!;
    for (const other of sandbox.tenants.filter((candidate) => mario.tenantIds.includes(candidate.id))) {
      const row = `${SIDEBAR} .monaco-list-row[aria-label^="${other.descrizioneAmbienteDati}"]`;
      await driver.waitFor(row, { timeoutMs: 15_000 });
      const wanted = other.codiceAmbienteDati === code ? 'true' : 'false';
      if ((await driver.count(`${row}[aria-expanded="${wanted}"]`)) === 0) await driver.click(row);
      await driver.waitFor(`${row}[aria-expanded="${wanted}"]`, { timeoutMs: 10_000 });
    }
    await driver.waitFor(`${SIDEBAR} .monaco-list-row:has-text("Riepilogo")`, { timeoutMs: 15_000 });
  }

  before(async function () {
    if (!driver.available()) this.skip();
    sandbox = await startSignedInAsMario();
    // The summary as the settings `npm start` prints declare it: a static resource kept 5 minutes, listed under each tenant.
    await configure({
      routes: [{ prefix: SUMMARY, host: 'cluster', module: 'efat', cacheSeconds: 300 }],
      endpoints: [{ label: 'Riepilogo', path: SUMMARY }],
    });
    watches = ((await extensionExports()) as unknown as { watches: WatchHooks }).watches;
    assert.ok(watches, 'activate() exports the watches in a test run');
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'watch-'));
  });

  afterEach(async () => {
    for (const watch of watches?.list() ?? []) await vscode.commands.executeCommand('tenantApi.stopWatch', watch.id);
    watches?.setTimeScale(1);
    await configure({ 'watch.intervalSeconds': undefined });
    sandbox?.clearFaults();
  });

  after(async () => {
    await watches?.clearPins();
    await configure({ routes: undefined, endpoints: undefined });
    await endWorkbenchSuite(sandbox);
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('a static resource opened twice from the Tenants view reaches the sandbox once; the tab says its age; Refresh sends it', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await expandOnly('RC-MI');
    const riepilogo = `${SIDEBAR} .monaco-list-row:has-text("Riepilogo")`;
    await driver.click(riepilogo);
    const first = await waitFor(() => tabLabelled('GET riepilogo · RC-MI · 200'), { timeoutMs: 30_000, what: 'the summary tab' });
    assert.equal(summaryCalls('RC-MI').length, 1);
    assert.doesNotMatch(textOfTab(first) ?? '', /cached/);

    // Closed and opened again, from the tree and from Send Request: the kept answer, nothing sent.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await driver.click(riepilogo);
    const again = await waitFor(() => tabLabelled('GET riepilogo · RC-MI · 200'), { timeoutMs: 30_000, what: 'the summary tab again' });
    const text = await waitFor(() => textOfTab(again), { what: 'the tab text' });
    assert.equal(summaryCalls('RC-MI').length, 1, 'opened twice, sent once');
    assert.match(text, /^\/\/ cached (just now|\d+ s ago): a static resource's kept answer, nothing was sent \(Refresh sends it\)$/m);
    await vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'GET', path: SUMMARY, tenantId: tenant('RC-MI').id });
    assert.equal(summaryCalls('RC-MI').length, 1, 'opened three times, sent once');

    // The tab's Refresh lens sends it for real.
    const tabDocument = await vscode.workspace.openTextDocument((again.input as vscode.TabInputText).uri);
    await clickLensIn(tabDocument, '.codelens-decoration a:has-text("Refresh (send now)")', 0, again.group.viewColumn);
    await waitFor(() => summaryCalls('RC-MI').length === 2 || undefined, { what: 'Refresh to send' });
    const refreshed = await waitFor(() => {
      const current = tabLabelled('GET riepilogo · RC-MI · 200');
      const shown = current && textOfTab(current);
      return shown && !/^\/\/ cached/m.test(shown) ? shown : undefined;
    }, { what: 'the refreshed tab without the cached line' });
    assert.match(refreshed, /"revisione": 1/);
    // Another tenant is another key: it is sent.
    await vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'GET', path: SUMMARY, tenantId: tenant('RC-TO').id });
    assert.equal(summaryCalls('RC-TO').length, 1);

    // A sign-out empties the cache: signed in again, the summary is sent.
    await signOutEveryone();
    await signInAs(sandbox, 'mario.rossi');
    await setLicenceKeys(sandbox, 'org-rossi');
    await vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'GET', path: SUMMARY, tenantId: tenant('RC-MI').id });
    assert.equal(summaryCalls('RC-MI').length, 3, 'sent again after a sign-out');
  });

  it('switching environment from the status bar pauses every watch and starts with an empty cache', async () => {
    watches.setTimeScale(SCALE);
    await configure({ environments: [{ name: 'Beta' }] });
    try {
      await vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'GET', path: SUMMARY, tenantId: tenant('BA-PR').id });
      const before = summaryCalls('BA-PR').length;
      await vscode.commands.executeCommand('tenantApi.watch', { path: SUMMARY, tenant: 'BA-PR' });
      assert.equal(watches.list().length, 1);
      await vscode.commands.executeCommand('notifications.clearAll');
      const item = '[id="tenant-api.tenant-api-workbench.tenantApi.environment"]';
      await driver.click(item, { timeoutMs: 10_000 });
      await driver.click('.quick-input-widget .monaco-list-row:has-text("Beta")', { timeoutMs: 10_000 });
      await waitFor(() => (watches.list().length === 1 && watches.list().every((watch) => watch.paused)) || undefined, { what: 'the switch to pause the watch' });
      await waitFor(async () => (await driver.notifications()).find((message) => /^Paused watching GET riepilogo · BA-PR: "Beta" is active now\./.test(message)), {
        what: 'the switch notification',
      });
      // Stopped while paused (resuming is dailyUse.test.ts's): what reaches the sandbox after the switch back is Send Request's alone.
      for (const watch of watches.list()) await vscode.commands.executeCommand('tenantApi.stopWatch', watch.id);
      assert.equal(watches.list().length, 0);
      assert.equal(await vscode.commands.executeCommand('tenantApi.switchEnvironment', { name: 'Default' }), 'Default');
      const sent = summaryCalls('BA-PR').length;
      assert.ok(sent > before, 'the watch\'s first look went at once');
      await waitFor(async () => {
        await vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'GET', path: SUMMARY, tenantId: tenant('BA-PR').id, preview: false });
        return summaryCalls('BA-PR').length > sent || undefined;
      }, { timeoutMs: 30_000, what: 'the summary sent again after the switch (an empty cache)' });
    } finally {
      await vscode.commands.executeCommand('tenantApi.switchEnvironment', { name: 'Default' });
      await configure({ environments: undefined });
    }
  });

  it('Watch from the Tenants view: the tab shows what changed, never more than one call per (scaled) minute, even with a 1 s setting; stopped from the status bar', async () => {
    watches.setTimeScale(SCALE);
    // A bad value: the watch still keeps to a minute (here 600 ms, the test's scaled minute).
    await configure({ 'watch.intervalSeconds': 1 });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const since = sandbox.requests.length;
    await expandOnly('RC-TO');
    await driver.click(`${SIDEBAR} .monaco-list-row:has-text("Riepilogo")`, { button: 'right', timeoutMs: 15_000 });
    await driver.click('.monaco-menu .action-item:has-text("Watch")', { timeoutMs: 10_000 });
    const watch = await waitFor(() => watches.list()[0], { what: 'the watch to start' });
    assert.equal(watch.intervalSeconds, 60, 'the 1 s setting is taken as 60 s');
    assert.deepEqual({ path: watch.description.path, tenant: watch.description.tenant }, { path: SUMMARY, tenant: 'RC-TO' });
    await driver.waitFor(`${WATCH_ITEM}:has-text("1 watch · 60 calls/h")`, { timeoutMs: 10_000 });

    // The first answer opens the tab; then the sandbox's summary changes and the next answer shows the diff.
    const tab = await waitFor(() => tabLabelled('GET riepilogo · RC-TO · 200'), { timeoutMs: 30_000, what: 'the watched tab' });
    await waitFor(() => /First answer of the watch/.test(textOfTab(tab) ?? '') || undefined, { what: 'the first answer' });
    sandbox.updateSummary(tenant('RC-TO').id);
    const changed = await waitFor(
      () => {
        const current = tabLabelled('GET riepilogo · RC-TO · 200');
        const text = current && textOfTab(current);
        return text && /last changed at/.test(text) ? text : undefined;
      },
      { timeoutMs: 30_000, what: 'the diff in the watched tab' },
    );
    assert.match(changed, /^\/\/ last changed at \d\d:\d\d:\d\d( [AP]M)? \(\+\d+ −\d+ lines\); what changed:$/m);
    assert.match(changed, /^\/\/ {3}- {3}"revisione": 1,$/m);
    assert.match(changed, /^\/\/ {3}\+ {3}"revisione": 2,$/m);
    await waitFor(() => summaryCalls('RC-TO', since).length >= 4 || undefined, { timeoutMs: 30_000, what: 'four calls of the watch' });

    // The sandbox saw the watched resource at most once a (scaled) minute.
    const times = summaryCalls('RC-TO', since).map((request) => request.at);
    const gaps = times.slice(1).map((at, index) => at - times[index]);
    assert.ok(gaps.every((gap) => gap >= SCALED_MINUTE_MS), `gaps between calls ${JSON.stringify(gaps)} ms, at least ${SCALED_MINUTE_MS}`);
    assert.ok(summaryCalls('RC-TO', since).every((request) => request.status === 200));

    // Stop from the status bar item's list.
    await driver.click(WATCH_ITEM);
    await driver.click(`.quick-input-widget .monaco-list-row:has-text("riepilogo")`, { timeoutMs: 10_000 });
    await driver.click('.quick-input-widget .monaco-list-row:has-text("Stop Watch")', { timeoutMs: 10_000 });
    await waitFor(() => watches.list().length === 0 || undefined, { what: 'the watch to stop' });
    await driver.waitFor(WATCH_ITEM, { state: 'hidden', timeoutMs: 10_000 });
    const stoppedAt = summaryCalls('RC-TO', since).length;
    await sleep(3 * SCALED_MINUTE_MS);
    assert.equal(summaryCalls('RC-TO', since).length, stoppedAt, 'a stopped watch sends nothing');
  });

  it('Watch from a response tab\'s title bar and a request file\'s CodeLens; an error answer stops one with the reason, a sign-out the other; a pin keeps only the description and starts the watch again once signed in', async () => {
    watches.setTimeScale(SCALE);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'GET', path: '/efat/api/v1/ditte', tenantId: tenant('RC-MI').id, query: { dimensionePagina: 1 } });
    await driver.click('.editor-group-container.active .editor-actions .action-label.codicon-eye', { timeoutMs: 10_000 });
    const ditte = await waitFor(() => watches.list().find((watch) => watch.description.path.startsWith('/efat/api/v1/ditte')), { what: 'the ditte watch' });
    assert.equal(ditte.description.path, '/efat/api/v1/ditte?dimensionePagina=1');

    const file = path.join(folder, 'summary.http');
    fs.writeFileSync(file, ['# @name summary', '# @tenant BA-PR', `GET ${SUMMARY}`, ''].join('\n'));
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file), { viewColumn: vscode.ViewColumn.One });
    await clickLens(editor, 2, 'Send summary again every minute or more (tenantApi.watch.intervalSeconds) and show what changed');
    const summary = await waitFor(() => watches.list().find((watch) => watch.description.path === SUMMARY), { what: 'the request file\'s watch' });
    assert.equal(summary.description.tenant, 'BA-PR');
    await driver.waitFor(`${WATCH_ITEM}:has-text("2 watches · 120 calls/h")`, { timeoutMs: 10_000 });

    // Pin Watch, from the status bar's list: workspaceState keeps method, path, tenant and environment only.
    await driver.click(WATCH_ITEM);
    await driver.click('.quick-input-widget .monaco-list-row:has-text("riepilogo")', { timeoutMs: 10_000 });
    await driver.click('.quick-input-widget .monaco-list-row:has-text("Pin Watch")', { timeoutMs: 10_000 });
    await waitFor(() => watches.pinned().length === 1 || undefined, { what: 'the pin' });
    const [pinned] = watches.pinned() as Array<Record<string, unknown>>;
    assert.deepEqual(Object.keys(pinned).sort(), ['environment', 'method', 'path', 'tenant']);
    assert.deepEqual({ method: pinned.method, path: pinned.path, tenant: pinned.tenant }, { method: 'GET', path: SUMMARY, tenant: 'BA-PR' });

    // The server answers the ditte watch with an error: that watch stops and says why.
    sandbox.injectFault({ kind: 'status', status: 503, pathPrefix: '/efat/api/v1/ditte', count: 10 });
    await waitFor(() => !watches.list().some((watch) => watch.id === ditte.id) || undefined, { timeoutMs: 30_000, what: 'the error answer to stop the ditte watch' });
    await waitFor(async () => (await driver.notifications()).find((message) => /^Stopped watching GET ditte.*: the answer was an error/.test(message)), {
      what: 'the notification saying why',
    });
    assert.equal(watches.list().length, 1, 'the other watch goes on');

    // Signing out stops the rest.
    await signOutEveryone();
    await waitFor(() => watches.list().length === 0 || undefined, { timeoutMs: 30_000, what: 'sign-out to stop the watch' });
    await waitFor(async () => (await driver.notifications()).find((message) => /^Stopped watching GET riepilogo.*: you signed out\.$/.test(message)), {
      what: 'the sign-out notification',
    });
    assert.equal(watches.pinned().length, 1, 'a sign-out keeps the pin: the watch comes back after a reload, signed in');

    // Signed in again (as after a reload), the pinned watch starts again; the unpinned one does not.
    await signInAs(sandbox, 'mario.rossi');
    const restored = await waitFor(() => watches.list()[0], { timeoutMs: 30_000, what: 'the pinned watch to start again' });
    assert.deepEqual({ path: restored.description.path, tenant: restored.description.tenant, pinned: restored.pinned }, { path: SUMMARY, tenant: 'BA-PR', pinned: true });
    assert.equal(watches.list().length, 1);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
