// Send Request finds each problem at the step where it can be known, driven
// in a real VS Code against the sandbox as a user would: signed out, a licence key missing, a failed
// request sent again from its notification and from the history, a path no rule matches, the last
// method, a bad path shown in the list, the keybinding.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { driver } from './helpers/driver';
import { signInSuite } from './helpers/signInSuite';
import { waitForRowsHolding } from './helpers/quickInput';
import { configure, extensionExports, setLicenceKeys, signInAs, signOutEveryone, waitFor, workbenchApi } from './helpers/workbench';

const TITLE = (text: string) => `.quick-input-widget .quick-input-title:has-text("${text}")`;
const LIST = '.quick-input-widget .quick-input-list';
const VISIBLE_INPUT = '.quick-input-widget:visible';

interface Summary {
  ok: boolean;
  path?: string;
  status?: number;
  document?: string;
  error?: { kind: string; message: string };
}

/** Waits for a step of the quick input by its title, types `keys` (if any) and presses Enter. */
async function step(title: string, keys?: string): Promise<void> {
  try {
    await driver.waitFor(TITLE(title), { timeoutMs: 15_000 });
  } catch (error) {
    await driver.screenshot('send-request-step-failure');
    throw new Error(`the step "${title}" did not show (screenshot send-request-step-failure.png): ${String(error)}`);
  }
  if (keys) await driver.type(keys);
  await driver.press('Enter');
}

describe('Send Request: each problem at its step (signed out, licence key, failures, unknown paths)', function () {
  this.timeout(150_000);
  const suite = signInSuite({ signInFlow: 'uriHandler' }, async (sandbox) => {
    const keys = (await extensionExports()).licenceKeys;
    for (const module of sandbox.modules) await keys?.clear(module.id);
    await configure({ routes: undefined });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  const mario = () => suite.user('mario.rossi');
  const organizationOfMario = () => suite.sandbox.tenants.find((tenant) => mario().tenantIds.includes(tenant.id))!.organizationId;
  const coreKey = () => suite.sandbox.licenceKeys.find((key) => key.module === 'core' && key.organizationId === organizationOfMario())!;
  const clearCoreKey = async () => (await extensionExports()).licenceKeys!.clear('core');

  async function ensureSignedIn(): Promise<void> {
    if (!(await suite.auth.getAccounts()).some((account) => account.id === mario().sub)) await signInAs(suite.sandbox, mario().username);
  }

  /** Answers Set Licence Key's own inputs: the key, the label as offered, the tenant it covers (typed: the one left), and the organization's name proposed when it is a new one. */
  async function typeLicenceKey(): Promise<void> {
    await step('Licence key for the module', coreKey().key);
    await step('Label for this key');
    await driver.waitFor(TITLE('Which of your tenants does this licence cover?'), { timeoutMs: 15_000 });
    await driver.waitFor('.quick-input-widget .monaco-list-row', { timeoutMs: 15_000 });
    const code = suite.sandbox.tenants.find((tenant) => tenant.organizationId === organizationOfMario() && mario().tenantIds.includes(tenant.id))!.codiceAmbienteDati;
    await driver.type(code);
    await waitForRowsHolding(code); // Enter takes the one tenant the filter left
    await driver.press('Enter');
    await waitFor(
      async () => {
        if ((await driver.count(TITLE('Name of the organization that holds this licence'))) > 0) await driver.press('Enter');
        return ((await (await extensionExports()).licenceKeys!.get('core'))?.key === coreKey().key) || undefined;
      },
      { what: 'the key to be stored' },
    );
  }

  const received = (since: number, path: string, status?: number) =>
    suite.sandbox.requests.slice(since).find((request) => request.path === path && (status === undefined || request.status === status));

  it('signed out: offers Sign In before any step, and after signing in goes on with the flow to the response', async () => {
    await signOutEveryone();
    await setLicenceKeys(suite.sandbox, organizationOfMario());
    await driver.robot.setCredentials({ username: mario().username, password: mario().password });
    const before = suite.sandbox.requests.length;
    const running = Promise.resolve(vscode.commands.executeCommand('tenantApi.sendRequest')) as Promise<Summary | undefined>;
    await waitFor(async () => (await driver.notifications()).some((message) => /Send Request needs you to be signed in/.test(message)), {
      what: 'the Sign In offer',
    });
    assert.equal(await driver.count(VISIBLE_INPUT), 0, 'nothing is asked before the sign-in');
    await driver.screenshot('send-request-signed-out');
    await driver.clickNotificationButton('Sign In', { message: 'Send Request needs you to be signed in' });
    await driver.waitFor(TITLE('Send Request: path'), { timeoutMs: 60_000 });
    assert.ok((await suite.auth.getAccounts()).some((account) => account.id === mario().sub), 'signed in before the flow goes on');
    await step('Send Request: path', '/api/configurazioni');
    const summary = await running;
    assert.equal(summary?.status, 200, JSON.stringify(summary));
    assert.ok(received(before, '/api/configurazioni', 200), 'the request reached the sandbox');
  });

  it('no core key: the Set Licence Key offer comes right after the path; once set, the flow goes on to the response', async () => {
    await ensureSignedIn();
    await clearCoreKey();
    const before = suite.sandbox.requests.length;
    const running = Promise.resolve(vscode.commands.executeCommand('tenantApi.sendRequest')) as Promise<Summary | undefined>;
    await step('Send Request: path', '/api/configurazioni');
    await driver.waitFor(TITLE('Send Request: licence key'), { timeoutMs: 15_000 });
    const shown = await driver.text(LIST);
    await driver.screenshot('send-request-licence-key');
    assert.match(shown, /No licence key is set for the module "core"/);
    assert.match(shown, /Set Licence Key/);
    assert.equal(suite.sandbox.requests.length, before, 'nothing was sent to find it out');
    await driver.press('Enter'); // Set Licence Key is the active item
    await typeLicenceKey();
    const summary = await running;
    assert.equal(summary?.status, 200, JSON.stringify(summary));
    assert.equal(received(before, '/api/configurazioni', 200)?.headers['authorization-key'], coreKey().key);
  });

  it('a failed request is in the history; Set Licence Key from its notification sends it again, and so do Re-run and the history picker', async () => {
    await ensureSignedIn();
    await clearCoreKey();
    await vscode.commands.executeCommand('notifications.clearAll');
    const api = await workbenchApi();
    const failed = (await vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'GET', path: '/api/configurazioni' })) as Summary;
    assert.equal(failed.error?.kind, 'licenceMissing');
    const entry = api.history()[0];
    assert.deepEqual([entry.path, entry.status, entry.error], ['/api/configurazioni', undefined, 'licenceMissing']);

    // Set Licence Key from the failure's notification: the same request goes again, without asking.
    let before = suite.sandbox.requests.length;
    await driver.clickNotificationButton('Set Licence Key', { message: 'No licence key is set for the module "core"', timeoutMs: 15_000 });
    await typeLicenceKey();
    await waitFor(() => received(before, '/api/configurazioni', 200), { what: 'the request to be sent again once the key was set' });

    // Re-run on a failure's notification (a scripted call is told of a 404: no tab shows it).
    await vscode.commands.executeCommand('notifications.clearAll');
    before = suite.sandbox.requests.length;
    const missing = (await vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'GET', path: '/api/does-not-exist', preview: false })) as Summary;
    assert.equal(missing.status, 404);
    assert.equal(api.history()[0].error, 'http');
    await driver.clickNotificationButton('Re-run', { message: 'The server answered 404', timeoutMs: 15_000 });
    await waitFor(() => suite.sandbox.requests.slice(before).filter((request) => request.path === '/api/does-not-exist').length === 2 || undefined, {
      what: 'the 404 to be sent again from Re-run',
    });

    // The history picker shows a request that was not sent, and picking it sends it.
    await clearCoreKey();
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'GET', path: '/api/configurazioni', query: { pagina: '1' } });
    await setLicenceKeys(suite.sandbox, organizationOfMario());
    before = suite.sandbox.requests.length;
    const rerun = Promise.resolve(vscode.commands.executeCommand('tenantApi.rerunFromHistory')) as Promise<Summary | undefined>;
    await driver.waitFor(`${LIST} .monaco-list-row:has-text("not sent (licenceMissing)")`, { timeoutMs: 15_000 });
    await driver.screenshot('history-not-sent');
    await driver.press('Enter');
    assert.equal((await rerun)?.status, 200);
    assert.match(received(before, '/api/configurazioni', 200)?.url ?? '', /pagina=1/);
  });

  it('a path no rule matches: asks which host and key, "this time only" first (no rule left behind), or remembered so the next path there is not asked', async () => {
    await ensureSignedIn();
    await configure({ routes: undefined });
    const before = suite.sandbox.requests.length;
    const first = Promise.resolve(vscode.commands.executeCommand('tenantApi.sendRequest')) as Promise<Summary | undefined>;
    await step('Send Request: path', '/foo/bar');
    await driver.waitFor(TITLE('Send Request: host for /foo/'), { timeoutMs: 15_000 });
    await driver.screenshot('send-request-unknown-path');
    await step('Send Request: host for /foo/', 'Base URL');
    await step('Send Request: licence key for /foo/', 'No licence key');
    await driver.waitFor(TITLE('Send Request: remember /foo/?'), { timeoutMs: 15_000 });
    assert.match(await driver.text(`${LIST} .monaco-list-row.focused`), /This time only/, '"this time only" is the default');
    await driver.press('Enter');
    const summary = await first;
    assert.equal(vscode.workspace.getConfiguration('tenantApi').get<unknown[]>('routes')?.length ?? 0, 0, 'a rule was saved for a path answered "this time only"');
    // The server's own answer, in its tab.
    assert.equal(summary?.status, 404, JSON.stringify(summary));
    assert.ok(received(before, '/foo/bar', 404), 'the request reached the sandbox');
    const document = await waitFor(() => vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === summary?.document), {
      what: 'the response tab',
    });
    assert.match(document.getText(), /There is no resource at \/foo\/bar on this host/);

    // Asked again, and this time remembered.
    const second = Promise.resolve(vscode.commands.executeCommand('tenantApi.sendRequest')) as Promise<Summary | undefined>;
    await step('Send Request: path', '/foo/bar');
    await step('Send Request: host for /foo/', 'Base URL');
    await step('Send Request: licence key for /foo/', 'No licence key');
    await step('Send Request: remember /foo/?', 'Remember');
    assert.equal((await second)?.status, 404);
    assert.deepEqual(vscode.workspace.getConfiguration('tenantApi').get('routes'), [{ prefix: '/foo/', host: 'base' }]);

    const third = Promise.resolve(vscode.commands.executeCommand('tenantApi.sendRequest')) as Promise<Summary | undefined>;
    await step('Send Request: path', '/foo/other');
    assert.equal((await third)?.status, 404);
    assert.equal(await driver.count(TITLE('host for')), 0, 'not asked again');
    assert.ok(received(before, '/foo/other', 404));
  });

  it('a path typed and entered at once is the path taken, not a suggestion the list showed a moment before', async () => {
    await ensureSignedIn();
    await setLicenceKeys(suite.sandbox, organizationOfMario());
    // Recent paths of other hosts in the list, as after a day of use.
    for (const path of ['/efat/api/v1/ditte', '/v10/user-tenants', '/api/configurazioni']) {
      await vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'GET', path, preview: false });
    }
    for (let attempt = 0; attempt < 6; attempt++) {
      const running = Promise.resolve(vscode.commands.executeCommand('tenantApi.sendRequest')) as Promise<Summary | undefined>;
      await driver.waitFor(TITLE('Send Request: path'), { timeoutMs: 15_000 });
      await driver.type('/api/configurazion');
      await new Promise((resolve) => setTimeout(resolve, 400)); // the list now has the typed path as an item
      // The last key and Enter while the extension host is busy (as under load): the editor accepts an
      // item of the list it shows, and the extension host hears of the last key first.
      const keys = driver.press(['i', 'Enter']);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const busyUntil = Date.now() + 800;
      while (Date.now() < busyUntil) {
        // a busy extension host
      }
      await keys;
      // /api/configurazioni needs no tenant: it is sent at once, never the tenant or a host question.
      const next = await Promise.race([
        running.then(() => 'sent'),
        waitFor(async () => ((await driver.count(TITLE('Send Request: tenant'))) > 0 ? 'tenant' : undefined), { what: 'the step after the path' }),
      ]);
      if (next === 'tenant') {
        await driver.press('Escape');
        assert.fail(`attempt ${attempt + 1}: Enter took a path served by a tenant's cluster, not the one typed`);
      }
      const summary = await running;
      assert.equal(summary?.path, '/api/configurazioni', `attempt ${attempt + 1}: Enter took another path than the one typed`);
    }
  });

  it('a whole request on one line from Ctrl+Alt+Shift+R: method and query parsed, only the tenant asked; query, body and headers only when opened', async () => {
    await ensureSignedIn();
    await setLicenceKeys(suite.sandbox, organizationOfMario());
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const milano = suite.sandbox.tenants.find((tenant) => tenant.codiceAmbienteDati === 'RC-MI')!;
    let before = suite.sandbox.requests.length;
    await driver.press('Control+Alt+Shift+R');
    const titles: string[] = [];
    await step('Send Request: path', 'GET /efat/api/v1/ditte?pagina=1');
    await driver.waitFor(TITLE('Send Request: tenant'), { timeoutMs: 15_000 });
    await driver.waitFor(`${LIST} .monaco-list-row:has-text("${milano.descrizioneAmbienteDati}")`, { timeoutMs: 15_000 });
    titles.push(await driver.text('.quick-input-widget .quick-input-title'));
    await driver.type('Milano');
    await driver.press('Enter');
    const sent = await waitFor(() => received(before, '/efat/api/v1/ditte'), { what: 'the GET typed on one line' });
    assert.equal(sent.method, 'GET');
    assert.match(sent.url, /pagina=1/);
    assert.equal(sent.headers['user-tenant'], milano.id);
    await driver.waitFor(VISIBLE_INPUT, { state: 'hidden', timeoutMs: 10_000 });
    assert.deepEqual(titles, ['Send Request: tenant'], 'only the tenant was asked after the line');
    // Its tab opens (and takes the focus) before the next request is typed.
    await waitFor(() => /ditte\?pagina=1/.test(vscode.window.activeTextEditor?.document.lineAt(0).text ?? '') || undefined, { what: 'the response tab, in front' });

    // A POST with a body and a header: both opened in the first step, then asked.
    before = suite.sandbox.requests.length;
    const post = Promise.resolve(vscode.commands.executeCommand('tenantApi.sendRequest')) as Promise<Summary | undefined>;
    await driver.waitFor(TITLE('Send Request: path'), { timeoutMs: 15_000 });
    await driver.type('POST /api/configurazioni');
    await driver.click(`${LIST} .monaco-list-row:has-text("Add a JSON body")`);
    await driver.waitFor(`${LIST} .monaco-list-row:has-text("Add a JSON body") .codicon-check`, { timeoutMs: 10_000 });
    await driver.click(`${LIST} .monaco-list-row:has-text("Add extra headers")`);
    await driver.waitFor(`${LIST} .monaco-list-row:has-text("Add extra headers") .codicon-check`, { timeoutMs: 10_000 });
    await driver.screenshot('send-request-one-line');
    await driver.press('Enter');
    await step('Send Request: body', '{"descrizione": "Nuova"}');
    await step('Send Request: extra headers', 'X-Trace: one-line');
    assert.equal((await post)?.status, 405);
    const posted = received(before, '/api/configurazioni');
    assert.equal(posted?.method, 'POST');
    assert.deepEqual(JSON.parse(posted?.body ?? 'null'), { descrizione: 'Nuova' });
    assert.equal(posted?.headers['x-trace'], 'one-line');

    // A bad line is shown as an item of the list.
    await driver.press('Control+Alt+Shift+R');
    await driver.waitFor(TITLE('Send Request: path'), { timeoutMs: 15_000 });
    await driver.type('nowhere/x');
    await driver.press('Enter');
    await driver.waitFor(`${LIST} .monaco-list-row:has-text('The path must start with "/"')`, { timeoutMs: 10_000 });
    await driver.screenshot('send-request-bad-path');
    await driver.press('Escape');
    await driver.waitFor(VISIBLE_INPUT, { state: 'hidden', timeoutMs: 10_000 });

    // In VS Code 1.100's own keymap, no other command has the key.
    await vscode.commands.executeCommand('workbench.action.openDefaultKeybindingsFile');
    const keymap = await waitFor(() => vscode.window.activeTextEditor?.document.getText(), { what: 'the default keybindings' });
    const bound = [...keymap.matchAll(/"key":\s*"([^"]+)",\s*"command":\s*"([^"]+)"/g)]
      .filter(([, key]) => key.split('+').sort().join('+') === 'alt+ctrl+r+shift')
      .map(([, , command]) => command);
    assert.deepEqual(bound.filter((command) => command !== 'tenantApi.sendRequest'), [], `ctrl+alt+shift+r is taken: ${bound.join(', ')}`);
    assert.ok(keymap.length > 10_000, 'the default keymap was read');
  });
});
