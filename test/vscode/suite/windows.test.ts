// Two windows of the browser editor (two pages: two extension hosts) acting as one client:
// bursts sent from both at the same moment stay within the platform's limits at the sandbox, and both
// status bars show the same usage; both refreshing the one session at once leave the user signed in.
// The second window is driven through the browser only: keybindings (written to the user's
// keybindings.json, shared by both windows) run Send Request there, pressed several times for a burst.
// The second test opens a third window, which reads the refresh setting it changes at its start.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Sandbox } from '../../sandbox';
import { driver } from './helpers/driver';
import { activateBy, openWindow, userFolder } from './helpers/editorWindows';
import { extensionExports, formatCount, resetSettings, signOutEveryone, startSignedInAsMario, waitFor } from './helpers/workbench';

const QUOTA_ITEM = '[id="tenant-api.tenant-api-workbench.tenantApi.quota"]';
const BURST_KEY = 'ctrl+alt+shift+f9';
const BURST = 6;
/** Sends the other window's marked call (dimensionePagina=2), to tell its calls from the first window's. */
const MARKED_KEY = 'ctrl+alt+shift+f8';
/** A burst: the key pressed BURST times in a row; each press starts a call without waiting for the last. */
async function burst(page: number): Promise<void> {
  for (let i = 0; i < BURST; i++) await driver.press('Control+Alt+Shift+F9', { page });
}

describe('two windows, one client', function () {
  this.timeout(180_000);
  let sandbox: Sandbox;
  let keybindings: string | undefined;

  before(async function () {
    if (!driver.available() || !process.env.TENANT_API_TEST_REPO) this.skip();
    sandbox = await startSignedInAsMario({ weeklyLimit: 100_000 });
  });

  after(async () => {
    if (keybindings) fs.rmSync(keybindings, { force: true });
    if (driver.available()) await driver.closePages();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await signOutEveryone();
    await resetSettings();
    await vscode.workspace.getConfiguration('tenantApi').update('refreshSkewSeconds', undefined, vscode.ConfigurationTarget.Global);
    await sandbox?.close();
  });

  it('bursts from both windows at once: 0 x 429 at the sandbox, at most 5 a second, the same usage in both status bars', async () => {
    const torino = sandbox.tenants.find((candidate) => candidate.codiceAmbienteDati === 'RC-TO')!;
    await vscode.commands.executeCommand('tenantApi.setActiveTenant', torino.id);
    const call = { method: 'GET', path: '/efat/api/v1/ditte', query: { dimensionePagina: 1 }, tenantId: torino.id, preview: false };
    keybindings = path.join(userFolder(), 'keybindings.json');
    fs.writeFileSync(
      keybindings,
      JSON.stringify([
        { key: BURST_KEY, command: 'tenantApi.sendRequest', args: call },
        { key: MARKED_KEY, command: 'tenantApi.sendRequest', args: { ...call, query: { dimensionePagina: 2 } } },
      ]),
    );

    // The second window: its extension host starts, and a first burst there activates the extension.
    const second = await openWindow();
    await activateBy('Control+Alt+Shift+F9', second);
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

  it('both windows refreshing the one session at once: every refresh token used once, the user stays signed in in both', async () => {
    assert.ok(keybindings, 'runs after the first test, which wrote the keybindings');
    const torino = sandbox.tenants.find((candidate) => candidate.codiceAmbienteDati === 'RC-TO')!;
    const marked = (request: { url: string }) => new URL(request.url, sandbox.baseUrl).searchParams.get('dimensionePagina') === '2';
    const call = { method: 'GET', path: '/efat/api/v1/ditte', query: { dimensionePagina: 1 }, tenantId: torino.id, preview: false };
    const start = sandbox.requests.length;
    const refreshesBefore = sandbox.refreshes.length;
    // Tokens live 300 s: with a skew of 299 s every window finds its token due for a refresh at once,
    // and again a second after each refresh. This window applies the setting at once; a window opened
    // now reads it at its start (one already open may take a while to see the change).
    await vscode.workspace.getConfiguration('tenantApi').update('refreshSkewSeconds', 299, vscode.ConfigurationTarget.Global);
    const other = await openWindow();
    await activateBy('Control+Alt+Shift+F8', other);
    const markedOk = () => sandbox.requests.filter((request) => marked(request) && request.status === 200).length;
    await waitFor(
      async () => {
        await driver.press('Control+Alt+Shift+F8', { page: other });
        return waitFor(() => (markedOk() > 0 ? true : undefined), { timeoutMs: 15_000, what: 'a call from the new window' }).catch(() => undefined);
      },
      { timeoutMs: 90_000, what: 'the new window sending (its keybinding loaded, its extension active)' },
    ).catch(async (error) => {
      await driver.screenshot('windows-refresh-new-window', { page: other }).catch(() => undefined);
      throw error;
    });

    for (let round = 1; round <= 3; round++) {
      const from = sandbox.requests.length;
      const [, ...here] = await Promise.all([
        (async () => {
          for (let i = 0; i < 3; i++) await driver.press('Control+Alt+Shift+F8', { page: other });
        })(),
        ...Array.from({ length: 3 }, () => vscode.commands.executeCommand<{ ok: boolean; error?: { message: string } } | undefined>('tenantApi.sendRequest', call)),
      ]);
      const outcomes = JSON.stringify(here.map((summary) => (summary?.ok ? 'ok' : (summary?.error?.message ?? String(summary)))));
      const calls = await waitFor(
        () => {
          const seen = sandbox.requests.slice(from).filter((request) => request.status !== 0 && request.path === call.path);
          return seen.filter(marked).length >= 3 && seen.filter((request) => !marked(request)).length >= 3 ? seen : undefined;
        },
        { timeoutMs: 60_000, what: `round ${round}: 3 calls from each window` },
      ).catch(async (error) => {
        await driver.screenshot(`windows-refresh-round-${round}`, { page: other }).catch(() => undefined);
        throw new Error(`${String(error)}; this window's calls ended ${outcomes}; the sandbox saw ${sandbox.requests.slice(from).map((r) => `${r.status} ${r.path} ${marked(r) ? 'second' : 'first'}`).join(', ')}; refreshes ${JSON.stringify(sandbox.refreshes.slice(refreshesBefore))}`);
      });
      assert.deepEqual(
        calls.map((request) => `${marked(request) ? 'second' : 'first'} ${request.status}`).filter((text) => !text.endsWith(' 200')),
        [],
        `round ${round}: a call was not answered 200; refreshes ${JSON.stringify(sandbox.refreshes.slice(refreshesBefore))}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 1500)); // the tokens are due again
    }
    const refreshes = sandbox.refreshes.slice(refreshesBefore);
    assert.ok(refreshes.length >= 3, `the windows refreshed (${refreshes.length} refreshes)`);
    assert.deepEqual(refreshes.filter((refresh) => !refresh.ok), [], 'no refresh was refused: no refresh token was sent twice');
    // Both windows used the same new tokens, not one each: their last calls carried one bearer token.
    const last = sandbox.requests.slice(start).filter((request) => request.status === 200);
    const bearer = (request: (typeof last)[number]) => request.headers.authorization;
    assert.ok(last.some(marked) && last.some((request) => !marked(request)));
    assert.ok(
      last.filter(marked).some((request) => last.some((other) => !marked(other) && bearer(other) === bearer(request))),
      'the two windows shared an access token at least once (one window adopted the other\'s refresh)',
    );
    const { auth } = (await extensionExports()) as { auth?: { getAccounts(): Promise<Array<{ id: string }>> } };
    assert.equal((await auth!.getAccounts()).length, 1, 'this window is still signed in (the other one answered 200 to its last calls)');
  });
});
