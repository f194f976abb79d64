// Cancel on the sign-in page, and Sign In pressed again while a sign-in is under way, inside a real
// VS Code against the sandbox: the user always gets an answer, and no sign-in is left stuck.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AccountInfo } from '../../../src/auth/types';
import { driver } from './helpers/driver';
import { signInSuite } from './helpers/signInSuite';
import { configure, waitFor } from './helpers/workbench';

const CANCELLED = 'Sign-in was cancelled in the browser.';
const ALREADY_WAITING = 'A sign-in is already waiting for you to finish it in the browser.';

describe('sign-in: cancel in the browser, Sign In again', function () {
  this.timeout(120_000);
  // auto: in this browser editor the redirect first, then the device code would be offered.
  const suite = signInSuite({ signInFlow: 'auto', signInTimeoutSeconds: 60 });

  afterEach(async () => {
    if (!driver.available()) return;
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  async function notificationsMatching(pattern: RegExp): Promise<string[]> {
    return (await driver.notifications()).filter((message) => pattern.test(message));
  }

  async function authorizeCount(since: number): Promise<number> {
    return (await driver.robot.events(since)).filter((event) => event.action === 'authorize').length;
  }

  it('Cancel on the sign-in page ends the attempt at once, says so without offering another flow, and Sign In works right after', async () => {
    await driver.robot.ignore();
    const since = await driver.robot.lastSeq();
    const started = Date.now();
    const first = Promise.resolve(vscode.commands.executeCommand<AccountInfo | undefined>('tenantApi.signIn'));
    // The user looks at the sandbox's sign-in page and presses its Cancel button.
    await driver.robot.waitFor('ignored', { since, timeoutMs: 30_000 });
    await driver.click('#cancel', { page: '/interaction/', timeoutMs: 15_000 });
    assert.equal(await first, undefined, 'the command ends without an account');
    const took = Date.now() - started;
    assert.ok(took < 30_000, `ended at once, not at the 60 s time-out (${took} ms)`);
    await waitFor(async () => (await notificationsMatching(/cancelled in the browser/)).length > 0, { timeoutMs: 10_000, what: `"${CANCELLED}"` });
    assert.deepEqual(await notificationsMatching(/did not complete|Try device code|access_denied/), [], 'no fallback offered after a deliberate cancel');
    assert.equal(suite.auth.controller.attemptInProgress, false);
    assert.equal(suite.auth.pending.size, 0);
    await driver.screenshot('sign-in-cancelled-in-browser');

    // Sign In answers at once: a new sign-in page, which the user completes this time.
    const laura = suite.user('laura.verdi');
    await driver.robot.setCredentials({ username: laura.username, password: laura.password });
    const again = await driver.robot.lastSeq();
    const account = await vscode.commands.executeCommand<AccountInfo | undefined>('tenantApi.signIn');
    assert.equal(account?.id, laura.sub, `robot events: ${JSON.stringify(await driver.robot.events(again))}`);
    assert.equal(await authorizeCount(again), 1, 'one new sign-in page');
  });

  it('Sign In while a sign-in waits for the browser says so; Start Again opens a new sign-in page that signs in', async () => {
    await driver.robot.ignore();
    const since = await driver.robot.lastSeq();
    const first = Promise.resolve(vscode.commands.executeCommand<AccountInfo | undefined>('tenantApi.signIn'));
    await driver.robot.waitFor('ignored', { since, timeoutMs: 30_000 });
    assert.equal(suite.auth.controller.attemptInProgress, true);

    // The user closes the sign-in tab without finishing (the editor's tab is in front again: a hidden
    // browser tab renders no notification), then presses Sign In again.
    await driver.closePages();
    const second = Promise.resolve(vscode.commands.executeCommand<AccountInfo | undefined>('tenantApi.signIn'));
    await waitFor(async () => (await notificationsMatching(/already waiting/)).length > 0, { timeoutMs: 20_000, what: `"${ALREADY_WAITING}"` });
    await driver.screenshot('sign-in-already-waiting');
    const mario = suite.user('mario.rossi');
    await driver.robot.setCredentials({ username: mario.username, password: mario.password });
    await driver.clickNotificationButton('Start Again', { message: 'already waiting', timeoutMs: 10_000 });
    // Both earlier invocations give way to the new attempt quietly.
    assert.deepEqual([await first, await second], [undefined, undefined]);
    await waitFor(async () => (await suite.auth.getAccounts()).some((account) => account.id === mario.sub), { timeoutMs: 45_000, what: 'Mario signed in by the new attempt' });
    assert.equal(await authorizeCount(since), 2, 'the first page, then the one Start Again opened');
    await waitFor(async () => (await notificationsMatching(/Signed in to Tenant API as Mario Rossi/)).length > 0, { timeoutMs: 10_000, what: 'the signed-in message' });
  });

  it('Sign In while the "try another flow" question waits unanswered starts a new sign-in instead of doing nothing', async () => {
    await configure({ signInTimeoutSeconds: 8 });
    try {
      await driver.robot.ignore();
      const since = await driver.robot.lastSeq();
      const first = Promise.resolve(vscode.commands.executeCommand<AccountInfo | undefined>('tenantApi.signIn', { forceLogin: true }));
      // The redirect times out; the question about the device code stays on screen unanswered.
      await waitFor(async () => (await notificationsMatching(/Try device code|did not complete/)).length > 0, { timeoutMs: 30_000, what: 'the question about the device code' });
      assert.equal(suite.auth.controller.attemptInProgress, false, 'nothing waits for the browser now');

      const laura = suite.user('laura.verdi');
      await driver.robot.setCredentials({ username: laura.username, password: laura.password });
      const account = await vscode.commands.executeCommand<AccountInfo | undefined>('tenantApi.signIn', { forceLogin: true });
      assert.equal(account?.id, laura.sub, `robot events: ${JSON.stringify(await driver.robot.events(since))}`);
      assert.equal(await first, undefined, 'the first gave way quietly');
      assert.equal(await authorizeCount(since), 2);
    } finally {
      await configure({ signInTimeoutSeconds: 60 });
    }
  });
});
