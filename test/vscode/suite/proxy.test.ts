// The editor behind a real forward proxy (squid): VS Code's own proxy support (setting http.proxy)
// carries every call of the extension, sign-in included; the extension installs no dispatcher of its
// own. The sandbox's URLs name 127.0.0.2, where nothing listens: the proxy relays them to the sandbox on
// 127.0.0.1, so a call that went around the proxy could not reach it at all. (VS Code never proxies
// 127.0.0.1 and localhost; plain http is allowed to loopback addresses only.) A proxy that cannot be
// reached is named, with Open Settings.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Authentication } from '../../../src/auth/vscode/register';
import type { AccountInfo } from '../../../src/auth/types';
import { startForwardProxy, type ForwardProxy } from '../../helpers/forwardProxy';
import { freePort } from '../../helpers/freePort';
import { FormBrowser } from '../../helpers/signInWithForm';
import { startSandbox, type Sandbox } from '../../sandbox';
import { driver } from './helpers/driver';
import { configure, resetSettings } from './helpers/editorSandbox';
import { endSignInAttempt } from './helpers/signInSuite';
import { extensionExports, setLicenceKeys, waitFor } from './helpers/workbench';

const HOST = '127.0.0.2';
const SETTINGS = ['authUrl', 'baseUrl', 'clientId', 'allowedHosts', 'signInFlow', 'signInTimeoutSeconds'];

interface Summary {
  ok: boolean;
  status?: number;
  error?: { kind: string; message: string };
}

async function setProxy(url: string | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('http').update('proxy', url, vscode.ConfigurationTarget.Global);
}

describe('the editor behind a forward proxy (http.proxy)', function () {
  this.timeout(120_000);
  let sandbox: Sandbox;
  let proxy: ForwardProxy;
  let auth: Authentication;

  before(async function () {
    if (!driver.available()) return this.skip();
    auth = ((await extensionExports()) as { auth?: Authentication }).auth!;
    assert.ok(auth, 'activate() returns { auth }');
    for (const account of await auth.getAccounts()) await auth.signOut(account.id);
    sandbox = await startSandbox({ hostName: HOST, deviceCodeIntervalSeconds: 1 });
    const ports = [sandbox.authUrl, sandbox.baseUrl, ...sandbox.clusterUrls].map((url) => Number(new URL(url).port));
    proxy = await startForwardProxy({ relay: { address: HOST, ports } });
    await setProxy(proxy.url);
    await setLicenceKeys(sandbox, 'org-rossi');
    await configure({ authUrl: sandbox.authUrl, baseUrl: sandbox.baseUrl, clientId: sandbox.clients.public.clientId, allowedHosts: [HOST], signInFlow: 'deviceCode', signInTimeoutSeconds: 60 });
  });

  after(async () => {
    if (!auth) return;
    await endSignInAttempt(auth);
    for (const account of await auth.getAccounts()) await auth.signOut(account.id);
    await setProxy(undefined);
    await resetSettings(SETTINGS);
    await sandbox?.close();
    await proxy?.close();
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  it('signs in with the device code and sends requests, every call through the proxy', async () => {
    const mario = sandbox.users.find((user) => user.username === 'mario.rossi')!;
    const attempt = auth.signIn({ forceLogin: true }).catch((error: unknown) => error);
    const shown = driver.text({ text: 'To sign in, enter the code', exact: false }, { timeoutMs: 30_000 });
    const message = await Promise.race([shown, attempt.then((ended) => Promise.reject(new Error(`the sign-in ended before showing the code: ${String(ended)}`)))]);
    const userCode = /enter the code (\S+) at/.exec(message)?.[1];
    assert.ok(userCode, `no user code in: ${message}`);
    // The person at another device: this fetch is the extension host's, so it takes the proxy too.
    await new FormBrowser().approveDevice(sandbox.endpoints.deviceVerification, mario, userCode);
    const account = (await attempt) as AccountInfo | Error;
    assert.equal((account as AccountInfo).id, mario.sub, String(account));

    const before = sandbox.requests.length;
    const summary = (await vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'GET', path: '/api/configurazioni', preview: false })) as Summary;
    assert.equal(summary.status, 200, JSON.stringify(summary.error));
    assert.ok(sandbox.requests.slice(before).some((request) => request.path.startsWith('/api/configurazioni')));

    // VS Code's proxy agent tunnels every address (CONNECT); squid logs a tunnel when it closes.
    const hosts = [sandbox.authUrl, sandbox.baseUrl].map((url) => new URL(url).host);
    const lines = await proxy.waitForLog((log) => hosts.every((host) => log.some((line) => line.url === host && line.status === 200)), 60_000);
    assert.ok(lines.every((line) => line.url.startsWith(`${HOST}:`)), JSON.stringify(lines));
  });

  it('a proxy that cannot be reached: the notification names it, and Open Settings opens http.proxy', async () => {
    const closed = await freePort();
    await setProxy(`http://127.0.0.1:${closed}`);
    try {
      const summary = (await vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'GET', path: '/api/configurazioni', preview: false })) as Summary;
      assert.equal(summary.error?.kind, 'proxy', JSON.stringify(summary));
      const expected = `The proxy http://127.0.0.1:${closed} could not be reached`;
      assert.ok(summary.error.message.startsWith(expected), summary.error.message);
      await waitFor(async () => (await driver.notifications()).find((text) => text.includes(expected)), { timeoutMs: 20_000, what: 'the notification about the proxy' });
      await driver.clickNotificationButton('Open Settings', { message: expected, timeoutMs: 10_000 });
      await waitFor(() => vscode.window.tabGroups.activeTabGroup.activeTab?.label === 'Settings' || undefined, { what: 'the Settings editor' });
    } finally {
      await setProxy(proxy.url);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });
});
