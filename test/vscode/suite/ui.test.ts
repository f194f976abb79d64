// Through the real browser page (code-server runner only): click through the sidebar, a tenant and a
// resource like a user, and save the README's screenshots (into media/ with --update-screenshots).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Sandbox } from '../../sandbox';
import { driver } from './helpers/driver';
import {
  loadedTree,
  resetSettings,
  setLicenceKeys,
  signInAs,
  signOutEveryone,
  startWorkbenchSandbox,
  waitFor,
  workbenchApi,
} from './helpers/workbench';

const SIDEBAR = '[id="workbench.parts.sidebar"]';
const EDITOR = '[id="workbench.parts.editor"]';
const STATUS_BAR = '[id="workbench.parts.statusbar"] .right-items';
const QUOTA_ITEM = '[id="tenant-api.tenant-api-workbench.tenantApi.quota"]';

describe('workbench UI in the browser', function () {
  this.timeout(180_000);
  let sandbox: Sandbox;

  before(async function () {
    if (!driver.available()) return this.skip(); // test:electron has no browser to drive
    await signOutEveryone();
    sandbox = await startWorkbenchSandbox({ weeklyLimit: 10_000 });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.action.closePanel');
  });

  after(async () => {
    if (!sandbox) return;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await signOutEveryone();
    await resetSettings();
    await sandbox.close();
  });

  it('clicks through the sidebar, a tenant and a resource, and saves the screenshots', async () => {
    const api = await workbenchApi();
    // The activity-bar icon opens the container.
    await driver.click('.activitybar a[aria-label^="Tenant API"]', { timeoutMs: 15_000 });
    await driver.waitFor({ text: 'Sign in to browse your tenants and call the API.', exact: false }, { timeoutMs: 15_000 });

    await signInAs(sandbox, 'mario.rossi');
    await setLicenceKeys(sandbox, 'org-rossi');
    await loadedTree(api);
    const milano = sandbox.tenants.find((tenant) => tenant.codiceAmbienteDati === 'RC-MI')!;

    // Expand Milano by clicking its row, then open its Ditte resource by clicking it.
    const row = (label: string) => `${SIDEBAR} .monaco-list-row[aria-label^="${label}"]`;
    await driver.click(row(milano.descrizioneAmbienteDati), { timeoutMs: 15_000 });
    await driver.waitFor(`${row(milano.descrizioneAmbienteDati)}[aria-expanded="true"]`, { timeoutMs: 10_000 });
    await driver.click(row('Ditte'), { timeoutMs: 10_000 });

    const editor = await waitFor(
      () => vscode.window.visibleTextEditors.find((candidate) => candidate.document.uri.scheme === 'tenant-api-response'),
      { timeoutMs: 30_000, what: 'the response tab opened by the click' },
    );
    assert.match(editor.document.getText(), /^\/\/ GET http:\/\/127\.0\.0\.1:\d+\/efat\/api\/v1\/ditte/);
    await driver.waitFor(`${EDITOR} .view-lines:has-text("Service-Limit-Info")`, { timeoutMs: 15_000 });
    await driver.waitFor(`${QUOTA_ITEM}:has-text("/10,000"), ${QUOTA_ITEM}:has-text("/10.000")`, { timeoutMs: 15_000 });

    // The tenant's inline action (shown on its focused row) makes it the active tenant: clicking the
    // row focuses it (and collapses it), the action is clicked, and a last click expands it again.
    await driver.click(row(milano.descrizioneAmbienteDati));
    await driver.click(`${row(milano.descrizioneAmbienteDati)} .action-label[aria-label^="Set as Active Tenant"]`, { timeoutMs: 10_000 });
    await waitFor(() => api.activeTenantId() === milano.id || undefined, { what: 'Milano to become the active tenant' });
    await driver.waitFor(`${row(milano.descrizioneAmbienteDati)}[aria-expanded="false"]`, { timeoutMs: 10_000 });
    await driver.click(row(milano.descrizioneAmbienteDati));
    await driver.waitFor(`${row(milano.descrizioneAmbienteDati)}[aria-expanded="true"]`, { timeoutMs: 10_000 });
    // A wider sidebar, so that the tenants' names fit in the picture.
    await driver.click('[id="workbench.parts.sidebar"] .composite.title');
    await driver.click(`${EDITOR} .view-lines`);
    for (let step = 0; step < 4; step++) await vscode.commands.executeCommand('workbench.action.decreaseViewWidth');
    await driver.click('[id="workbench.parts.sidebar"] .composite.title');
    await new Promise((resolve) => setTimeout(resolve, 500));
    // The README's pictures change only when asked for (npm run screenshots), so a test run leaves the tree clean.
    const folder = process.env.TENANT_API_TEST_UPDATE_SCREENSHOTS === '1' ? 'media' : 'test/vscode/screenshots';
    const sidebarShot = await driver.screenshot(`${folder}/screenshot-sidebar.png`, { selector: SIDEBAR });
    const responseShot = await driver.screenshot(`${folder}/screenshot-response.png`, { selector: EDITOR });
    const statusShot = await driver.screenshot(`${folder}/screenshot-statusbar.png`, { selector: STATUS_BAR });
    for (const file of [sidebarShot, responseShot, statusShot]) assert.ok(file.endsWith('.png') && file.includes(`${folder}/screenshot-`), file);
  });

  it('sends a request through the quick-input flow typed on the keyboard', async () => {
    const before = sandbox.requests.length;
    const input = '.quick-input-widget .quick-input-box input';
    const step = async (title: string, keys: string) => {
      try {
        await driver.waitFor(`.quick-input-widget .quick-input-title:has-text("${title}")`, { timeoutMs: 10_000 });
      } catch (error) {
        await driver.screenshot('quick-input-failure');
        throw new Error(`the step "${title}" did not show (screenshot test/vscode/screenshots/quick-input-failure.png): ${String(error)}`);
      }
      if (keys) await driver.type(keys);
      await driver.press('Enter');
    };
    const running = vscode.commands.executeCommand('tenantApi.sendRequest') as Thenable<{ status?: number } | undefined>;
    await driver.waitFor(input, { timeoutMs: 10_000 });
    // The path step suggests the known endpoints; typing filters them. Extra headers are asked only
    // when opened there (a click ticks the item and leaves the typed request in the box).
    await driver.waitFor('.quick-input-list .monaco-list-row:has-text("/api/configurazioni")', { timeoutMs: 10_000 });
    await driver.type('GET /api/configurazioni?pagina=1');
    // Only once the list shows the typed request do its rows stay put: a click sooner can land on a row
    // that the filtering moved under the pointer.
    await driver.waitFor('.quick-input-list .monaco-list-row:has-text("the request you typed")', { timeoutMs: 10_000 });
    await driver.click('.quick-input-list .monaco-list-row:has-text("Add extra headers")');
    await driver.waitFor('.quick-input-list .monaco-list-row:has-text("Add extra headers") .codicon-check', { timeoutMs: 10_000 });
    await step('Send Request: path', '');
    await step('Send Request: extra headers', 'X-Trace: typed');
    const summary = await running;
    assert.equal(summary?.status, 200);
    const received = sandbox.requests.slice(before).find((request) => request.path === '/api/configurazioni');
    assert.ok(received, 'the request reached the sandbox');
    assert.equal(received.headers['x-trace'], 'typed');
    assert.match(received.url, /pagina=1/);
  });

  it('asks for the tenant when the path is served by a tenant\'s cluster', async () => {
    const torino = sandbox.tenants.find((tenant) => tenant.codiceAmbienteDati === 'RC-TO')!;
    const before = sandbox.requests.length;
    const title = (text: string) => driver.waitFor(`.quick-input-widget .quick-input-title:has-text("${text}")`, { timeoutMs: 10_000 });
    const running = vscode.commands.executeCommand('tenantApi.sendRequest') as Thenable<{ status?: number } | undefined>;
    await title('Send Request: path');
    await driver.type('/efat/api/v1/ditte?dimensionePagina=2');
    await driver.press('Enter');
    await title('Send Request: tenant');
    await driver.waitFor(`.quick-input-list .monaco-list-row:has-text("${torino.descrizioneAmbienteDati}")`, { timeoutMs: 15_000 });
    await driver.type('Torino');
    await driver.press('Enter');
    const summary = await running;
    assert.equal(summary?.status, 200);
    const received = sandbox.requests.slice(before).find((request) => request.path === '/efat/api/v1/ditte');
    assert.ok(received, 'the request reached the sandbox');
    assert.equal(received.headers['user-tenant'], torino.id);
    assert.match(received.url, /dimensionePagina=2/);
  });

  it('takes a POST body written in an editor opened from the body step', async () => {
    const before = sandbox.requests.length;
    const title = (text: string) => driver.waitFor(`.quick-input-widget .quick-input-title:has-text("${text}")`, { timeoutMs: 10_000 });
    const running = vscode.commands.executeCommand('tenantApi.sendRequest') as Thenable<{ status?: number; error?: unknown } | undefined>;
    await title('Send Request: path');
    await driver.type('POST /api/configurazioni');
    await driver.waitFor('.quick-input-list .monaco-list-row:has-text("the request you typed")', { timeoutMs: 10_000 });
    await driver.click('.quick-input-list .monaco-list-row:has-text("Add a JSON body")');
    await driver.waitFor('.quick-input-list .monaco-list-row:has-text("Add a JSON body") .codicon-check', { timeoutMs: 10_000 });
    await driver.press('Enter');
    await title('Send Request: body');
    await driver.click('.quick-input-widget .quick-input-titlebar .action-label[aria-label="Write the body in an editor"]');
    const editor = await waitFor(
      () => vscode.window.visibleTextEditors.find((candidate) => candidate.document.isUntitled && candidate.document.languageId === 'json'),
      { what: 'the body editor' },
    );
    await editor.edit((edit) => edit.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), '{\n  "descrizione": "Nuova"\n}\n'));
    await driver.click('.quick-input-widget .quick-input-box input');
    await driver.press('Enter');
    const summary = await running;
    // The sandbox serves /api/configurazioni for GET only: it reads the body, then answers 405.
    assert.equal(summary?.status, 405, JSON.stringify(summary));
    const received = sandbox.requests.slice(before).find((request) => request.path === '/api/configurazioni');
    assert.ok(received, 'the request reached the sandbox');
    assert.equal(received.method, 'POST');
    assert.match(received.headers['content-type'] ?? '', /application\/json/);
    // What was typed in the editor is what the server received.
    assert.ok(received.body, 'the sandbox received no body');
    assert.deepEqual(JSON.parse(received.body), { descrizione: 'Nuova' }, `the body received: ${received.body}`);
    await waitFor(() => editor.document.isClosed || undefined, { what: 'the body editor to close without a save prompt' });
  });
});
