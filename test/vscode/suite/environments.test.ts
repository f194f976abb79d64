// Environments in a real VS Code against two sandboxes on different ports: the default environment
// (the top-level settings) on sandbox A, the named environment "Beta" on sandbox B.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Sandbox } from '../../sandbox';
import { driver } from './helpers/driver';
import { configure, extensionExports, loadedTree, resetSettings, signInAs, startWorkbenchSandbox, waitFor, workbenchApi } from './helpers/workbench';
import { jwtClaims } from './helpers/jwtClaims';

interface EnvironmentsTestApi {
  active(): { id: string; name: string; protected: boolean };
  statusBar(): { visible: boolean; text: string; tooltip: string[]; warning: boolean } | undefined;
  afterReload(): string;
  scheduler(): object;
}

interface Summary {
  ok: boolean;
  status?: number;
  error?: { kind: string; message: string };
}

async function environmentsApi(): Promise<EnvironmentsTestApi> {
  const exports = (await extensionExports()) as { environments?: EnvironmentsTestApi };
  assert.ok(exports.environments, 'activate() must return { environments } for the tests');
  return exports.environments;
}

async function signOutHere(): Promise<void> {
  const { auth } = (await extensionExports()) as { auth?: { getAccounts(): Promise<Array<{ id: string }>>; signOut(id: string): Promise<void> } };
  for (const account of (await auth?.getAccounts()) ?? []) await auth!.signOut(account.id);
}

/** The accounts the `tenant-api` provider gives the Accounts menu (its getSessions). */
async function accountsMenu(): Promise<string[]> {
  const { auth } = (await extensionExports()) as { auth: { provider: vscode.AuthenticationProvider } };
  return (await auth.provider.getSessions(undefined, {})).map((session) => session.account.label);
}

/** The account ids of the sessions kept in the active environment's secret storage. */
async function storedAccounts(): Promise<string[]> {
  const { auth } = (await extensionExports()) as { auth: { store: { readIndex(): Promise<string[]> } } };
  return auth.store.readIndex();
}

async function switchTo(name: string): Promise<void> {
  assert.equal(await vscode.commands.executeCommand('tenantApi.switchEnvironment', { name }), name);
}

/** Tenant names in the Tenants view once the account's tenants are listed. */
async function tenantLabels(): Promise<string[]> {
  const roots = await loadedTree(await workbenchApi(), 2);
  const children = roots.find((root) => root.contextValue === 'account')?.children ?? [];
  return children.filter((item) => item.contextValue !== 'keyGroup').map((item) => item.label).sort();
}

const userTenants = (sandbox: Sandbox, username: string) => {
  const user = sandbox.users.find((candidate) => candidate.username === username)!;
  return user.tenantIds.map((id) => sandbox.tenants.find((tenant) => tenant.id === id)!.descrizioneAmbienteDati).sort();
};

describe('environments', function () {
  this.timeout(180_000);
  let alpha: Sandbox;
  let beta: Sandbox;
  let environments: EnvironmentsTestApi;
  const betaEnvironment = (extra: Record<string, unknown> = {}) => ({
    name: 'Beta',
    authUrl: beta.authUrl,
    baseUrl: beta.baseUrl,
    clientId: beta.clients.public.clientId,
    allowedHosts: ['127.0.0.1'],
    variables: { envTag: 'beta' },
    ...extra,
  });

  before(async function () {
    if (!driver.available()) this.skip();
    environments = await environmentsApi();
    beta = await startWorkbenchSandbox();
    alpha = await startWorkbenchSandbox(); // the top-level settings (the default environment) point at A
    await configure({ environments: [betaEnvironment(), { name: 'Alpha tests', protected: true }] });
    await switchTo('Beta');
    await signOutHere();
    await switchTo('Default');
    await signOutHere();
  });

  after(async () => {
    await driver.showDialogs(false);
    for (const name of ['Beta', 'Default']) {
      await vscode.commands.executeCommand('tenantApi.switchEnvironment', { name }).then(undefined, () => undefined);
      await signOutHere();
    }
    await configure({ environments: undefined });
    await resetSettings();
    await alpha?.close();
    await beta?.close();
  });

  it('signs in to both, and after a switch the tree and the account are that environment\'s', async () => {
    assert.equal(environments.active().name, 'Default');
    assert.equal(environments.statusBar()?.visible, true);
    assert.match(environments.statusBar()!.text, /Default$/);
    await signInAs(alpha, 'mario.rossi');
    assert.deepEqual(await tenantLabels(), userTenants(alpha, 'mario.rossi'));

    await switchTo('Beta');
    assert.match(environments.statusBar()!.text, /Beta$/);
    await waitFor(async () => ((await (await workbenchApi()).treeSnapshot(1)).length === 0 ? true : undefined), { what: 'an empty tree in Beta' });
    await signInAs(beta, 'laura.verdi');
    assert.deepEqual(await tenantLabels(), userTenants(beta, 'laura.verdi'));
    assert.deepEqual(await accountsMenu(), [beta.users.find((user) => user.username === 'laura.verdi')!.name]);
    assert.deepEqual(await storedAccounts(), [beta.users.find((user) => user.username === 'laura.verdi')!.sub], 'Beta\'s secret storage holds only its own session');

    await switchTo('Default');
    assert.deepEqual(await tenantLabels(), userTenants(alpha, 'mario.rossi'), 'back in Default without signing in again');
    assert.deepEqual(await accountsMenu(), [alpha.users.find((user) => user.username === 'mario.rossi')!.name]);
    assert.deepEqual(await storedAccounts(), [alpha.users.find((user) => user.username === 'mario.rossi')!.sub]);
    // Every bearer token each sandbox received was issued by that sandbox.
    for (const [sandbox, issuer] of [[alpha, alpha.authUrl], [beta, beta.authUrl]] as const) {
      for (const request of sandbox.requests) {
        const token = /^Bearer (\S+)$/.exec(request.headers['authorization'] ?? '')?.[1];
        if (token) assert.equal(String(jwtClaims(token).iss).replace(/\/$/, ''), issuer.replace(/\/$/, ''), `${request.path} on ${sandbox.baseUrl}`);
      }
    }
  });

  it('a licence key set in one environment is never sent in the other', async () => {
    const { licenceKeys } = (await extensionExports()) as { licenceKeys: { set(m: string, v: object): Promise<void>; clear(m: string): Promise<void> } };
    const alphaKey = alpha.licenceKeys.find((key) => key.module === 'core' && key.organizationId === 'org-rossi')!;
    await licenceKeys.set('core', { key: alphaKey.key, label: 'Alpha core', organization: 'Rossi' });
    const sentToAlpha = (await vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'GET', path: '/api/configurazioni' })) as Summary;
    assert.equal(sentToAlpha.status, 200, JSON.stringify(sentToAlpha.error));
    assert.equal(alpha.requests.filter((request) => request.path === '/api/configurazioni').at(-1)?.headers['authorization-key'], alphaKey.key);

    const workbench = await workbenchApi();
    assert.ok(workbench.history().some((entry) => String(entry.url).startsWith(alpha.baseUrl)), 'the call is in Default\'s history');
    assert.ok(workbench.statusBar().organization, 'Default\'s quota item shows the reading of its call');

    await switchTo('Beta');
    assert.ok(!workbench.history().some((entry) => String(entry.url).startsWith(alpha.baseUrl)), 'Beta\'s history has none of Default\'s calls');
    const betaQuota = await waitFor(() => (workbench.statusBar().visible ? workbench.statusBar() : undefined), { what: 'Beta\'s quota item' });
    assert.equal(betaQuota.organization, undefined, 'Beta has seen no reading yet');
    const betaBefore = beta.requests.length;
    const inBeta = (await vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'GET', path: '/api/configurazioni' })) as Summary;
    assert.equal(inBeta.ok, false);
    assert.equal(inBeta.error?.kind, 'licenceMissing', JSON.stringify(inBeta.error));
    assert.equal(beta.requests.length, betaBefore, 'Beta got a call without a key of its own');
    for (const request of beta.requests) assert.notEqual(request.headers['authorization-key'], alphaKey.key);
    await switchTo('Default');
    assert.ok(workbench.history().some((entry) => String(entry.url).startsWith(alpha.baseUrl)), 'back in Default, its history is there');
    await waitFor(() => workbench.statusBar().organization, { what: 'Default\'s quota reading, back in Default' });
  });

  it('a protected environment asks before a POST, names itself, and sends nothing when declined', async () => {
    await configure({ environments: [betaEnvironment({ protected: true }), { name: 'Alpha tests', protected: true }] });
    await switchTo('Beta');
    assert.equal(environments.active().protected, true);
    assert.equal(environments.statusBar()?.warning, true);
    const { licenceKeys } = (await extensionExports()) as { licenceKeys: { set(m: string, v: object): Promise<void> } };
    const betaKey = beta.licenceKeys.find((key) => key.module === 'core' && key.organizationId === 'org-bianchi')!;
    await licenceKeys.set('core', { key: betaKey.key, label: 'Beta core', organization: 'Bianchi' });

    const read = (await vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'GET', path: '/api/configurazioni' })) as Summary;
    assert.ok(read.status !== undefined, `a GET is sent without asking: ${JSON.stringify(read.error)}`);

    const before = beta.requests.length;
    const question = '.quick-input-widget .quick-input-title:has-text("Send POST to the protected environment")';
    const declined = vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'POST', path: '/api/configurazioni', body: { a: 1 } });
    await driver.waitFor(question, { timeoutMs: 20_000 });
    assert.match(await driver.text('.quick-input-widget .quick-input-title'), /Send POST to the protected environment "Beta"\?/);
    // An Enter too many (as from the step before) sends nothing: the box waits for the name.
    await driver.press('Enter');
    await driver.type('Bet');
    await driver.press('Enter');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await driver.waitFor(question, { timeoutMs: 5_000 });
    assert.match(await driver.text('.quick-input-widget .quick-input-message'), /Type "Beta" to send the POST/);
    await driver.screenshot('protected-environment-prompt');
    assert.equal(beta.requests.length, before, 'Enter on the protected prompt sent the POST');
    await driver.press('Escape');
    const summary = (await declined) as Summary;
    assert.equal(summary.ok, false);
    assert.equal(summary.error?.kind, 'cancelled');
    assert.equal(beta.requests.length, before, 'nothing reached Beta');

    const confirmed = vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'POST', path: '/api/configurazioni', body: { a: 1 } });
    await driver.waitFor(question, { timeoutMs: 20_000 });
    await driver.type('Beta');
    await driver.press('Enter');
    await confirmed;
    assert.equal(beta.requests.filter((request) => request.path === '/api/configurazioni').at(-1)?.method, 'POST');
  });

  it('a request file uses the active environment\'s variables, and its POST to a protected environment asks too', async () => {
    await switchTo('Beta');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'environments-')), 'beta.http');
    fs.writeFileSync(file, 'GET /api/configurazioni?env={{envTag}}\n\n###\n\nPOST /api/configurazioni\nContent-Type: application/json\n\n{"a": 1}\n');
    try {
      const uri = vscode.Uri.file(file);
      const before = beta.requests.length;
      const result = (await vscode.commands.executeCommand('tenantApi.requestFile.send', uri, 0)) as { title: string; document?: string };
      const sent = await waitFor(() => beta.requests.slice(before).find((request) => request.path === '/api/configurazioni'), { what: 'the GET in Beta' });
      assert.match(sent.url, /env=beta/);
      // The response tab's title ends with the environment (not the default one).
      const tab = vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((candidate) => candidate.input instanceof vscode.TabInputText && candidate.input.uri.toString() === result.document);
      assert.equal(tab?.label, `${result.title} · Beta`);
      // And its header block names it.
      const shown = vscode.workspace.textDocuments.find((document) => document.uri.toString() === result.document);
      assert.match(shown?.getText() ?? '', /^\/\/ Environment: Beta$/m);

      const declined = vscode.commands.executeCommand('tenantApi.requestFile.send', uri, 1);
      await driver.waitFor('.quick-input-widget .quick-input-title:has-text("Send POST to the protected environment")', { timeoutMs: 20_000 });
      await driver.press('Enter');
      await driver.press('Escape');
      await declined;
      assert.equal(beta.requests.slice(before).filter((request) => request.method === 'POST').length, 0, 'the declined POST reached Beta');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });

  it('two environments of one application share its rate-limit scheduler; another application has its own', async () => {
    await switchTo('Default');
    const alphaScheduler = environments.scheduler();
    await switchTo('Alpha tests');
    assert.equal(environments.scheduler(), alphaScheduler, 'same authUrl and clientId: one scheduler');
    await switchTo('Beta');
    assert.notEqual(environments.scheduler(), alphaScheduler);
  });

  it('switches from the status bar item through the quick pick, and from the Tenants view title', async () => {
    await switchTo('Default');
    const item = '[id="tenant-api.tenant-api-workbench.tenantApi.environment"]';
    await driver.waitFor(`${item}:has-text("Default")`, { timeoutMs: 10_000 });
    await driver.click(item);
    await driver.waitFor('.quick-input-widget .monaco-list-row:has-text("Alpha tests")', { timeoutMs: 10_000 });
    await driver.click('.quick-input-widget .monaco-list-row:has-text("Beta")');
    await waitFor(() => environments.active().name === 'Beta' || undefined, { what: 'Beta active after the pick' });
    await driver.waitFor(`${item}:has-text("Beta")`, { timeoutMs: 10_000 });

    await vscode.commands.executeCommand('tenantApi.tenants.focus');
    // With a row of the tree selected, as a user who clicked it before: VS Code hands the title's
    // command the focused tree item, which is not an environment to switch to.
    const firstRow = '[id="workbench.parts.sidebar"] .monaco-list-row';
    await driver.click(firstRow, { timeoutMs: 10_000 });
    await driver.click('[id="workbench.parts.sidebar"] .action-label[aria-label^="Switch Environment"]', { timeoutMs: 10_000 });
    await driver.waitFor('.quick-input-widget .monaco-list-row:has-text("Default")', { timeoutMs: 10_000 });
    assert.equal(await driver.count('.notifications-toasts .notification-toast:has-text("There is no environment")'), 0, 'a tree item was taken for an environment');
    await driver.click('.quick-input-widget .monaco-list-row:has-text("Default")');
    await waitFor(() => environments.active().name === 'Default' || undefined, { what: 'Default active after the pick' });
    await vscode.commands.executeCommand('workbench.view.explorer');
  });

  it('a sign-in in an environment with an unusable authUrl says which environment to fix', async () => {
    await configure({ environments: [betaEnvironment(), { name: 'Alpha tests', protected: true }, { name: 'Broken', authUrl: 'http://auth.example.com' }] });
    try {
      await switchTo('Broken');
      const { auth } = (await extensionExports()) as { auth: { signIn(): Promise<unknown> } };
      await assert.rejects(auth.signIn(), /The "authUrl" of the environment "Broken" must use https .*: http:\/\/auth\.example\.com/);
    } finally {
      await switchTo('Default');
      await configure({ environments: [betaEnvironment(), { name: 'Alpha tests', protected: true }] });
    }
  });

  it('refuses an allowed host that is a public suffix, in the settings and in an environment: a warning names it and opens the settings', async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    // Two settings written one after the other: a warning after each, the second naming both. The one
    // that names both is the state to check (the first may still be on screen beside it).
    await configure({ allowedHosts: ['127.0.0.1', 'co.uk'], environments: [betaEnvironment({ allowedHosts: ['127.0.0.1', '*.github.io'] }), { name: 'Alpha tests', protected: true }] });
    try {
      const warning = await waitFor(
        async () => (await driver.notifications()).find((text) => text.includes('"co.uk" in tenantApi.allowedHosts is ignored') && text.includes('"*.github.io"')),
        { what: 'the warning that names co.uk and *.github.io' },
      );
      assert.match(warning, /"co\.uk" in tenantApi\.allowedHosts is ignored: it is a public suffix, so it would trust every site under it\./);
      assert.match(warning, /"\*\.github\.io" in the allowedHosts of environment "Beta" is ignored: it is a public suffix/);
      await driver.clickNotificationButton('Open Settings', { message: '"*.github.io" in the allowedHosts of environment "Beta"', timeoutMs: 10_000 });
      await driver.waitFor('.settings-editor .setting-item-title:has-text("Allowed Hosts")', { timeoutMs: 15_000 });
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    } finally {
      await configure({ allowedHosts: undefined, environments: [betaEnvironment(), { name: 'Alpha tests', protected: true }] });
      await vscode.commands.executeCommand('notifications.clearAll');
    }
  });

  it('a window reload keeps the active environment', async () => {
    await switchTo('Beta');
    assert.equal(environments.afterReload(), 'Beta');
    await switchTo('Default');
    assert.equal(environments.afterReload(), 'Default');
  });
});
