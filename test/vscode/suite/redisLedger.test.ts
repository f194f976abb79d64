// The editor's rate-limit ledger in Redis: with tenantApi.ledger.url set, a window opened
// after it takes its slots from Redis (a real redis-server this suite starts on a free port), and a
// URL holding a password is refused with a warning the user sees. The other window is driven through
// the browser only: a keybinding (written to the user's keybindings.json) runs Send Request there.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Redis from 'ioredis';
import * as vscode from 'vscode';
import type { Sandbox } from '../../sandbox';
import { APPLICATION_LIMITS } from '../../../src/api/limits';
import { ledgerKeys } from '../../../src/coordination/redis/ledgerKeys';
import { RedisServer } from '../../helpers/redisServer';
import { driver } from './helpers/driver';
import { activateBy, openWindow, userFolder } from './helpers/editorWindows';
import { resetSettings, signOutEveryone, startSignedInAsMario, waitFor } from './helpers/workbench';

const SEND_KEY = 'ctrl+alt+shift+f7';

describe('Redis ledger in the editor', function () {
  this.timeout(180_000);
  let sandbox: Sandbox;
  let redis: RedisServer;
  let admin: Redis;
  let keybindings: string | undefined;

  before(async function () {
    if (!driver.available() || !process.env.TENANT_API_TEST_REPO) this.skip();
    redis = await RedisServer.start();
    admin = new Redis(redis.url);
    sandbox = await startSignedInAsMario({ weeklyLimit: 100_000 });
  });

  after(async () => {
    if (keybindings) fs.rmSync(keybindings, { force: true });
    if (driver.available()) await driver.closePages();
    await vscode.workspace.getConfiguration('tenantApi').update('ledger.url', undefined, vscode.ConfigurationTarget.Global);
    await signOutEveryone();
    await resetSettings();
    admin?.disconnect();
    await redis?.stop();
    await sandbox?.close();
  });

  it('a window opened with tenantApi.ledger.url set logs its calls in Redis; a URL with a password is refused with a warning', async () => {
    const torino = sandbox.tenants.find((candidate) => candidate.codiceAmbienteDati === 'RC-TO')!;
    await vscode.commands.executeCommand('tenantApi.setActiveTenant', torino.id);
    const call = { method: 'GET', path: '/efat/api/v1/ditte', query: { dimensionePagina: 3 }, tenantId: torino.id, preview: false };
    keybindings = path.join(userFolder(), 'keybindings.json');
    fs.writeFileSync(keybindings, JSON.stringify([{ key: SEND_KEY, command: 'tenantApi.sendRequest', args: call }]));
    const settings = vscode.workspace.getConfiguration('tenantApi');
    await settings.update('ledger.url', redis.url, vscode.ConfigurationTarget.Global);
    const { logs } = ledgerKeys(settings.get<string>('authUrl') ?? '', settings.get<string>('clientId') ?? '', APPLICATION_LIMITS);
    assert.equal(await admin.zcard(logs[0]), 0, 'nothing in Redis before');

    const page = await openWindow();
    await activateBy('Control+Alt+Shift+F7', page);
    const sent = () => sandbox.requests.filter((request) => request.status === 200 && request.path === call.path).length;
    const before = sent();
    await waitFor(
      async () => {
        await driver.press('Control+Alt+Shift+F7', { page });
        return waitFor(() => (sent() > before ? true : undefined), { timeoutMs: 15_000, what: 'a call from the new window' }).catch(() => undefined);
      },
      { timeoutMs: 90_000, what: 'the new window sending (its keybinding loaded, its extension active)' },
    );
    const logged = await waitFor(async () => ((await admin.zcard(logs[0])) > 0 ? admin.zcard(logs[0]) : undefined), {
      timeoutMs: 15_000,
      what: "the new window's call in the Redis ledger",
    });
    // Its Send Request, and the window's own calls at its start (the tenant listing).
    assert.ok(logged >= 1, `${logged} calls logged in Redis`);
    for (const key of await admin.keys('*')) assert.doesNotMatch(key, /tenant-api-workbench|127\.0\.0\.1|mario/, 'the keys name nothing of the application or the user');

    // A password in the setting: refused, said to the user, and the window goes on with the local ledger.
    await settings.update('ledger.url', `redis://:not-a-secret-place@127.0.0.1:${redis.port}/0`, vscode.ConfigurationTarget.Global);
    const refused = await openWindow();
    await activateBy('Control+Alt+Shift+F7', refused);
    const sentBefore = sent();
    await waitFor(
      async () => {
        await driver.press('Control+Alt+Shift+F7', { page: refused });
        return waitFor(() => (sent() > sentBefore ? true : undefined), { timeoutMs: 15_000, what: 'a call from the third window' }).catch(() => undefined);
      },
      { timeoutMs: 90_000, what: 'the third window sending with the local ledger' },
    );
    // The toast shows when the extension starts and may have hidden since: the notification center keeps it.
    await driver.click('[id="status.notifications"]', { page: refused });
    const shown = await driver.text({ text: 'must not hold a user name or password', exact: false }, { page: refused, timeoutMs: 15_000 }).catch(async (error) => {
      await driver.screenshot('redis-ledger-refused-window', { page: refused }).catch(() => undefined);
      throw error;
    });
    assert.match(shown, /TENANT_API_LEDGER_PASSWORD/);
    assert.doesNotMatch(shown, /not-a-secret-place/);
  });
});
