// The getting-started walkthrough inside a real VS Code: each step is checked when the user has done
// what it asks (signed in, set a licence key, sent a request), as the Welcome page shows it, and not
// merely because its command was opened and cancelled.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Sandbox } from '../../sandbox';
import { driver } from './helpers/driver';
import {
  extensionExports,
  extensionId,
  resetSettings,
  setLicenceKeys,
  signInAs,
  signOutEveryone,
  startWorkbenchSandbox,
  waitFor,
} from './helpers/workbench';

const WALKTHROUGH = `${extensionId}#gettingStarted`;
const stepId = (step: string) => `${WALKTHROUGH}#${step}`;

describe('getting-started walkthrough: steps checked as the user completes them', function () {
  this.timeout(120_000);
  let sandbox: Sandbox;

  /** Whether the Welcome page shows the step as done (its checkbox, as a person sees it). */
  async function stepChecked(step: string): Promise<boolean> {
    const selector = `[data-done-step-id="${stepId(step)}"]`;
    await driver.waitFor(selector, { timeoutMs: 15_000, state: 'attached' });
    return (await driver.count(`${selector}[aria-checked="true"]`)) > 0;
  }

  async function openWalkthrough(): Promise<void> {
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false);
  }

  async function clearKeys(): Promise<void> {
    const keys = (await extensionExports()).licenceKeys;
    for (const module of sandbox.modules) await keys?.clear(module.id);
  }

  before(async function () {
    if (!driver.available()) return this.skip(); // reading the Welcome page needs the code-server runner
    await signOutEveryone();
    sandbox = await startWorkbenchSandbox();
    await clearKeys();
    // VS Code registers an extension's walkthrough a few seconds after start-up (it waits up to 5 s for
    // an experiment service that is not there offline).
    await waitFor(async () => {
      await openWalkthrough();
      return (await driver.count(`[data-step-id="${stepId('signIn')}"]`)) > 0;
    }, { timeoutMs: 30_000, what: 'the walkthrough on the Welcome page' });
    // Earlier suites may have done these already: start from unchecked steps.
    for (const step of ['signIn', 'licenceKeys', 'sendRequest']) await vscode.commands.executeCommand('welcome.markStepIncomplete', stepId(step));
  });

  after(async () => {
    if (!sandbox) return;
    await clearKeys();
    await signOutEveryone();
    await resetSettings();
    await sandbox.close();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  afterEach(async () => {
    if (!driver.available()) return;
    await driver.robot.reset();
    await driver.closePages();
  });

  it('starts unchecked; opening Set Licence Key and cancelling it checks nothing', async () => {
    await openWalkthrough();
    assert.deepEqual([await stepChecked('signIn'), await stepChecked('licenceKeys'), await stepChecked('sendRequest')], [false, false, false]);
    // The user clicks the step's button, then presses Escape in the question.
    await driver.click(`[data-step-id="${stepId('licenceKeys')}"]`);
    await driver.click({ text: 'Set Licence Key', exact: true });
    await driver.waitFor('.quick-input-widget', { timeoutMs: 10_000 });
    await driver.press('Escape');
    await openWalkthrough();
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(await stepChecked('licenceKeys'), false, 'no key was set');
  });

  it('checks "Configure the platform" once both addresses are set', async () => {
    // startWorkbenchSandbox set tenantApi.authUrl and baseUrl. (The step completes on a context key,
    // tenantApi.configured, which VS Code also evaluates when it registers the walkthrough: so settings
    // preset before start-up, as npm start writes them, count too. One session cannot show that.)
    await openWalkthrough();
    await waitFor(() => stepChecked('configure'), { timeoutMs: 10_000, what: 'the Configure step checked' });
  });

  it('checks "Sign in" once signed in, "Set your licence keys" once a key is stored, "Send a request" once a response is shown', async () => {
    await signInAs(sandbox, 'mario.rossi');
    await openWalkthrough();
    await waitFor(() => stepChecked('signIn'), { timeoutMs: 10_000, what: 'the Sign in step checked' });
    assert.equal(await stepChecked('licenceKeys'), false);

    await setLicenceKeys(sandbox, sandbox.organizations[0].id);
    await openWalkthrough();
    await waitFor(() => stepChecked('licenceKeys'), { timeoutMs: 10_000, what: 'the licence keys step checked' });
    assert.equal(await stepChecked('sendRequest'), false);

    await vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'GET', path: '/api/configurazioni' });
    await openWalkthrough();
    await waitFor(() => stepChecked('sendRequest'), { timeoutMs: 10_000, what: 'the Send a request step checked' });
    await driver.screenshot('walkthrough-steps-checked');
  });
});
