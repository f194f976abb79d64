// Signing in to one tenant, and several accounts at once, inside a real VS Code against the sandbox:
// the robot signs in through the real browser; the Tenants view and the sandbox's records tell which
// account and which tenant the extension ended up with.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Authentication } from '../../../src/auth/vscode/register';
import { SESSION_KEY_PREFIX, type StoredSession } from '../../../src/auth/sessionStore';
import type { AccountInfo } from '../../../src/auth/types';
import type { Sandbox } from '../../sandbox';
import { driver } from './helpers/driver';
import { bearerSubject, jwtClaims } from './helpers/jwtClaims';
import {
  extensionExports,
  resetSettings,
  signInAs,
  signOutEveryone,
  startWorkbenchSandbox,
  waitFor,
  workbenchApi,
  type TreeItemSnapshot,
  type WorkbenchTestApi,
} from './helpers/workbench';

const SIDEBAR = '[id="workbench.parts.sidebar"]';
const USE_ACCOUNT = 'Use this account to list its tenants';

describe('accounts and tenant sign-in', function () {
  this.timeout(180_000);
  let sandbox: Sandbox;
  let api: WorkbenchTestApi;
  let auth: Authentication;
  const user = (username: string) => sandbox.users.find((candidate) => candidate.username === username)!;
  const tenantLabels = (ids: readonly string[]) => ids.map((id) => sandbox.tenants.find((t) => t.id === id)!.descrizioneAmbienteDati).sort();

  async function storedSession(sub: string): Promise<StoredSession> {
    const raw = await auth.secrets.get(SESSION_KEY_PREFIX + sub);
    assert.ok(raw, `no stored session for ${sub}`);
    return JSON.parse(raw) as StoredSession;
  }

  /** The account nodes once the active one lists its tenants; the other ones show "Use this account". */
  async function settledAccounts(activeName: string): Promise<TreeItemSnapshot[]> {
    return waitFor(
      async () => {
        const roots = (await api.treeSnapshot(2)).filter((root) => root.contextValue === 'account');
        const active = roots.find((root) => root.label === activeName);
        return active?.children?.some((child) => child.contextValue.startsWith('tenant')) ? roots : undefined;
      },
      { timeoutMs: 20_000, what: `the tenants of ${activeName} in the Tenants view` },
    );
  }

  /** The account whose token listed the tenants last (/v10/user-tenants at the sandbox). */
  function lastListingSubject(since: number): unknown {
    const listings = sandbox.requests.slice(since).filter((request) => request.path === '/v10/user-tenants' && request.status === 200);
    return bearerSubject(listings.at(-1)?.headers['authorization']);
  }

  before(async function () {
    if (!driver.available()) return this.skip(); // the browser robot needs the code-server runner
    api = await workbenchApi();
    auth = ((await extensionExports()) as { auth?: Authentication }).auth!;
    assert.ok(auth, 'activate() returns { auth }');
    await signOutEveryone();
    sandbox = await startWorkbenchSandbox();
    await vscode.commands.executeCommand('tenantApi.tenants.focus');
  });

  after(async () => {
    if (!sandbox) return;
    await signOutEveryone();
    await resetSettings();
    await sandbox.close();
    await vscode.commands.executeCommand('notifications.clearAll');
    // Back to the Explorer: a later suite opens the Tenant API container by clicking its icon, which
    // would close it if it were still showing.
    await vscode.commands.executeCommand('workbench.view.explorer');
  });

  afterEach(async () => {
    if (!driver.available()) return;
    await driver.robot.reset();
    await driver.closePages();
  });

  it('"Sign In to This Tenant" sends acr_values=tenant:<id>, and the new session is for that tenant', async () => {
    const mario = user('mario.rossi');
    await signInAs(sandbox, mario.username);
    const torino = sandbox.tenants.find((tenant) => tenant.codiceAmbienteDati === 'RC-TO')!;
    // A plain sign-in selects no tenant: what follows is the command's doing.
    const plain = jwtClaims((await storedSession(mario.sub)).idToken!);
    assert.equal(plain.tenant, undefined);
    assert.notEqual(plain.acr, `tenant:${torino.id}`);
    const roots = await settledAccounts(mario.name);
    assert.ok(roots[0].children?.some((child) => child.label === torino.descrizioneAmbienteDati), JSON.stringify(roots));

    await driver.robot.setCredentials({ username: mario.username, password: mario.password });
    const since = await driver.robot.lastSeq();
    // The user right-clicks Torino in the Tenants view and picks the command from its context menu.
    const torinoRow = `${SIDEBAR} .monaco-list-row[aria-label^="${torino.descrizioneAmbienteDati}"]`;
    await driver.click(torinoRow, { button: 'right', timeoutMs: 15_000 });
    await driver.click('.monaco-menu .action-item:has-text("Sign In to This Tenant")', { timeoutMs: 10_000 });
    await driver.robot.waitFor('callback', { since, timeoutMs: 60_000 });
    await waitFor(
      async () => jwtClaims((await storedSession(mario.sub)).idToken!).tenant === torino.id || undefined,
      { timeoutMs: 30_000, what: `the session for ${torino.descrizioneAmbienteDati}` },
    );
    const events = await driver.robot.events(since);

    // What the browser asked the authorization endpoint, and what the server's sign-in page made of it.
    const authorize = events.filter((event) => event.action === 'authorize');
    assert.equal(authorize.length, 1, JSON.stringify(events));
    const sent = new URL(authorize[0].url);
    assert.equal(`${sent.origin}${sent.pathname}`, sandbox.endpoints.authorization);
    assert.equal(sent.searchParams.get('acr_values'), `tenant:${torino.id}`);
    assert.equal(sent.searchParams.get('prompt'), 'login', 'signed in already: the form is shown again');
    const filled = events.find((event) => event.action === 'filledSignIn');
    assert.ok(filled?.detail?.includes(torino.descrizioneAmbienteDati), `the sign-in page names the tenant: ${filled?.detail}`);

    // The sandbox honours it: the tokens the extension keeps carry the tenant.
    const stored = await storedSession(mario.sub);
    const idToken = jwtClaims(stored.idToken!);
    assert.equal(idToken.acr, `tenant:${torino.id}`);
    assert.equal(idToken.tenant, torino.id);
    assert.equal(jwtClaims(stored.accessToken).tenant, torino.id);
    assert.equal(await auth.getAccessToken(), stored.accessToken, 'API calls use the new token');
    assert.deepEqual((await auth.getAccounts()).map((entry) => entry.id), [mario.sub], 'the same account, not a second one');
  });

  it('"Sign In to This Tenant" while a plain sign-in waits in the browser replaces it: the first is told so, the tenant\'s sign-in runs', async () => {
    const mario = user('mario.rossi');
    if (!(await auth.getAccounts()).some((entry) => entry.id === mario.sub)) await signInAs(sandbox, mario.username);
    // Another tenant than the one the session may carry already, so the result proves this sign-in.
    const current = jwtClaims((await storedSession(mario.sub)).idToken!).tenant;
    const tenant = sandbox.tenants.find((candidate) => mario.tenantIds.includes(candidate.id) && candidate.id !== current)!;

    // A plain sign-in, left waiting on the sign-in page.
    await driver.robot.ignore();
    const since = await driver.robot.lastSeq();
    const first = auth.signIn({ forceLogin: true }).then((account) => account, (error: unknown) => error);
    await driver.robot.waitFor('ignored', { since, timeoutMs: 30_000 });
    assert.equal(auth.pending.size, 1, 'the plain sign-in waits for the browser');

    await driver.robot.setCredentials({ username: mario.username, password: mario.password });
    const second = vscode.commands.executeCommand<AccountInfo | undefined>('tenantApi.signInToTenant', tenant.id);
    // Joined instead, the first would wait on its ignored page until it timed out.
    const replaced = await Promise.race([first, new Promise((resolve) => setTimeout(resolve, 20_000, 'still waiting after 20 s'))]);
    if (!(replaced instanceof Error)) auth.controller.cancel();
    assert.ok(replaced instanceof Error && replaced.name === 'SignInReplacedError', `the first call ended with: ${String(replaced)}`);
    assert.match(replaced.message, /replaced by a newer sign-in/);
    const account = await second;
    const events = await driver.robot.events(since);
    assert.equal(account?.id, mario.sub, `robot events: ${JSON.stringify(events)}`);

    // Two trips to the authorization endpoint: the plain one, then the tenant's.
    const authorize = events.filter((event) => event.action === 'authorize').map((event) => new URL(event.url).searchParams);
    assert.equal(authorize.length, 2, JSON.stringify(events));
    assert.equal(authorize[0].get('acr_values'), null, 'the first sign-in asked for no tenant');
    assert.equal(authorize[1].get('acr_values'), `tenant:${tenant.id}`);
    assert.equal(events.filter((event) => event.action === 'filledSignIn').length, 1, 'the robot signed in only on the tenant\'s page');

    // The session the extension keeps is the tenant's, and nothing is left waiting.
    const idToken = jwtClaims((await storedSession(mario.sub)).idToken!);
    assert.equal(idToken.acr, `tenant:${tenant.id}`);
    assert.equal(idToken.tenant, tenant.id);
    assert.equal(auth.pending.size, 0);
    assert.equal(auth.controller.attemptInProgress, false);
  });

  it('with two accounts, "Use This Account" in the Tenants view switches the tenants and the token of the calls', async () => {
    const mario = user('mario.rossi');
    const laura = user('laura.verdi');
    assert.notDeepEqual(tenantLabels(mario.tenantIds), tenantLabels(laura.tenantIds), 'the seed gives them different tenants');
    if (!(await auth.getAccounts()).some((entry) => entry.id === mario.sub)) await signInAs(sandbox, mario.username);
    const beforeLaura = sandbox.requests.length;
    await signInAs(sandbox, laura.username);
    assert.deepEqual((await auth.getAccounts()).map((entry) => entry.id).sort(), [mario.sub, laura.sub].sort());

    // The account signed in last is the one in use: its tenants are listed with its token.
    let roots = await settledAccounts(laura.name);
    // The tenants and the account's other items (the use-account action), without the group of resources no tenant selects.
    const children = (name: string) => (roots.find((root) => root.label === name)?.children ?? []).filter((child) => child.contextValue !== 'keyGroup');
    assert.deepEqual(children(laura.name).map((child) => child.label).sort(), tenantLabels(laura.tenantIds));
    assert.deepEqual(children(mario.name).map((child) => child.label), [USE_ACCOUNT]);
    assert.equal(children(mario.name)[0].command, 'tenantApi.internal.useAccount');
    assert.equal(lastListingSubject(beforeLaura), laura.sub);

    // The user clicks "Use this account" under Mario's account in the real view.
    const beforeSwitch = sandbox.requests.length;
    const useRow = `${SIDEBAR} .monaco-list-row[aria-label^="${USE_ACCOUNT}"]`;
    // The view renders the model a moment after it settles: wait for the row before counting.
    await driver.waitFor(useRow, { timeoutMs: 15_000 });
    assert.equal(await driver.count(useRow), 1, 'one account is not in use');
    await driver.click(useRow, { timeoutMs: 15_000 });
    // A click that lands while the tree re-renders only selects the row (seen once in three-editor CI):
    // a user clicks again, and so does the test; the command is the same either way.
    const inUse = (timeoutMs: number) => waitFor(() => auth.activeAccount()?.id === mario.sub || undefined, { timeoutMs, what: 'Mario\'s account in use' }).then(() => true, () => false);
    for (let again = 0; again < 2 && !(await inUse(5000)); again++) {
      if ((await driver.count(useRow)) === 1) await driver.click(useRow, { timeoutMs: 15_000 });
    }
    roots = await settledAccounts(mario.name);
    assert.deepEqual(children(mario.name).map((child) => child.label).sort(), tenantLabels(mario.tenantIds));
    assert.deepEqual(children(laura.name).map((child) => child.label), [USE_ACCOUNT]);
    assert.equal(auth.activeAccount()?.id, mario.sub);
    assert.equal(lastListingSubject(beforeSwitch), mario.sub, 'the tenants were listed with Mario\'s token');
    for (const label of tenantLabels(mario.tenantIds)) {
      await driver.waitFor(`${SIDEBAR} .monaco-list-row[aria-label^="${label}"]`, { timeoutMs: 10_000 });
    }
  });

  it('Sign Out with two accounts asks which one in a quick pick, and signs out only the one picked', async () => {
    const mario = user('mario.rossi');
    const laura = user('laura.verdi');
    assert.deepEqual((await auth.getAccounts()).map((entry) => entry.id).sort(), [mario.sub, laura.sub].sort(), 'the previous test left both signed in');
    const running = vscode.commands.executeCommand('tenantApi.signOut');
    const row = `.quick-input-widget .monaco-list-row:has-text("${laura.name}")`;
    await driver.waitFor(`.quick-input-widget .monaco-list-row:has-text("${mario.name}")`, { timeoutMs: 10_000 });
    await driver.click(row, { timeoutMs: 10_000 });
    await running;
    assert.deepEqual((await auth.getAccounts()).map((entry) => entry.id), [mario.sub]);
    assert.equal(await auth.secrets.get(SESSION_KEY_PREFIX + laura.sub), undefined);
    const roots = await settledAccounts(mario.name);
    assert.deepEqual(roots.map((root) => root.label), [mario.name]);
  });
});
