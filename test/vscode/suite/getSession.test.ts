// What an extension gets from vscode.authentication.getSession('tenant-api', ...) inside a real VS Code:
// VS Code's own consent question ("The extension ... wants to sign in using Tenant API", a real modal
// dialog clicked in the browser), the sign-in through the real browser and the sandbox's form, the
// session handed back, and its token accepted by the sandbox's resource API.
// The caller is the suite itself, which VS Code counts as this extension (the suite lives in its
// folder): the consent flow is the one any other extension goes through, under this extension's name.
import * as assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import * as vscode from 'vscode';
import type { Authentication } from '../../../src/auth/vscode/register';
import type { Sandbox } from '../../sandbox';
import { startEditorSandbox } from './helpers/editorSandbox';
import { TENANTS, USERS, type SeedUser } from '../../sandbox/seed';
import { driver } from './helpers/driver';

const extensionId = 'tenant-api.tenant-api-workbench';
const providerId = 'tenant-api';
const scopes = ['api'];
const mario = USERS[0];
const laura = USERS[1];

interface TenantRecord { id: string; codiceAmbienteDati: string; descrizioneAmbienteDati: string; clusterAddress: string }

/**
 * VS Code's list of the provider's accounts once it holds `ids`: it follows the provider's change
 * events, and one sign-in or sign-out may fire more than one, so the first one does not say it is done.
 */
async function accountsOnceThey(ids: string[]): Promise<string[]> {
  const listed = async () => (await vscode.authentication.getAccounts(providerId)).map((entry) => entry.id).sort();
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && !isDeepStrictEqual(await listed(), [...ids].sort())) await new Promise((resolve) => setTimeout(resolve, 50));
  return listed();
}

function sessionsChanged(): Promise<void> {
  return new Promise((resolve) => {
    const subscription = vscode.authentication.onDidChangeSessions((event) => {
      if (event.provider.id === providerId) {
        subscription.dispose();
        resolve();
      }
    });
  });
}

describe('getSession as another extension sees it', function () {
  this.timeout(90_000);
  let sandbox: Sandbox;
  let auth: Authentication;
  const config = () => vscode.workspace.getConfiguration('tenantApi');

  async function robotEvents(since = 0): Promise<string> {
    return JSON.stringify((await driver.robot.events(since)).map((event) => `${event.action} ${event.url}`));
  }

  /** The session's token at the sandbox's tenant listing: 200 and exactly the user's tenants. */
  async function assertTokenWorksFor(session: vscode.AuthenticationSession, user: SeedUser): Promise<void> {
    const response = await fetch(`${sandbox.baseUrl}/v10/user-tenants`, {
      headers: { Authorization: `Bearer ${session.accessToken}`, Accept: 'application/json' },
    });
    assert.equal(response.status, 200, `the sandbox refused the token: ${await response.clone().text()}`);
    const tenants = (await response.json()) as TenantRecord[];
    assert.deepEqual(tenants.map((tenant) => tenant.id).sort(), [...user.tenantIds].sort());
    const expected = TENANTS.find((tenant) => tenant.id === user.tenantIds[0])!;
    assert.equal(tenants.find((tenant) => tenant.id === expected.id)?.codiceAmbienteDati, expected.codiceAmbienteDati);
  }

  function assertSessionOf(session: vscode.AuthenticationSession | undefined, user: SeedUser): asserts session is vscode.AuthenticationSession {
    assert.ok(session, `no session for ${user.username}`);
    assert.equal(session.id, user.sub);
    assert.equal(session.account.id, user.sub);
    assert.equal(session.account.label, user.name);
    assert.ok(session.scopes.includes('api'), `scopes: ${session.scopes.join(' ')}`);
    assert.match(session.accessToken, /\S{20,}/);
  }

  before(async function () {
    if (!driver.available()) return this.skip(); // the browser robot and the dialogs need the code-server runner
    const extension = vscode.extensions.getExtension<{ auth: Authentication }>(extensionId);
    assert.ok(extension);
    auth = (await extension.activate()).auth;
    assert.ok(auth, 'activate() returns { auth }');
    // Start with no account, whatever ran before.
    for (const account of await auth.getAccounts()) await auth.signOut(account.id);

    sandbox = await startEditorSandbox(await auth.controller.uriHandlerRedirectUri(), { signInFlow: 'uriHandler', signInTimeoutSeconds: 60 });
  });

  afterEach(async () => {
    if (!driver.available()) return;
    await driver.showDialogs(false);
    auth?.controller.cancel();
    await driver.robot.reset();
    await driver.closePages();
  });

  after(async () => {
    if (!driver.available()) return;
    await driver.showDialogs(false);
    if (auth) for (const account of await auth.getAccounts()) await auth.signOut(account.id);
    for (const name of ['authUrl', 'baseUrl', 'clientId', 'signInFlow', 'signInTimeoutSeconds']) {
      await config().update(name, undefined, vscode.ConfigurationTarget.Global);
    }
    await sandbox?.close();
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  it('with no account: silent gives nothing; createIfNone asks "wants to sign in", signs in through the browser and returns a session the sandbox accepts', async () => {
    assert.equal(await vscode.authentication.getSession(providerId, scopes, { silent: true }), undefined);

    await driver.robot.setCredentials({ username: mario.username, password: mario.password });
    const since = await driver.robot.lastSeq();
    await driver.showDialogs(true);
    let session: vscode.AuthenticationSession | undefined;
    try {
      const pending = vscode.authentication.getSession(providerId, scopes, { createIfNone: true });
      const question = await driver.clickDialogButton('Allow', { timeoutMs: 20_000 });
      assert.match(question, /The extension 'Tenant API Workbench' wants to sign in using Tenant API/);
      session = await pending;
    } finally {
      await driver.showDialogs(false);
    }
    assertSessionOf(session, mario);
    // It really went through the browser: the robot filled the sandbox's form and reached the callback.
    const actions = (await driver.robot.events(since)).map((event) => event.action);
    assert.ok(actions.includes('filledSignIn') && actions.includes('callback'), `robot events: ${await robotEvents(since)}`);
    await assertTokenWorksFor(session, mario);
    // The provider's own view agrees: one account, the same token.
    assert.deepEqual((await auth.getAccounts()).map((account) => account.id), [mario.sub]);
    assert.equal(await auth.getAccessToken(), session.accessToken);

    // Access was allowed: from now on no question, silent or not.
    const silent = await vscode.authentication.getSession(providerId, scopes, { silent: true });
    assertSessionOf(silent, mario);
    assert.equal(silent.accessToken, session.accessToken);
    const plain = await vscode.authentication.getSession(providerId, scopes);
    assertSessionOf(plain, mario);
    // A scope the session was not granted matches nothing.
    assert.equal(await vscode.authentication.getSession(providerId, ['not-granted-scope'], { silent: true }), undefined);
  });

  it('an account signed in through the extension alone is not handed out before the user allows it; createIfNone asks, then returns it', async () => {
    // Laura signs in through the real browser with the extension's own sign-in (not through getSession).
    await driver.robot.setCredentials({ username: laura.username, password: laura.password });
    const added = sessionsChanged();
    const account = await auth.signIn({ forceLogin: true, loginHint: laura.username });
    assert.equal(account?.id, laura.sub, `robot events: ${await robotEvents()}`);
    await added;
    assert.deepEqual(await accountsOnceThey([mario.sub, laura.sub]), [mario.sub, laura.sub].sort());
    const lauraAccount = { id: laura.sub, label: laura.name };

    // Without a choice of account the caller keeps the account it was allowed (Mario), not Laura's.
    const preferred = await vscode.authentication.getSession(providerId, scopes, { silent: true });
    assertSessionOf(preferred, mario);
    // Asking for Laura's account silently: nothing until the user allows it.
    assert.equal(await vscode.authentication.getSession(providerId, scopes, { account: lauraAccount, silent: true }), undefined);

    await driver.showDialogs(true);
    let session: vscode.AuthenticationSession | undefined;
    try {
      const pending = vscode.authentication.getSession(providerId, scopes, { account: lauraAccount, createIfNone: true });
      const question = await driver.clickDialogButton('Allow', { timeoutMs: 20_000 });
      // VS Code 1.100 asks the same question for an existing account, then hands out that session.
      assert.match(question, /The extension 'Tenant API Workbench' wants to sign in using Tenant API/);
      session = await pending;
    } finally {
      await driver.showDialogs(false);
    }
    assertSessionOf(session, laura);
    await assertTokenWorksFor(session, laura);
    assert.equal((await auth.getAccounts()).length, 2, 'no third sign-in happened: the existing session was handed out');

    // Allowed now: silent gives Laura's session.
    const silent = await vscode.authentication.getSession(providerId, scopes, { account: lauraAccount, silent: true });
    assertSessionOf(silent, laura);
    // VS Code also made Laura the caller's preferred account: without a choice of account, Laura now.
    assertSessionOf(await vscode.authentication.getSession(providerId, scopes, { silent: true }), laura);
    // Mario stays allowed for an explicit request.
    assertSessionOf(await vscode.authentication.getSession(providerId, scopes, { account: { id: mario.sub, label: mario.name }, silent: true }), mario);
  });

  it('after sign-out, silent getSession returns undefined', async () => {
    const marioGone = sessionsChanged();
    await vscode.commands.executeCommand('tenantApi.signOut', { accountId: mario.sub });
    await marioGone;
    assert.deepEqual(await accountsOnceThey([laura.sub]), [laura.sub]);
    assert.equal(await vscode.authentication.getSession(providerId, scopes, { account: { id: mario.sub, label: mario.name }, silent: true }), undefined);
    // Laura, signed in and allowed (and the caller's preferred account), is still handed out.
    assertSessionOf(await vscode.authentication.getSession(providerId, scopes, { silent: true }), laura);
    assertSessionOf(await vscode.authentication.getSession(providerId, scopes, { account: { id: laura.sub, label: laura.name }, silent: true }), laura);

    const lauraGone = sessionsChanged();
    await auth.signOut(laura.sub);
    await lauraGone;
    assert.deepEqual(await accountsOnceThey([]), []);
    assert.equal(await vscode.authentication.getSession(providerId, scopes, { account: { id: laura.sub, label: laura.name }, silent: true }), undefined);
    assert.equal(await vscode.authentication.getSession(providerId, scopes, { silent: true }), undefined);
  });
});
