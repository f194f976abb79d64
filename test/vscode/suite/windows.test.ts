// Two windows of the browser editor (two pages: two extension hosts) acting as one client (issue 12):
// bursts sent from both at the same moment stay within the platform's limits at the sandbox, and both
// status bars show the same usage. The second window is driven through the browser only: a keybinding
// (written to the user's keybindings.json, shared by both windows) runs Send Request there, pressed
// several times in a row for a burst.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Sandbox } from '../../sandbox';
import { driver } from './helpers/driver';
import { formatCount, resetSettings, setLicenceKeys, signInAs, signOutEveryone, startWorkbenchSandbox, waitFor } from './helpers/workbench';

const QUOTA_ITEM = '[id="tenant-api.tenant-api-workbench.tenantApi.quota"]';
const BURST_KEY = 'ctrl+alt+shift+f9';
const BURST = 6;
/** A burst: the key pressed BURST times in a row; each press starts a call without waiting for the last. */
async function burst(page: number): Promise<void> {
  for (let i = 0; i < BURST; i++) await driver.press('Control+Alt+Shift+F9', { page });
}

/** The User folder of this run's code-server (the newest run under .vscode-test/runs of the repository). */
function userFolder(): string {
  const runs = path.join(process.env.TENANT_API_TEST_REPO ?? '', '.vscode-test', 'runs');
  const newest = fs
    .readdirSync(runs)
    .map((name) => path.join(runs, name, 'user-data', 'User'))
    .filter((folder) => fs.existsSync(path.join(folder, 'settings.json')))
    .sort((a, b) => fs.statSync(path.join(b, 'settings.json')).mtimeMs - fs.statSync(path.join(a, 'settings.json')).mtimeMs)[0];
  assert.ok(newest, `no code-server user folder under ${runs}`);
  return newest;
}

describe('two windows, one client', function () {
  this.timeout(180_000);
  let sandbox: Sandbox;
  let keybindings: string | undefined;

  before(async function () {
    if (!driver.available() || !process.env.TENANT_API_TEST_REPO) this.skip();
    await signOutEveryone();
    sandbox = await startWorkbenchSandbox({ weeklyLimit: 100_000 });
    await signInAs(sandbox, 'mario.rossi');
    await setLicenceKeys(sandbox, 'org-rossi');
  });

  after(async () => {
    if (keybindings) fs.rmSync(keybindings, { force: true });
    if (driver.available()) await driver.closePages();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await signOutEveryone();
    await resetSettings();
    await sandbox?.close();
  });

  it('bursts from both windows at once: 0 x 429 at the sandbox, at most 5 a second, the same usage in both status bars', async () => {
    const torino = sandbox.tenants.find((candidate) => candidate.codiceAmbienteDati === 'RC-TO')!;
    await vscode.commands.executeCommand('tenantApi.setActiveTenant', torino.id);
    const call = { method: 'GET', path: '/efat/api/v1/ditte', query: { dimensionePagina: 1 }, tenantId: torino.id, preview: false };
    keybindings = path.join(userFolder(), 'keybindings.json');
    fs.writeFileSync(
      keybindings,
      JSON.stringify([{ key: BURST_KEY, command: 'tenantApi.sendRequest', args: call }]),
    );

    // The second window: its extension host starts, and a first burst there activates the extension.
    // The first page's URL without the suite (extensionTestsPath): the second window loads the extension only.
    const url = new URL((await driver.info()).workbenchUrl);
    const payload = (JSON.parse(url.searchParams.get('payload') ?? '[]') as Array<[string, string]>).filter(([name]) => name !== 'extensionTestsPath');
    url.searchParams.set('payload', JSON.stringify(payload));
    const second = await driver.open(url.toString(), { timeoutMs: 60_000 });
    await driver.waitFor('.monaco-workbench', { page: second, timeoutMs: 60_000 });
    const ok = () => sandbox.requests.filter((request) => request.status === 200 && request.path === call.path).length;
    const before = ok();
    await waitFor(
      async () => {
        await burst(second);
        return (await waitFor(() => (ok() > before ? true : undefined), { timeoutMs: 15_000, what: 'a call from the second window' }).catch(() => undefined));
      },
      { timeoutMs: 90_000, what: 'the second window sending (its keybinding loaded, its extension active)' },
    );
    await waitFor(() => (ok() >= before + BURST ? true : undefined), { timeoutMs: 30_000, what: 'the second window\'s first burst' }).catch((error) => {
      throw new Error(`${String(error)}; the sandbox saw: ${sandbox.requests.slice(-12).map((r) => `${r.status} ${r.path} @${r.at % 100000}`).join(', ')}`);
    });

    // Both at once.
    const start = sandbox.requests.length;
    // This window sends its burst directly (as its keybinding would); the second one through its page.
    await Promise.all([burst(second), ...Array.from({ length: BURST }, () => vscode.commands.executeCommand('tenantApi.sendRequest', call))]);
    await waitFor(() => (sandbox.requests.length - start >= 2 * BURST && sandbox.requests.slice(start).every((r) => r.status !== 0) ? true : undefined), {
      timeoutMs: 60_000,
      what: `${2 * BURST} calls from the two windows`,
    }).catch((error) => {
      throw new Error(`${String(error)}; since the bursts the sandbox saw: ${sandbox.requests.slice(start).map((r) => `${r.status} @${r.at % 100000}`).join(', ')}`);
    });
    const seen = sandbox.requests.slice(start);
    assert.equal(seen.filter((request) => request.status === 429).length, 0, `statuses: ${seen.map((r) => r.status).join(' ')}`);
    const times = seen.map((request) => request.at).sort((a, b) => a - b);
    for (let i = 0; i + 5 < times.length; i++) assert.ok(times[i + 5] - times[i] >= 1000, `six calls within ${times[i + 5] - times[i]} ms`);

    const usage = sandbox.usage('org-rossi');
    const expected = `${formatCount(usage.used)}/${formatCount(usage.limit)}`;
    const shown = async (page: 'workbench' | number) => driver.text(QUOTA_ITEM, { page }).catch(() => '');
    const texts = await waitFor(
      async () => {
        const both = [await shown('workbench'), await shown(second)];
        return both.every((text) => text.includes(expected)) ? both : undefined;
      },
      { timeoutMs: 30_000, what: `both status bars showing ${expected}` },
    );
    assert.equal(texts[0], texts[1]);
  });
});
