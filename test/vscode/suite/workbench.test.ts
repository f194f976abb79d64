// The workbench inside a real VS Code, against the sandbox: the Tenants view, opening resources,
// scripted Send Request, the quota status bar, error states with their actions, history and cURL.
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { Sandbox } from '../../sandbox';
import { driver } from './helpers/driver';
import { waitForRowsHolding } from './helpers/quickInput';
import {
  configure,
  endWorkbenchSuite,
  extensionExports,
  formatCount,
  loadedTree,
  responseBody,
  setLicenceKeys,
  signInAs,
  signOutEveryone,
  startWorkbenchSandbox,
  type TreeItemSnapshot,
  waitFor,
  workbenchApi,
  type WorkbenchTestApi,
} from './helpers/workbench';

interface Summary {
  ok: boolean;
  status?: number;
  headers?: Record<string, string>;
  requestHeaders?: Record<string, string>;
  sizeBytes?: number;
  warnings: string[];
  error?: { kind: string; message: string };
  document?: string;
  formatMs?: number;
  openMs?: number;
  usage?: { organization: string; used: number; limit: number };
}

const QUOTA_ITEM = '[id="tenant-api.tenant-api-workbench.tenantApi.quota"]';
const SIDEBAR = '[id="workbench.parts.sidebar"]';
/** Limits of the 10 MB response test: see the figures measured there. */
const MAX_HOST_LAG_MS = 5000;
const MAX_WINDOW_ANSWER_MS = 8000;

describe('workbench', function () {
  this.timeout(120_000);
  let sandbox: Sandbox;
  let api: WorkbenchTestApi;
  const mario = () => sandbox.users.find((user) => user.username === 'mario.rossi')!;
  const tenant = (code: string) => sandbox.tenants.find((candidate) => candidate.codiceAmbienteDati === code)!;

  before(async () => {
    api = await workbenchApi();
    await signOutEveryone();
    // A small weekly limit, so that a handful of calls is a visible share of it.
    sandbox = await startWorkbenchSandbox({ weeklyLimit: 200 });
  });

  after(async () => {
    await endWorkbenchSuite(sandbox);
  });

  it('shows the welcome view with Sign In while signed out, and hides the quota item', async () => {
    assert.deepEqual(await api.treeSnapshot(), []);
    assert.equal(api.statusBar().visible, false);
    if (!driver.available()) return;
    await vscode.commands.executeCommand('tenantApi.tenants.focus');
    await driver.waitFor({ text: 'Sign in to browse your tenants and call the API.', exact: false }, { timeoutMs: 15_000 });
    await driver.waitFor('.welcome-view-content a.monaco-button:has-text("Sign In")', { timeoutMs: 15_000 });
    assert.equal(await driver.count(QUOTA_ITEM), 0);
  });

  it('after sign-in lists the account, its tenants and their resources', async () => {
    await signInAs(sandbox, 'mario.rossi');
    await setLicenceKeys(sandbox, 'org-rossi');
    const roots = await loadedTree(api);
    const account = roots.find((root) => root.contextValue === 'account');
    assert.ok(account, JSON.stringify(roots));
    assert.equal(account.label, mario().name);
    const tenants = (account.children ?? []).filter((item) => item.contextValue !== 'keyGroup');
    const expected = mario().tenantIds.map((id) => sandbox.tenants.find((t) => t.id === id)!);
    assert.deepEqual(
      tenants.map((item) => item.label).sort(),
      expected.map((t) => t.descrizioneAmbienteDati).sort(),
    );
    for (const item of tenants) {
      const record = expected.find((t) => t.descrizioneAmbienteDati === item.label)!;
      assert.match(item.description ?? '', new RegExp(`^${record.codiceAmbienteDati}`));
      assert.match(item.contextValue, /^tenant/);
    }
    const first = await waitFor(
      async () => (await api.treeSnapshot(3))[0]?.children?.find((item) => item.children && item.children.length > 0),
      { what: 'a tenant with its resources' },
    );
    const resources = first.children ?? [];
    // Configurazioni is served by the base URL without a tenant: it is listed apart (see responses.test.ts).
    assert.deepEqual(resources.map((item) => item.label).sort(), ['Ditte']);
    for (const item of resources) {
      assert.equal(item.contextValue, 'resource');
      assert.equal(item.command, 'tenantApi.openResource');
    }
    assert.equal(api.statusBar().visible, true);
  });

  it('opens a resource and shows its JSON under the header block', async () => {
    const milano = tenant('RC-MI');
    const summary = (await vscode.commands.executeCommand('tenantApi.openResource', {
      tenantId: milano.id,
      method: 'GET',
      path: '/efat/api/v1/ditte',
    })) as Summary;
    assert.equal(summary.status, 200, JSON.stringify(summary.error));
    const editor = await waitFor(
      () => vscode.window.visibleTextEditors.find((candidate) => candidate.document.uri.toString() === summary.document),
      { what: 'the response tab' },
    );
    const document = editor.document;
    assert.equal(document.uri.scheme, 'tenant-api-response');
    assert.equal(document.languageId, 'jsonc');
    const text = document.getText();
    assert.match(text, /^\/\/ GET http:\/\/127\.0\.0\.1:\d+\/efat\/api\/v1\/ditte/);
    assert.match(text, /\n\/\/ 200 OK · \d+ ms · /);
    assert.match(text, /\n\/\/ Service-Limit-Info: api-usage=\d+\/\d+/);
    assert.match(text, /\n\/\/ {3}content-type: application\/json/);
    const body = responseBody(text) as Record<string, unknown>;
    assert.ok(body && typeof body === 'object', 'the body is JSON');
    // Pretty-printed: one property per line.
    assert.ok(text.split('\n').length > 20, 'the JSON is pretty-printed');
  });

  it('sends a scripted request with every header, and never lets an extra header replace one', async () => {
    const milano = tenant('RC-MI');
    const before = sandbox.requests.length;
    const summary = (await vscode.commands.executeCommand('tenantApi.sendRequest', {
      method: 'GET',
      path: '/efat/api/v1/ditte',
      tenantId: milano.id,
      query: { pagina: 2, dimensionePagina: 5 },
      headers: { 'X-Trace': 'wb-1', Authorization: 'Bearer forged', 'User-Tenant': 'someone-else' },
    })) as Summary;
    assert.equal(summary.status, 200, JSON.stringify(summary.error));
    assert.match(summary.headers?.['service-limit-info'] ?? '', /^api-usage=\d+\/\d+$/);
    assert.ok(summary.warnings.some((warning) => warning.includes('Authorization')), summary.warnings.join(' | '));
    const received = sandbox.requests.slice(before).filter((request) => request.path === '/efat/api/v1/ditte');
    assert.equal(received.length, 1);
    const headers = received[0].headers;
    const efatKey = sandbox.licenceKeys.find((key) => key.module === 'efat' && key.organizationId === 'org-rossi')!.key;
    assert.match(headers['authorization'], /^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    assert.notEqual(headers['authorization'], 'Bearer forged');
    assert.equal(headers['authorization-key'], efatKey);
    assert.equal(headers['user-tenant'], milano.id);
    assert.equal(headers['x-trace'], 'wb-1');
    assert.match(headers['accept'], /application\/json/);
    const cluster = sandbox.clusterUrls.findIndex((url) => milano.clusterAddress.startsWith(url));
    assert.equal(received[0].host, `cluster${cluster}`);
    assert.match(received[0].url, /pagina=2/);
    // What the summary says was sent is masked.
    assert.ok(!JSON.stringify(summary.requestHeaders ?? {}).includes(efatKey));
  });

  it('keeps no secret in the history and copies cURL with the token and key masked', async () => {
    const history = api.history();
    assert.ok(history.length >= 2);
    const stored = JSON.stringify(history);
    for (const key of sandbox.licenceKeys) assert.ok(!stored.includes(key.key), 'a licence key is in the history');
    assert.doesNotMatch(stored, /Bearer|authorization/i);
    const curl = (await vscode.commands.executeCommand('tenantApi.copyAsCurl', { includeSecrets: false })) as string;
    assert.match(curl, /^curl 'http:\/\/127\.0\.0\.1:\d+\/efat\/api\/v1\/ditte\?/);
    assert.match(curl, /\$TENANT_API_TOKEN/);
    assert.match(curl, /\$TENANT_API_KEY_EFAT"/, "the runner's variable of the module");
    assert.equal(await vscode.env.clipboard.readText(), curl);
  });

  it('includes the real token and key in cURL only when asked, reading them at that moment', async () => {
    const curl = (await vscode.commands.executeCommand('tenantApi.copyAsCurl', { includeSecrets: true })) as string;
    const efatKey = sandbox.licenceKeys.find((key) => key.module === 'efat' && key.organizationId === 'org-rossi')!.key;
    assert.match(curl, /-H 'authorization: Bearer [\w-]+\.[\w-]+\.[\w-]+'/i);
    assert.match(curl, new RegExp(`-H 'authorization-key: ${efatKey}'`, 'i'));
    assert.doesNotMatch(curl, /\$TENANT_API_/);
  });

  it('re-runs a request from history', async () => {
    const before = sandbox.requests.length;
    const summary = (await vscode.commands.executeCommand('tenantApi.rerunFromHistory', { index: 0 })) as Summary;
    assert.equal(summary.status, 200);
    assert.equal(sandbox.requests.length, before + 1);
  });

  it('opens every response in the same editor group', () => {
    const groups = new Set(
      vscode.window.tabGroups.all
        .filter((group) => group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === 'tenant-api-response'))
        .map((group) => group.viewColumn),
    );
    assert.equal(groups.size, 1, `responses are spread over ${groups.size} groups`);
  });

  it('shows an error answer of the server like any response, with its status and body', async () => {
    const summary = (await vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'GET', path: '/api/does-not-exist' })) as Summary;
    assert.equal(summary.ok, false);
    assert.equal(summary.status, 404);
    assert.equal(summary.error?.kind, 'http');
    assert.match(summary.headers?.['service-limit-info'] ?? '', /^api-usage=/);
    const document = await waitFor(
      () => vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === summary.document),
      { what: 'the error response tab' },
    );
    const text = document.getText();
    assert.match(text, /\n\/\/ 404 /);
    assert.equal((responseBody(text) as { error?: string }).error, 'not_found');
  });

  it('shows the usage of the active organization in the status bar, following the sandbox', async () => {
    const torino = tenant('RC-TO');
    await vscode.commands.executeCommand('tenantApi.setActiveTenant', torino.id);
    assert.equal(api.activeTenantId(), torino.id);
    for (let call = 0; call < 3; call++) {
      const summary = (await vscode.commands.executeCommand('tenantApi.sendRequest', {
        method: 'GET',
        path: '/efat/api/v1/ditte',
        query: { dimensionePagina: 1 },
        preview: false,
      })) as Summary;
      assert.equal(summary.status, 200, JSON.stringify(summary.error));
    }
    const usage = sandbox.usage('org-rossi');
    const expected = `$(pulse) ${formatCount(usage.used)}/${formatCount(usage.limit)}`;
    await waitFor(() => api.statusBar().text === expected || undefined, { what: `status bar text ${expected}, saw ${api.statusBar().text}` });
    assert.match(api.statusBar().tooltip, /Rossi/);
    assert.equal(api.statusBar().severity, 'normal');
    if (driver.available()) {
      const shown = await waitFor(
        async () => {
          const text = await driver.text(QUOTA_ITEM);
          return text.includes(formatCount(usage.used)) ? text : undefined;
        },
        { what: 'the quota item in the page' },
      );
      assert.match(shown, new RegExp(`${formatCount(usage.used)}/${formatCount(usage.limit)}`.replace(/\./g, '\\.')));
    }
  });

  it('lists the usage per organization (Show API Usage per Organization; the status bar item opens the usage panel)', async function () {
    if (!driver.available()) return this.skip();
    const usage = sandbox.usage('org-rossi');
    void vscode.commands.executeCommand('tenantApi.showQuota');
    const row = `.quick-input-list .monaco-list-row:has-text("${formatCount(usage.used)}/${formatCount(usage.limit)}")`;
    await driver.waitFor(row, { timeoutMs: 10_000 });
    assert.match(await driver.text(row), /Rossi/);
    await driver.press('Escape');
    // Move the mouse off the item, or its hover would cover the notifications of later tests.
    await driver.click('[id="workbench.parts.sidebar"] .composite.title');
  });

  it('switches the status bar background at the warning and error thresholds', async () => {
    const usage = sandbox.usage('org-rossi');
    const percent = (usage.used / usage.limit) * 100;
    assert.ok(percent >= 2, `usage ${usage.used}/${usage.limit} is too low for this test`);
    await configure({ 'quota.warningPercent': Math.floor(percent), 'quota.errorPercent': 100 });
    await waitFor(() => api.statusBar().severity === 'warning' || undefined, { what: `warning severity, saw ${JSON.stringify(api.statusBar())}` });
    if (driver.available()) await driver.waitFor(`${QUOTA_ITEM}.warning-kind`, { timeoutMs: 10_000 });
    await configure({ 'quota.errorPercent': Math.floor(percent) });
    await waitFor(() => api.statusBar().severity === 'error' || undefined, { what: 'error severity' });
    if (driver.available()) await driver.waitFor(`${QUOTA_ITEM}.error-kind`, { timeoutMs: 10_000 });
    await configure({ 'quota.warningPercent': undefined, 'quota.errorPercent': undefined });
    await waitFor(() => api.statusBar().severity === 'normal' || undefined, { what: 'normal severity with the default thresholds' });
  });

  it('forecasts the quota being spent: a run-out time in the tooltip and the usage list, a warning before the reset', async function () {
    if (!driver.available()) return this.skip();
    // The week resets six days from now (UTC): at the pace of these calls, 200 a week run out long before.
    const now = new Date();
    const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][(now.getUTCDay() + 6) % 7];
    const pad = (value: number) => String(value).padStart(2, '0');
    await configure({ 'quota.weekReset': `${day} ${pad(now.getUTCHours())}:${pad(now.getUTCMinutes())}` });
    for (let call = 0; call < 3; call++) {
      const summary = (await vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'GET', path: '/efat/api/v1/ditte', preview: false })) as Summary;
      assert.equal(summary.status, 200, JSON.stringify(summary.error));
    }
    const tooltip = await waitFor(() => (/runs out in/.test(api.statusBar().tooltip) ? api.statusBar().tooltip : undefined), {
      what: `a run-out time in the tooltip, saw ${api.statusBar().tooltip}`,
    });
    assert.match(tooltip, /\*\*Pace:\*\* [\d.,]+ calls an hour/);
    assert.match(tooltip, /\(from the setting tenantApi\.quota\.weekReset\)/);
    assert.equal(api.statusBar().severity, 'warning', 'a few percent used, but at this pace it runs out before the reset');
    await driver.waitFor(`${QUOTA_ITEM}.warning-kind`, { timeoutMs: 10_000 });
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    void vscode.commands.executeCommand('tenantApi.showQuota');
    const row = '.quick-input-list .monaco-list-row:has-text("runs out in")';
    await driver.waitFor(row, { timeoutMs: 10_000 });
    assert.match(await driver.text(row), /Rossi.*\/h, runs out in \d/s);
    await driver.press('Escape');
    await driver.click(`${SIDEBAR} .composite.title`);
    // A setting that is no day and time is named in the tooltip, and no reset is assumed from it.
    await configure({ 'quota.weekReset': 'Mon 25:00' });
    await waitFor(() => /"Mon 25:00" is not a day and time/.test(api.statusBar().tooltip) || undefined, { what: 'the unreadable setting named' });
    assert.equal(api.statusBar().severity, 'normal');
    await configure({ 'quota.weekReset': undefined });
  });

  it('shows a listing failure as an item with Retry, and recovers when retried', async () => {
    // The listing fails at the server (every attempt, retries included); nothing on the editor's side
    // changes afterwards, so only the Retry action can list the tenants again.
    sandbox.injectFault({ kind: 'status', status: 503, pathPrefix: '/v10/user-tenants', count: 100 });
    let error: TreeItemSnapshot | undefined;
    try {
      await vscode.commands.executeCommand('tenantApi.refreshTenants');
      const broken = await waitFor(
        async () => {
          const roots = await loadedTree(api, 2);
          return roots[0]?.children?.[0]?.icon === 'error' ? roots : undefined;
        },
        { timeoutMs: 30_000, what: 'the error item in the Tenants view' },
      );
      error = broken[0].children?.[0];
      assert.ok(error, JSON.stringify(broken));
      assert.equal(error.contextValue, 'message-action');
      assert.equal(error.command, 'tenantApi.refreshTenants');
    } finally {
      sandbox.clearFaults();
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal((await api.treeSnapshot(2))[0]?.children?.[0]?.icon, 'error', 'the error item stays until Retry is clicked');
    if (driver.available()) {
      // The user clicks the error item in the Tenants view: its Retry action runs.
      await vscode.commands.executeCommand('tenantApi.tenants.focus');
      await driver.click(`${SIDEBAR} .monaco-list-row[aria-label^="${error.label}"]`, { timeoutMs: 15_000 });
    } else {
      await vscode.commands.executeCommand(error.command!); // test:electron: no browser to click in
    }
    const fixed = await waitFor(
      async () => {
        const roots = await loadedTree(api, 2);
        const children = roots[0]?.children ?? [];
        // The tenants, and the group of resources that no tenant selects (listed once the tenants are).
        return children.some((child) => child.contextValue.startsWith('tenant')) &&
          children.every((child) => child.contextValue.startsWith('tenant') || child.contextValue === 'keyGroup')
          ? roots
          : undefined;
      },
      { what: 'the tenants listed again after Retry' },
    );
    assert.ok(fixed);
  });

  it('marks a resource whose licence key is missing, with Set Licence Key as its action', async () => {
    const exports = await extensionExports();
    assert.ok(exports.licenceKeys);
    await exports.licenceKeys.clear('efat');
    const milano = tenant('RC-MI');
    const summary = (await vscode.commands.executeCommand('tenantApi.openResource', {
      tenantId: milano.id,
      method: 'GET',
      path: '/efat/api/v1/ditte',
    })) as Summary;
    assert.equal(summary.error?.kind, 'licenceMissing');
    const ditte = await waitFor(
      async () => {
        const roots = await api.treeSnapshot(3);
        const tenantItem = roots[0]?.children?.find((item: TreeItemSnapshot) => item.label === milano.descrizioneAmbienteDati);
        const item = tenantItem?.children?.find((child) => child.label === 'Ditte');
        return item?.icon === 'warning' ? item : undefined;
      },
      { what: 'the Ditte resource to show the missing key' },
    );
    assert.match(ditte.description ?? '', /licence key/);
    if (driver.available()) {
      // The user clicks the marked resource: its action asks for the key (masked input box), the label
      // and whose licence it is (picked among names), stores it, and opens the resource again.
      const efat = sandbox.licenceKeys.find((key) => key.module === 'efat' && key.organizationId === 'org-rossi')!;
      const organization = sandbox.organizations.find((candidate) => candidate.id === 'org-rossi')!.name;
      await vscode.commands.executeCommand('tenantApi.tenants.focus');
      const milanoRow = `${SIDEBAR} .monaco-list-row[aria-label^="${milano.descrizioneAmbienteDati}"]`;
      await driver.waitFor(milanoRow, { timeoutMs: 15_000 });
      if ((await driver.count(`${milanoRow}[aria-expanded="false"]`)) > 0) await driver.click(milanoRow, { timeoutMs: 10_000 });
      await driver.waitFor(`${milanoRow}[aria-expanded="true"]`, { timeoutMs: 10_000 });
      // Move the mouse off the row, or its hover would cover the rows below it.
      await driver.click(`${SIDEBAR} .composite.title`);
      const before = sandbox.requests.length;
      await driver.click(`${SIDEBAR} .monaco-list-row:has-text("Ditte"):has-text("licence key")`, { timeoutMs: 15_000 });
      const step = async (title: string, keys: () => Promise<void>) => {
        await driver.waitFor(`.quick-input-widget .quick-input-title:has-text("${title}")`, { timeoutMs: 15_000 });
        await keys();
        await driver.press('Enter');
      };
      await step('Licence key for the module', () => driver.type(efat.key));
      await step('Label for this key', async () => undefined);
      // Whose licence: the tenant it covers, whose calls the core key's organization already counts.
      await step('Which of your tenants does this licence cover?', async () => {
        await driver.waitFor(`.quick-input-list .monaco-list-row:has-text("${milano.descrizioneAmbienteDati}")`, { timeoutMs: 10_000 });
        await driver.type('Milano');
        await waitForRowsHolding('Milano'); // Enter takes the one tenant the filter left
      });
      await waitFor(async () => ((await exports.licenceKeys!.get('efat'))?.key === efat.key) || undefined, { what: 'the key typed to be stored' });
      assert.equal((await exports.licenceKeys!.get('efat'))?.organization, organization, 'the efat key shares the core key\'s organization');
      const opened = await waitFor(
        () => sandbox.requests.slice(before).find((request) => request.path === '/efat/api/v1/ditte' && request.status === 200),
        { what: 'the resource to be opened again with the key' },
      );
      assert.equal(opened.headers['authorization-key'], efat.key);
      assert.equal(opened.headers['user-tenant'], milano.id);
    } else {
      assert.equal(ditte.command, 'tenantApi.internal.fixResource'); // test:electron: no browser to click in
      await setLicenceKeys(sandbox, 'org-rossi');
    }
    await waitFor(
      async () => {
        const roots = await api.treeSnapshot(3);
        const tenantItem = roots[0]?.children?.find((item) => item.label === milano.descrizioneAmbienteDati);
        return tenantItem?.children?.find((child) => child.label === 'Ditte')?.command === 'tenantApi.openResource' || undefined;
      },
      { what: 'the problem to clear once the key is set' },
    );
  });

  it('cancels a waiting request from its progress notification', async function () {
    if (!driver.available()) return this.skip();
    await vscode.commands.executeCommand('notifications.clearAll');
    sandbox.injectFault({ kind: 'slow', delayMs: 20_000, pathPrefix: '/api/configurazioni', count: 1 });
    const started = performance.now();
    const running = vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'GET', path: '/api/configurazioni' }) as Thenable<Summary>;
    const toast = '.notifications-toasts .notification-list-item:has-text("GET /api/configurazioni")';
    await driver.waitFor(toast, { timeoutMs: 10_000 });
    await driver.click(`${toast} .monaco-button:has-text("Cancel")`, { timeoutMs: 10_000 });
    const summary = await running;
    assert.equal(summary.error?.kind, 'cancelled', JSON.stringify(summary));
    assert.ok(performance.now() - started < 15_000, 'the request was not cut short');
    sandbox.clearFaults();
  });

  it('shows the queue position in the progress notification while calls wait for the rate limit', async () => {
    // 25 calls at 5 a second: the last ones wait about four seconds, long enough to see.
    const burst = Array.from({ length: 25 }, () =>
      vscode.commands.executeCommand('tenantApi.sendRequest', {
        method: 'GET',
        path: '/api/configurazioni',
        preview: false,
      }) as Thenable<Summary>,
    );
    if (driver.available()) {
      try {
        // The notification center lists every notification, also those not shown as toasts.
        await new Promise((resolve) => setTimeout(resolve, 400));
        await vscode.commands.executeCommand('notifications.showList');
        await driver.waitFor('.notifications-center .notification-list-item:has-text("position")', { timeoutMs: 15_000 });
      } catch (error) {
        const summaries = await Promise.all(burst);
        throw new Error(`no queue position shown; the calls ended with ${JSON.stringify(summaries.map((summary) => summary.status ?? summary.error))}: ${String(error)}`);
      }
    }
    const summaries = await Promise.all(burst);
    await vscode.commands.executeCommand('notifications.hideList');
    assert.deepEqual(
      summaries.map((summary) => summary.status),
      summaries.map(() => 200),
      JSON.stringify(summaries.map((summary) => summary.error)),
    );
  });

  it('opens a 10 MB response while the window and the extension host stay responsive', async () => {
    const milano = tenant('RC-MI');
    // The extension host's event loop: a long block would stall every extension.
    let worstHostLagMs = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      worstHostLagMs = Math.max(worstHostLagMs, now - last - 20);
      last = now;
    }, 20);
    // The window: how long the page takes to answer a trivial DOM query while the tab opens.
    let done = false;
    let worstWindowMs = 0;
    const probeWindow = async () => {
      while (!done && driver.available()) {
        const started = performance.now();
        await driver.count('.statusbar');
        worstWindowMs = Math.max(worstWindowMs, performance.now() - started);
      }
    };
    const probing = probeWindow();
    const started = performance.now();
    let summary: Summary;
    try {
      summary = (await vscode.commands.executeCommand('tenantApi.sendRequest', {
        method: 'GET',
        path: '/efat/api/v1/ditte',
        tenantId: milano.id,
        // About 550 bytes a row: 19,000 rows are a little over 10 MB.
        query: { dimensionePagina: 19000 },
      })) as Summary;
    } finally {
      done = true;
      clearInterval(ticker);
      await probing;
    }
    const totalMs = performance.now() - started;
    assert.equal(summary.status, 200, JSON.stringify(summary.error));
    assert.ok((summary.sizeBytes ?? 0) > 10 * 1024 * 1024, `the response is only ${summary.sizeBytes} bytes`);
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === summary.document);
    assert.ok(document, 'the response tab is open');
    // A preview of the first items (largeResponses.test.ts opens the whole response from it).
    assert.match(document.getText(), /^\/\/ Preview: the first 50 of 19,000 items/m);
    console.log(
      `      ${(summary.sizeBytes! / 1024 / 1024).toFixed(1)} MB response: format ${summary.formatMs?.toFixed(0)} ms, ` +
        `open ${summary.openMs?.toFixed(0)} ms, request+open ${totalMs.toFixed(0)} ms, ` +
        `worst extension-host lag ${worstHostLagMs.toFixed(0)} ms, worst window answer ${worstWindowMs.toFixed(0)} ms ` +
        `(load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`,
    );
    // Measured on a 2-core machine (2026-11-23): quiet, about 0.3 s host lag and 0.5 s window answer;
    // with a load average of 12-14 (other builds running), up to 2.2 s and 3.8 s. A freeze is longer
    // than these limits, which leave twice the worst seen for a busy machine.
    if (driver.available()) assert.ok(worstWindowMs > 0, 'the window was never probed');
    assert.ok(worstHostLagMs < MAX_HOST_LAG_MS, `the extension host stalled for ${worstHostLagMs.toFixed(0)} ms (limit ${MAX_HOST_LAG_MS} ms)`);
    assert.ok(worstWindowMs < MAX_WINDOW_ANSWER_MS, `the window took ${worstWindowMs.toFixed(0)} ms to answer (limit ${MAX_WINDOW_ANSWER_MS} ms)`);
  });
});
