// Set Licence Key as a new user runs it, in a real VS Code against the sandbox:
// from the command palette it asks only the key (masked) and an optional label, then whose licence it
// is among names the user knows (the organizations of the other keys, the user's tenants), "Other…"
// last; the calls made with the keys are counted against the organization picked, one for both keys.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { driver } from './helpers/driver';
import { signInSuite } from './helpers/signInSuite';
import { waitForRowsHolding } from './helpers/quickInput';
import { extensionExports, formatCount, signInAs, signOutEveryone, waitFor, workbenchApi } from './helpers/workbench';

const WIDGET = '.quick-input-widget';
const LIST = `${WIDGET} .quick-input-list`;
const ROW = `${LIST} .monaco-list-row`;

interface Summary {
  status?: number;
  error?: { kind: string; message: string };
}

describe('Set Licence Key from the palette: the key, a label, and the organization picked by name', function () {
  this.timeout(180_000);
  const suite = signInSuite({ signInFlow: 'uriHandler' }, async (sandbox) => {
    for (const module of sandbox.modules) await (await keys()).clear(module.id);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  // Keys an earlier suite stored (its after() leaves them) would be the organizations offered here.
  before(async function () {
    if (!driver.available()) return;
    for (const module of suite.sandbox.modules) await (await keys()).clear(module.id);
  });

  async function keys() {
    const store = (await extensionExports()).licenceKeys;
    assert.ok(store, 'activate() returns { licenceKeys }');
    return store;
  }
  const sandboxKey = (module: string) => suite.sandbox.licenceKeys.find((key) => key.module === module && key.organizationId === 'org-rossi')!;
  const tenant = (code: string) => suite.sandbox.tenants.find((candidate) => candidate.codiceAmbienteDati === code)!;
  const milano = () => tenant('RC-MI').descrizioneAmbienteDati;

  async function step(title: string): Promise<void> {
    await driver.waitFor(`${WIDGET} .quick-input-title:has-text("${title}")`, { timeoutMs: 15_000 });
  }

  /** F1, the command's title, then the module: what a user types. */
  async function setLicenceKeyFromPalette(module: string): Promise<void> {
    await driver.press('F1');
    await driver.waitFor(WIDGET, { timeoutMs: 10_000 });
    await driver.type('Tenant API: Set Licence Key');
    await driver.waitFor(`${ROW}:has-text("Set Licence Key")`, { timeoutMs: 10_000 });
    await driver.press('Enter');
    await driver.waitFor(`${WIDGET} input[placeholder="Which licence module is the key for?"]`, { timeoutMs: 10_000 });
    await driver.type(module);
    await waitForRowsHolding(module); // Enter takes the row the filter left
    await driver.press('Enter');
  }

  /** The key in the masked box, then Enter on the label (optional: it keeps the one proposed). */
  async function typeKeyAndKeepLabel(key: string): Promise<void> {
    await step('Licence key for the module');
    assert.equal(await driver.count(`${WIDGET} input[type="password"]`), 1, 'the key is typed in a masked box');
    await driver.type(key);
    await driver.press('Enter');
    await step('Label for this key');
    await driver.press('Enter');
  }

  async function organizationRows(): Promise<string[]> {
    await step('Which organization holds this licence?');
    // The items come in one go (showQuickPick's promise): the first row says they are there.
    await driver.waitFor(ROW, { timeoutMs: 10_000 });
    return (await driver.text(LIST)).split('\n').map((line) => line.trim()).filter(Boolean);
  }

  const COVER = 'Which of your tenants does this licence cover?';
  /** The rows of the tenant question: each tenant once, by name and code. */
  async function tenantRows(): Promise<string[]> {
    await step(COVER);
    // The items come in one go: the first row says they are there (their ticks follow: see checkedCount's callers).
    await driver.waitFor(ROW, { timeoutMs: 15_000 });
    return (await driver.text(LIST)).split('\n').map((line) => line.trim()).filter(Boolean);
  }
  /** Ticks a tenant's row with a click on it, as a user does in a list with checkboxes. */
  async function tick(description: string): Promise<void> {
    await driver.click(`${ROW}:has-text("${description}")`, { timeoutMs: 10_000 });
    await waitFor(async () => (await checkedCount(`:has-text("${description}")`)) > 0 || undefined, { what: `${description} ticked` });
  }
  /** Rows ticked (VS Code marks the row, or its checkbox, depending on the version). */
  async function checkedCount(filter = ''): Promise<number> {
    const counts = await Promise.all(
      [`${ROW}${filter}[aria-checked="true"]`, `${ROW}${filter} input[type="checkbox"]:checked`, `${ROW}${filter} .monaco-custom-toggle.checked`].map((selector) => driver.count(selector)),
    );
    return Math.max(...counts);
  }
  const rossi = 'Rossi Costruzioni';

  it('the first key: asks the key, a label, then which of your tenants it covers (several at once); the organization is named once, from them', async () => {
    await signInAs(suite.sandbox, 'mario.rossi');
    await vscode.commands.executeCommand('tenantApi.setActiveTenant', tenant('RC-TO').id);
    await setLicenceKeyFromPalette('core');
    await typeKeyAndKeepLabel(sandboxKey('core').key);

    const rows = await tenantRows();
    const text = rows.join('\n');
    for (const code of ['RC-MI', 'RC-TO', 'BA-PR']) assert.match(text, new RegExp(tenant(code).descrizioneAmbienteDati), text);
    for (const record of suite.sandbox.tenants) assert.ok(!text.includes(record.id), `a raw tenant id is shown: ${text}`);
    assert.doesNotMatch(text, /Other…/, 'nothing to type while the tenants are known');
    await tick(milano());
    await tick(tenant('RC-TO').descrizioneAmbienteDati);
    await driver.screenshot('licence-holder-first-key');
    await driver.press('Enter');
    // A new organization: its name is proposed from its tenants' names, not one tenant's; the key itself is refused.
    await step('Name of the organization that holds this licence');
    await driver.press('Enter'); // the name proposed

    const stored = await waitFor(async () => (await keys()).get('core'), { what: 'the core key to be stored' });
    assert.deepEqual({ ...stored, tenantIds: [...(stored.tenantIds ?? [])].sort() }, {
      module: 'core',
      key: sandboxKey('core').key,
      label: 'core',
      organization: rossi,
      tenantIds: [tenant('RC-MI').id, tenant('RC-TO').id].sort(),
    });

    const sent = (await vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'GET', path: '/api/configurazioni', preview: false })) as Summary;
    assert.equal(sent.status, 200, JSON.stringify(sent.error));
    const api = await workbenchApi();
    const usage = suite.sandbox.usage('org-rossi');
    await waitFor(() => (api.statusBar().organization === rossi && api.statusBar().text.includes(`${formatCount(usage.used)}/`)) || undefined, {
      what: `the status bar to show ${rossi}, saw ${JSON.stringify(api.statusBar())}`,
    });
  });

  it('the next key: the tenants say which organization covers them; ticking one of them is that organization, never a second name', async () => {
    await setLicenceKeyFromPalette('efat');
    await typeKeyAndKeepLabel(sandboxKey('efat').key);
    const rows = await tenantRows();
    await driver.screenshot('licence-holder-next-key');
    const text = rows.join('\n');
    assert.match(text, new RegExp(`Counted against ${rossi} \\(keys: core\\)`), text);
    assert.equal(rows.filter((row) => row === rossi || row.startsWith(`${rossi} (`)).length, 0, `an organization offered as a choice: ${text}`);
    await driver.type('Torino'); // with nothing ticked, the one tenant the filter leaves is the answer
    await waitForRowsHolding('Torino');
    await driver.press('Enter');
    const stored = await waitFor(async () => ((await (await keys()).get('efat'))?.organization === rossi ? (await keys()).get('efat') : undefined), {
      what: 'the efat key with the same organization, without a name asked',
    });
    assert.deepEqual(stored?.tenantIds, [tenant('RC-TO').id]);

    const sent = (await vscode.commands.executeCommand('tenantApi.sendRequest', {
      method: 'GET',
      path: '/efat/api/v1/ditte',
      tenantId: tenant('RC-TO').id,
      query: { dimensionePagina: 1 },
      preview: false,
    })) as Summary;
    assert.equal(sent.status, 200, JSON.stringify(sent.error));
    const api = await workbenchApi();
    const usage = suite.sandbox.usage('org-rossi');
    const expected = `$(pulse) ${formatCount(usage.used)}/${formatCount(usage.limit)}`;
    await waitFor(() => (api.statusBar().organization === rossi && api.statusBar().text === expected) || undefined, {
      what: `the status bar to show ${expected} for ${rossi}, saw ${JSON.stringify(api.statusBar())}`,
    });
    // One organization in the usage list, not one per key.
    const listing = Promise.resolve(vscode.commands.executeCommand('tenantApi.showQuota'));
    await driver.waitFor(ROW, { timeoutMs: 10_000 });
    const usageRows = await driver.count(ROW);
    const shown = await driver.text(LIST);
    await driver.press('Escape');
    await listing;
    assert.equal(usageRows, 1, shown);
    assert.match(shown, new RegExp(rossi));
  });

  it('tenants of two organizations are refused as one licence\'s; setting the key again shows its tenants ticked', async () => {
    await (await keys()).set('efat', { key: sandboxKey('efat').key, label: 'efat', organization: 'Bianchi Alimentari', tenantIds: [tenant('BA-PR').id] });
    const running = Promise.resolve(vscode.commands.executeCommand('tenantApi.setLicenceKey', { module: 'core', key: sandboxKey('core').key, label: 'core' }));
    await tenantRows();
    // The ticks are set after the items: the state once they are shown, not the list's first frame.
    const ticked = await waitFor(async () => ((await checkedCount()) >= 2 ? checkedCount() : undefined), { what: 'the core key\'s tenants ticked' });
    assert.equal(ticked, 2, 'the core key\'s two tenants are ticked');
    await tick(tenant('BA-PR').descrizioneAmbienteDati);
    await driver.press('Enter');
    await driver.waitFor(`${WIDGET} .quick-input-title:has-text("a licence is one organization")`, { timeoutMs: 10_000 });
    await driver.screenshot('licence-holder-two-organizations');
    await driver.press('Escape');
    assert.equal(await running, false);
    assert.equal((await (await keys()).get('core'))?.organization, rossi, 'nothing changed');
  });

  it('the question opens at once while the tenants are still being listed, and offers them once they are', async () => {
    suite.sandbox.injectFault({ kind: 'slow', delayMs: 4000, pathPrefix: '/v10/user-tenants', count: 1 });
    await vscode.commands.executeCommand('tenantApi.refreshTenants');
    const started = performance.now();
    const running = Promise.resolve(vscode.commands.executeCommand('tenantApi.setLicenceKey', { module: 'efat', key: sandboxKey('efat').key, label: 'efat' }));
    try {
      await step(COVER);
      const openedMs = performance.now() - started;
      assert.ok(openedMs < 2500, `the question waited ${Math.round(openedMs)} ms for the tenant listing`);
      await driver.waitFor(`${ROW}:has-text("${tenant('BA-PR').descrizioneAmbienteDati}")`, { timeoutMs: 15_000 });
      assert.ok(performance.now() - started >= 3500, 'the tenants came before the slow listing ended: the fault did not apply');
    } finally {
      await driver.press('Escape');
      suite.sandbox.clearFaults();
    }
    assert.equal(await running, false);
  });

  it('signed out with no key stored: no box to type a name in first, but Sign In to choose from the tenants, and Other…', async () => {
    await signOutEveryone();
    for (const module of suite.sandbox.modules) await (await keys()).clear(module.id);
    const running = Promise.resolve(vscode.commands.executeCommand('tenantApi.setLicenceKey', { module: 'core', key: sandboxKey('core').key, label: 'core' }));
    const rows = await organizationRows();
    await driver.press('Escape');
    assert.equal(await running, false, 'Escape stores nothing');
    const text = rows.join('\n');
    assert.match(text, /Sign In to choose from your tenants/);
    assert.match(rows.at(-1) ?? '', /^Other…/, text);
    for (const record of suite.sandbox.tenants) assert.ok(!text.includes(record.descrizioneAmbienteDati), text);
    assert.equal(await (await keys()).get('core'), undefined);
  });
});
