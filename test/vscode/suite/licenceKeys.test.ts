// Licence key commands inside a real VS Code: scripted arguments stand in for the quick pick and the
// masked input box; the key lands in the editor's SecretStorage through src/api's LicenceKeyStore.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { extensionExports } from './helpers/workbench';

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

  it('resumes an organization named by the caller', async () => {
    assert.equal(await vscode.commands.executeCommand('tenantApi.resumeOrganization', 'Test S.r.l.'), true);
  });
});
