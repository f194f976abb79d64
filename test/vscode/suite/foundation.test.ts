// The foundation of the in-editor suite: the extension loads in a real VS Code, contributes what it
// says it does, and the runner's browser (screenshots, sign-in robot) can be driven from a test.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { driver, driverVariable } from './helpers/driver';
import { startStandInSignIn, type StandInSignIn } from './helpers/standInSignIn';
import { startSandbox, type Sandbox } from '../../sandbox';

const extensionId = 'tenant-api.tenant-api-workbench';

describe('foundation', () => {
  it('finds and activates the extension', async () => {
    const extension = vscode.extensions.getExtension(extensionId);
    assert.ok(extension, `extension ${extensionId} is not loaded`);
    await extension.activate();
    assert.equal(extension.isActive, true);
  });

  it('registers every command that package.json contributes', async () => {
    const extension = vscode.extensions.getExtension(extensionId);
    assert.ok(extension);
    await extension.activate();
    const contributed: string[] = (extension.packageJSON.contributes?.commands ?? []).map((entry: { command: string }) => entry.command);
    assert.ok(contributed.length > 0, 'package.json contributes no commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((command) => !registered.has(command));
    assert.deepEqual(missing, [], `contributed in package.json but not registered: ${missing.join(', ')}`);
  });

  // A figure for the note, not a timed assertion (speed targets belong in benchmarks): the target is 20 ms.
  it("reports activate()'s own time, and activates on demand, not at start-up", async () => {
    const extension = vscode.extensions.getExtension<{ activationMs?: number }>(extensionId);
    assert.ok(extension);
    const { activationMs } = await extension.activate();
    assert.ok(typeof activationMs === 'number' && Number.isFinite(activationMs) && activationMs >= 0, `activationMs: ${activationMs}`);
    console.log(`    activate() took ${activationMs.toFixed(1)} ms (target: under 20 ms)`);
    const events: string[] = extension.packageJSON.activationEvents ?? [];
    assert.ok(!events.includes('*') && !events.includes('onStartupFinished'), `activation events: ${events.join(', ')}`);
  });

  it('saves a screenshot of the workbench', async function () {
    if (!driver.available()) return this.skip(); // test:electron has no driver
    const file = await driver.screenshot('workbench');
    const header = fs.readFileSync(file).subarray(0, 8);
    assert.deepEqual([...header], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${file} is not a PNG`);
    assert.ok(fs.statSync(file).size > 10_000, `${file} is suspiciously small`);
  });
});

describe('test driver (code-server runner)', () => {
  let standIn: StandInSignIn | undefined;

  before(function () {
    if (!driver.available()) this.skip();
  });

  afterEach(async () => {
    await standIn?.close();
    standIn = undefined;
    if (driver.available()) {
      await driver.robot.reset();
      await driver.closePages();
    }
  });

  it('passes the runner environment to the extension host', async () => {
    assert.match(process.env[driverVariable] ?? '', /^http:\/\/127\.0\.0\.1:\d+\//);
    const info = await driver.info();
    assert.equal(info.vscodeVersion, vscode.version);
  });

  it('signs in on a page opened with openExternal: form, consent, redirect', async () => {
    standIn = await startStandInSignIn();
    await driver.robot.setCredentials({ username: 'robot-user', password: 'robot-pass' });
    const since = await driver.robot.lastSeq();
    // A redirect_uri with a query of its own, as code-server's callback URL has: it must arrive intact.
    const redirectUri = 'http://127.0.0.1:1/callback?vscode-reqid=1&vscode-scheme=code-oss';
    const authorize = `${standIn.url}/connect/authorize?client_id=x&state=s1&redirect_uri=${encodeURIComponent(redirectUri)}`;
    // A string, not a Uri: VS Code re-encodes a Uri's query on the way to the browser (see README).
    const opened = await vscode.env.openExternal(authorize as unknown as vscode.Uri);
    assert.equal(opened, true);
    const query = await withTimeout(standIn.done, 30_000, async () => `robot events: ${JSON.stringify(await driver.robot.events(since))}`);
    assert.equal(query.get('state'), 's1');
    assert.equal(standIn.authorizeQueries[0]?.get('redirect_uri'), redirectUri);
    assert.deepEqual(standIn.logins, [{ username: 'robot-user', password: 'robot-pass' }]);
    assert.equal(standIn.consents, 1);
    const actions = (await driver.robot.events(since)).map((event) => event.action);
    assert.ok(actions.includes('filledSignIn') && actions.includes('approvedConsent'), `robot actions: ${actions.join(', ')}`);
  });

  it("goes around code-server's port proxy to the sign-in page itself", async () => {
    standIn = await startStandInSignIn();
    await driver.robot.setCredentials({ username: 'proxy-user', password: 'proxy-pass' });
    const since = await driver.robot.lastSeq();
    const codeServer = new URL((await driver.info()).workbenchUrl).origin;
    await driver.open(`${codeServer}/proxy/${standIn.port}/connect/authorize?client_id=x&state=s2`);
    await driver.robot.waitFor('proxyRewrite', { since, timeoutMs: 30_000 });
    const query = await withTimeout(standIn.done, 30_000, async () => `robot events: ${JSON.stringify(await driver.robot.events(since))}`);
    assert.equal(query.get('state'), 's2');
    assert.deepEqual(standIn.logins, [{ username: 'proxy-user', password: 'proxy-pass' }]);
  });

  it('clicks a button on a notification', async () => {
    const answer = vscode.window.showInformationMessage('Tenant API driver check', 'Later', 'Go');
    await driver.clickNotificationButton('Go', { message: 'Tenant API driver check' });
    assert.equal(await answer, 'Go');
  });

  it('refuses modal dialogs by default, as VS Code does in test runs', async () => {
    await assert.rejects(
      Promise.resolve(vscode.window.showInformationMessage('Tenant API driver check', { modal: true }, 'Allow')),
      /refused to show dialog in tests/,
    );
  });

  it('shows modal dialogs when asked, and clicks their buttons', async () => {
    await driver.showDialogs(true);
    try {
      const answer = vscode.window.showInformationMessage('Tenant API driver check', { modal: true }, 'Allow', 'Later');
      const message = await driver.clickDialogButton('Allow');
      assert.equal(message, 'Tenant API driver check');
      assert.equal(await answer, 'Allow');
    } finally {
      await driver.showDialogs(false);
    }
  });

  it('leaves the sign-in page alone in ignore mode', async () => {
    standIn = await startStandInSignIn();
    await driver.robot.setCredentials({ username: 'u', password: 'p' });
    await driver.robot.ignore();
    const since = await driver.robot.lastSeq();
    await driver.open(`${standIn.url}/connect/authorize?state=s3`);
    await driver.robot.waitFor('ignored', { since, timeoutMs: 15_000 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(standIn.logins, []);
  });
});

describe('sign-in robot on the sandbox pages', () => {
  let sandbox: Sandbox | undefined;

  before(async function () {
    if (!driver.available()) return this.skip();
    sandbox = await startSandbox({ deviceCodeIntervalSeconds: 1 });
  });

  after(async () => {
    await sandbox?.close();
    if (driver.available()) {
      await driver.robot.reset();
      await driver.closePages();
    }
  });

  it('types the device code, confirms and signs in: the device code grant then issues tokens', async () => {
    assert.ok(sandbox);
    const form = (fields: Record<string, string>) => ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    const clientId = sandbox.clients.public.clientId;
    const authorization = await fetch(`${sandbox.authUrl}/connect/deviceauthorization`, form({ client_id: clientId, scope: `openid profile ${sandbox.apiScope}` }));
    assert.equal(authorization.status, 200, await authorization.clone().text());
    const device = (await authorization.json()) as { device_code: string; user_code: string; verification_uri: string };
    const user = sandbox.users[0];
    await driver.robot.setCredentials({ username: user.username, password: user.password });
    const since = await driver.robot.lastSeq();
    await driver.open(device.verification_uri);
    // As in a real test, the code may only be known after the page opened: the robot waits for it.
    await driver.robot.waitFor('needUserCode', { since, timeoutMs: 15_000 });
    await driver.robot.setUserCode(device.user_code);
    let token: Response | undefined;
    for (let attempt = 0; attempt < 30; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      token = await fetch(`${sandbox.authUrl}/connect/token`, form({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: device.device_code, client_id: clientId }));
      if (token.status === 200) break;
    }
    const actions = (await driver.robot.events(since)).map((event) => event.action);
    assert.equal(token?.status, 200, `no tokens; robot actions: ${actions.join(', ')}; last answer: ${await token?.text()}`);
    assert.ok(actions.includes('filledUserCode') && actions.includes('filledSignIn'), `robot actions: ${actions.join(', ')}`);
  });
});

async function withTimeout<T>(promise: Promise<T>, ms: number, describe: () => Promise<string>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => void describe().then((detail) => reject(new Error(`timed out after ${ms} ms; ${detail}`))), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
