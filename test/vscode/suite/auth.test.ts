// Sign-in inside a real VS Code against the sandbox: the real browser (the runner's robot fills the
// sandbox's form), the redirect back through the extension's UriHandler, sessions in SecretStorage.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Authentication } from '../../../src/auth/vscode/register';
import { SESSION_KEY_PREFIX, type StoredSession } from '../../../src/auth/sessionStore';
import { TokenClient } from '../../../src/auth/tokenClient';
import type { AccountInfo } from '../../../src/auth/types';
import { silentLogger } from '../../../src/common/logger';
import type { Sandbox } from '../../sandbox';
import { startEditorSandbox } from './helpers/editorSandbox';
import { USERS } from '../../sandbox/seed';
import { FormBrowser } from '../../helpers/signInWithForm';
import { driver } from './helpers/driver';
import { endSignInAttempt } from './helpers/signInSuite';

const extensionId = 'tenant-api.tenant-api-workbench';
const mario = USERS[0];
const laura = USERS[1];

/** The suite is bundled apart from the extension: its error classes are other copies, so compare names. */
function isError(value: unknown, name: string): value is Error {
  return value instanceof Error && value.name === name;
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('sign-in inside VS Code', function () {
  this.timeout(90_000);
  let sandbox: Sandbox;
  let auth: Authentication;
  const config = () => vscode.workspace.getConfiguration('tenantApi');

  async function robotEvents(): Promise<string> {
    return driver.available() ? JSON.stringify(await driver.robot.events()) : 'no driver';
  }

  before(async function () {
    if (!driver.available()) return this.skip(); // the browser robot needs the code-server runner
    const extension = vscode.extensions.getExtension<{ auth: Authentication }>(extensionId);
    assert.ok(extension);
    auth = (await extension.activate()).auth;
    assert.ok(auth, 'activate() returns { auth }');

    // What this editor yields as the redirect URI: vscode://... on desktop; in a browser-hosted
    // editor its own /callback?vscode-reqid=... page, which the sandbox accepts through a dev prefix.
    sandbox = await startEditorSandbox(await auth.controller.uriHandlerRedirectUri(), { signInFlow: 'uriHandler', signInTimeoutSeconds: 60 });
  });

  after(async () => {
    if (!auth) return;
    for (const account of await auth.getAccounts()) await auth.signOut(account.id);
    for (const name of ['authUrl', 'baseUrl', 'clientId', 'signInFlow', 'signInTimeoutSeconds']) {
      await config().update(name, undefined, vscode.ConfigurationTarget.Global);
    }
    await sandbox?.close();
    // Leave no sign-in notification behind for the suites that follow.
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  afterEach(async () => {
    if (driver.available()) await endSignInAttempt(auth);
  });

  it('signs in end to end: real browser, sandbox form, redirect to the UriHandler; the provider returns the session', async () => {
    await driver.robot.setCredentials({ username: mario.username, password: mario.password });
    const changed = new Promise<void>((resolve) => {
      const subscription = vscode.authentication.onDidChangeSessions((event) => {
        if (event.provider.id === 'tenant-api') {
          subscription.dispose();
          resolve();
        }
      });
    });
    const account = await vscode.commands.executeCommand<AccountInfo | undefined>('tenantApi.signIn');
    assert.ok(account, `sign-in did not complete; robot events: ${await robotEvents()}`);
    assert.equal(account.id, mario.sub);
    assert.equal(account.label, mario.name);
    await changed;

    // VS Code lists the account of the registered provider: its list follows the change events (a sign-in
    // may fire more than one), so its state is waited for, not the first event.
    await until(async () => (await vscode.authentication.getAccounts('tenant-api')).length > 0, 10_000, 'VS Code\'s list of accounts to hold the account');
    const accounts = await vscode.authentication.getAccounts('tenant-api');
    assert.deepEqual(accounts.map((entry) => entry.id), [mario.sub]);
    // What vscode.authentication.getSession hands to an extension once the user allowed it (VS Code asks
    // with a modal dialog, which it refuses to show under test): the provider's sessions for the scopes.
    const [session] = await auth.provider.getSessions(['api'], {});
    assert.ok(session, 'the provider returns the session for the api scope');
    assert.deepEqual(await auth.provider.getSessions(['not-granted-scope'], {}), []);
    assert.equal(session.account.id, mario.sub);
    assert.equal(session.account.label, 'Mario Rossi');
    const tenants = await fetch(`${sandbox.baseUrl}/v10/user-tenants`, { headers: { Authorization: `Bearer ${session.accessToken}`, Accept: 'application/json' } });
    assert.equal(tenants.status, 200, 'the token works at the resource API');
    assert.equal(auth.activeAccount()?.id, mario.sub);
    assert.equal(await auth.getAccessToken(), session.accessToken);
    // Only in SecretStorage, under the documented key.
    const stored = JSON.parse((await auth.secrets.get(SESSION_KEY_PREFIX + mario.sub)) ?? '{}') as StoredSession;
    assert.equal(stored.accessToken, session.accessToken);
    assert.ok(stored.refreshToken);
  });

  it("picks up a refresh done by another window (SecretStorage write), and refreshes from there", async () => {
    const before = JSON.parse((await auth.secrets.get(SESSION_KEY_PREFIX + mario.sub))!) as StoredSession;
    // The other window refreshes with the shared refresh token and stores the rotated tokens.
    const otherWindow = new TokenClient({ authUrl: sandbox.authUrl, clientId: sandbox.clients.public.clientId, fetch, logger: silentLogger });
    const tokens = await otherWindow.refresh(before.refreshToken!);
    const written: StoredSession = { ...before, accessToken: tokens.access_token, refreshToken: tokens.refresh_token, expiresAt: Date.now() + 300_000, updatedAt: Date.now() };
    const changed = new Promise<vscode.AuthenticationSessionsChangeEvent>((resolve) => {
      const subscription = vscode.authentication.onDidChangeSessions((event) => {
        if (event.provider.id === 'tenant-api') {
          subscription.dispose();
          resolve(event);
        }
      });
    });
    await auth.secrets.store(SESSION_KEY_PREFIX + mario.sub, JSON.stringify(written));
    await changed;
    await until(async () => (await auth.getAccessToken()) === tokens.access_token, 5000, 'the other window\'s token');
    const [session] = await auth.provider.getSessions(['api'], {});
    assert.equal(session?.accessToken, tokens.access_token);
    // Our next refresh uses the other window's (rotated) refresh token: the old one would be refused.
    const refreshed = await auth.getAccessToken({ forceRefresh: true });
    assert.notEqual(refreshed, tokens.access_token);
    assert.equal((await auth.getAccounts()).length, 1, 'still signed in');
  });

  it('a forged callback with a wrong state signs no one in; the attempt keeps waiting', async () => {
    await driver.robot.ignore();
    const attempt = auth.signIn({ forceLogin: true, loginHint: laura.username }).catch((error: unknown) => error);
    await until(() => auth.pending.size === 1, 15_000, 'the pending attempt');
    const forged = vscode.Uri.parse(`${vscode.env.uriScheme}://${extensionId}/auth-callback?code=forged-code&state=forged-state`);
    auth.handleUri(forged);
    // The same forged answer through the real path: the browser loads this editor's callback URL.
    const external = await auth.controller.uriHandlerRedirectUri();
    const url = new URL(external);
    url.searchParams.set('code', 'forged-code');
    url.searchParams.set('state', 'forged-state');
    if (url.protocol.startsWith('http')) await driver.open(url.toString());
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(auth.pending.size, 1, `the real attempt is still waiting (it ended with: ${String(await Promise.race([attempt, Promise.resolve('still running')]))})`);
    assert.deepEqual((await auth.getAccounts()).map((account) => account.id), [mario.sub], 'no one else signed in');
    auth.controller.cancel();
    assert.ok(isError(await attempt, 'SignInCancelledError'));
  });

  it('a cancelled attempt frees its pending state and signs no one in', async () => {
    await driver.robot.ignore();
    // Older toasts could push this one out of sight: only the sign-in's progress notification is shown.
    await vscode.commands.executeCommand('notifications.clearAll');
    const attempt = auth.signIn({ forceLogin: true }).catch((error: unknown) => error);
    await until(() => auth.pending.size === 1, 15_000, 'the pending attempt');
    // The notification's Cancel button, clicked in the real workbench: nothing else cancels here.
    const toast = '.notifications-toasts .notification-list-item:has-text("Signing in to Tenant API")';
    await driver.waitFor(toast, { timeoutMs: 15_000 });
    await driver.click(`${toast} .monaco-button:has-text("Cancel")`, { timeoutMs: 10_000 });
    const error = await Promise.race([attempt, new Promise((resolve) => setTimeout(resolve, 15_000, 'still waiting 15 s after the click'))]);
    assert.ok(isError(error, 'SignInCancelledError'), String(error));
    assert.equal(auth.pending.size, 0);
    assert.equal(auth.controller.attemptInProgress, false);
    assert.equal((await auth.getAccounts()).length, 1);
  });

  it('an attempt times out with a clear message', async () => {
    await driver.robot.ignore();
    await config().update('signInTimeoutSeconds', 3, vscode.ConfigurationTarget.Global);
    try {
      const started = Date.now();
      const error = await auth.signIn({ forceLogin: true }).catch((caught: unknown) => caught);
      assert.ok(isError(error, 'SignInTimeoutError'), String(error));
      assert.match(error.message, /3 seconds/);
      assert.ok(Date.now() - started >= 2900);
      assert.equal(auth.pending.size, 0);
    } finally {
      await config().update('signInTimeoutSeconds', 60, vscode.ConfigurationTarget.Global);
    }
  });

  it('loopback flow: the browser comes back to 127.0.0.1 on a random port of the extension host', async () => {
    await config().update('signInFlow', 'loopback', vscode.ConfigurationTarget.Global);
    try {
      await driver.robot.setCredentials({ username: laura.username, password: laura.password });
      const since = await driver.robot.lastSeq();
      const account = await auth.signIn({ forceLogin: true, loginHint: laura.username });
      assert.equal(account?.id, laura.sub, `robot events: ${JSON.stringify(await driver.robot.events(since))}`);
      assert.deepEqual((await auth.getAccounts()).map((entry) => entry.id).sort(), [mario.sub, laura.sub].sort());
      // The browser landed on the extension host's one-shot server.
      let landed: string | undefined;
      await until(async () => {
        landed = (await driver.robot.events(since)).map((event) => event.url).find((url) => /\/auth-callback\?/.test(url));
        return landed !== undefined;
      }, 5000, 'the robot to report the callback page').catch(() => undefined);
      assert.match(landed ?? '', /^http:\/\/127\.0\.0\.1:\d+\/auth-callback\?/);
      await auth.signOut(laura.sub);
      assert.deepEqual((await auth.getAccounts()).map((entry) => entry.id), [mario.sub]);
    } finally {
      if ((await auth.getAccounts()).some((entry) => entry.id === laura.sub)) await auth.signOut(laura.sub);
      await config().update('signInFlow', 'uriHandler', vscode.ConfigurationTarget.Global);
    }
  });

  it('auto: when the browser redirect times out, the device code is offered and signs in', async () => {
    await driver.robot.ignore();
    await config().update('signInFlow', 'auto', vscode.ConfigurationTarget.Global);
    await config().update('signInTimeoutSeconds', 12, vscode.ConfigurationTarget.Global);
    try {
      const attempt = auth.signIn({ forceLogin: true }).catch((error: unknown) => error);
      // In a browser-hosted editor auto tries the redirect, then the device code (loopback cannot work here).
      await driver.click({ text: 'Try device code', exact: true }, { timeoutMs: 40_000 });
      const message = await driver.text({ text: 'To sign in, enter the code', exact: false }, { timeoutMs: 15_000 });
      const userCode = /enter the code (\S+) at/.exec(message)?.[1];
      assert.ok(userCode, `no user code in: ${message}`);
      // The user types the code on another device.
      await new FormBrowser().approveDevice(sandbox.endpoints.deviceVerification, laura, userCode);
      const account = (await attempt) as AccountInfo | Error;
      assert.equal((account as AccountInfo).id, laura.sub, String(account));
    } finally {
      if ((await auth.getAccounts()).some((entry) => entry.id === laura.sub)) await auth.signOut(laura.sub);
      await config().update('signInFlow', 'uriHandler', vscode.ConfigurationTarget.Global);
      await config().update('signInTimeoutSeconds', 60, vscode.ConfigurationTarget.Global);
    }
  });

  it('the "Tenant API" log tells the sign-in steps and holds no token, code, state or verifier', async () => {
    const { repoRoot } = await driver.info();
    // This editor's user-data-dir (several editors run at once), else every run's.
    const runs = process.env.TENANT_API_TEST_USER_DATA ?? path.join(repoRoot, '.vscode-test', 'runs');
    const logs = fs.readdirSync(runs, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('Tenant API.log'))
      .map((name) => path.join(runs, name))
      .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
    assert.ok(logs.length > 0, `no "Tenant API" log under ${runs}`);
    let text = '';
    await until(() => (text = fs.readFileSync(logs[0], 'utf8')).includes('Signed in as'), 10_000, 'the log to be written');
    assert.match(text, /Sign-in started \(uriHandler/);
    assert.match(text, /redirect_uri/);
    const stored = JSON.parse((await auth.secrets.get(SESSION_KEY_PREFIX + mario.sub)) ?? '{}') as Partial<StoredSession>;
    for (const secret of [stored.accessToken, stored.refreshToken, stored.idToken]) {
      if (secret) assert.ok(!text.includes(secret), 'a token reached the log');
    }
    assert.doesNotMatch(text, /eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\./, 'a JWT reached the log');
    assert.doesNotMatch(text, /[?&](code|state|code_verifier|refresh_token|access_token)=(?!\[redacted)/, 'a secret query parameter reached the log');
  });

  it('sign-out removes the session from SecretStorage and from getSession', async () => {
    const removed = new Promise<void>((resolve) => {
      const subscription = vscode.authentication.onDidChangeSessions((event) => {
        if (event.provider.id === 'tenant-api') {
          subscription.dispose();
          resolve();
        }
      });
    });
    await vscode.commands.executeCommand('tenantApi.signOut', { accountId: mario.sub });
    await removed;
    assert.equal(await auth.secrets.get(SESSION_KEY_PREFIX + mario.sub), undefined);
    assert.deepEqual(await auth.provider.getSessions(['api'], {}), []);
    // VS Code's own list follows the change events (a sign-out may fire more than one): its state, not the first.
    await until(async () => (await vscode.authentication.getAccounts('tenant-api')).length === 0, 10_000, 'VS Code\'s list of accounts to empty');
    assert.deepEqual(await vscode.authentication.getAccounts('tenant-api'), []);
    assert.deepEqual(await auth.getAccounts(), []);
  });
});
