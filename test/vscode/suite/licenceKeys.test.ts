// Licence key commands inside a real VS Code: scripted arguments stand in for the quick pick and the
// masked input box; the key lands in the editor's SecretStorage through src/api's LicenceKeyStore.
// Resuming an organization runs against the sandbox: a weekly 429 stops it, the command sends again.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { driver } from './helpers/driver';
import { extensionExports, resetSettings, setLicenceKeys, signInAs, signOutEveryone, startWorkbenchSandbox } from './helpers/workbench';

interface Summary {
  status?: number;
  error?: { kind: string; message: string };
}

interface StoredKeys {
  get(module: string): Promise<{ key: string; label: string; organization: string } | undefined>;
  clear(module: string): Promise<void>;
}

async function licenceKeys(): Promise<StoredKeys> {
  const exports = (await extensionExports()) as { licenceKeys?: StoredKeys };
  assert.ok(exports.licenceKeys, 'activate() must return { licenceKeys } (src/api LicenceKeyStore)');
  return exports.licenceKeys;
}

describe('licence key commands', function () {
  this.timeout(30_000);

  after(async () => {
    await (await licenceKeys()).clear('efat');
  });

  it('sets a key with its label and organization', async () => {
    const set = await vscode.commands.executeCommand('tenantApi.setLicenceKey', {
      module: 'efat',
      key: 'TESTEFAT1234',
      label: 'Test efat',
      organization: 'Test S.r.l.',
    });
    assert.equal(set, true);
    assert.deepEqual(await (await licenceKeys()).get('efat'), { module: 'efat', key: 'TESTEFAT1234', label: 'Test efat', organization: 'Test S.r.l.' });
  });

  it('refuses a malformed key and an unknown module, keeping the stored key', async () => {
    assert.equal(await vscode.commands.executeCommand('tenantApi.setLicenceKey', { module: 'efat', key: 'has spaces', label: 'x', organization: 'y' }), false);
    assert.equal(await vscode.commands.executeCommand('tenantApi.setLicenceKey', { module: 'nope', key: 'ABC', label: 'x', organization: 'y' }), false);
    assert.equal((await (await licenceKeys()).get('efat'))?.key, 'TESTEFAT1234');
  });

  it('clears a key', async () => {
    assert.equal(await vscode.commands.executeCommand('tenantApi.clearLicenceKey', { module: 'efat' }), true);
    assert.equal(await (await licenceKeys()).get('efat'), undefined);
  });

  it('resumes an organization named by the caller: stopped by a weekly 429, its calls are sent again', async function () {
    if (!driver.available()) return this.skip(); // signing in needs the browser robot (code-server runner)
    this.timeout(120_000);
    // A weekly limit of 2 for every organization of the sandbox.
    const sandbox = await startWorkbenchSandbox({ weeklyLimit: 2 });
    try {
      await signInAs(sandbox, 'mario.rossi');
      await setLicenceKeys(sandbox, 'org-rossi');
      const organization = sandbox.organizations.find((candidate) => candidate.id === 'org-rossi')!.name;
      const send = (extra: Record<string, unknown> = {}) =>
        vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'GET', path: '/api/configurazioni', preview: false, ...extra }) as Thenable<Summary>;
      const sent = () => sandbox.requests.filter((request) => request.path === '/api/configurazioni');

      for (let call = 0; call < 2; call++) assert.equal((await send()).status, 200);
      // The quota is used up; sent anyway, the sandbox answers a weekly 429 and the organization is stopped.
      const refused = await send({ sendOverQuota: true });
      assert.equal(refused.status, 429, JSON.stringify(refused));
      assert.equal(refused.error?.kind, 'weeklyQuota', JSON.stringify(refused));
      assert.equal(sent().at(-1)?.status, 429);
      // A new week at the server: the stop still holds until the user resumes.
      sandbox.resetLimits();
      const before = sent().length;
      const stopped = await send();
      assert.equal(stopped.error?.kind, 'weeklyQuota', JSON.stringify(stopped));
      assert.equal(sent().length, before, 'a stopped organization\'s call was sent');

      assert.equal(await vscode.commands.executeCommand('tenantApi.resumeOrganization', organization), true);
      const resumed = await send();
      assert.equal(resumed.status, 200, `after resuming: ${JSON.stringify(resumed)}`);
      assert.equal(sent().length, before + 1, 'the call after resuming reached the server');
      assert.equal(sent().at(-1)?.status, 200);
    } finally {
      await signOutEveryone();
      await resetSettings();
      await sandbox.close();
      for (const key of sandbox.licenceKeys.filter((candidate) => candidate.organizationId === 'org-rossi')) await (await licenceKeys()).clear(key.module);
      await vscode.commands.executeCommand('notifications.clearAll');
    }
  });
});
