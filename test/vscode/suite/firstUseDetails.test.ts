// Small things a new user tripped over, driven in a real VS Code against the
// sandbox: the command palette while signed out, the sign-out picker, the response tab's title bar,
// the cURL of a GET, a sign-in finished after the editor stopped waiting, a mistyped password.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { driver } from './helpers/driver';
import { signInSuite } from './helpers/signInSuite';
import { extensionExports, setLicenceKeys, signInAs, waitFor } from './helpers/workbench';

const PALETTE_LIST = '.quick-input-widget .quick-input-list';

describe('first use: palette, pickers, title bar, cURL, late sign-in, login form', function () {
  this.timeout(120_000);
  const suite = signInSuite({ signInFlow: 'uriHandler' }, async (sandbox) => {
    const keys = (await extensionExports()).licenceKeys;
    for (const module of sandbox.modules) await keys?.clear(module.id);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  /** The command palette's entries for `query`, as a person sees them. */
  async function paletteEntries(query: string): Promise<string> {
    await driver.press('F1');
    await driver.waitFor(`${PALETTE_LIST} .monaco-list-row`, { timeoutMs: 10_000 });
    const listed = async () => ((await driver.count(`${PALETTE_LIST} .monaco-list-row`)) > 0 ? await driver.text(PALETTE_LIST) : '');
    const unfiltered = await listed();
    await driver.type(query);
    // The list once it shows the filter (a prefix's filter already holds what the whole query holds,
    // and never a command the palette hides): anything but the unfiltered list, "no matching" included.
    const text = await waitFor(async () => {
      const now = await listed();
      return now !== unfiltered ? now : undefined;
    }, { timeoutMs: 10_000, what: `the palette filtered to "${query}"` });
    await driver.press('Escape');
    return text;
  }

  /** Each test stands alone: it signs in whom it needs. */
  async function ensureSignedIn(username: string): Promise<void> {
    if (!(await suite.auth.getAccounts()).some((account) => account.id === suite.user(username).sub)) await signInAs(suite.sandbox, username);
  }

  it('signed out, the palette offers Sign In but not Sign Out, Refresh Tenants, Copy as cURL or Re-run; signed in, it does', async () => {
    const signedInOnly = ['Tenant API: Sign Out', 'Tenant API: Refresh Tenants', 'Tenant API: Copy Last Request as cURL', 'Tenant API: Re-run Request from History'];
    // The palette also lists "similar commands" below the matches: look for the exact entry.
    const offers = async (title: string) => (await paletteEntries(title)).split('\n').map((line) => line.trim()).includes(title);
    for (const title of signedInOnly) assert.equal(await offers(title), false, `${title} is offered while signed out`);
    assert.equal(await offers('Tenant API: Sign In'), true);
    await signInAs(suite.sandbox, 'mario.rossi');
    for (const title of signedInOnly) assert.equal(await offers(title), true, `${title} is not offered once signed in`);
  });

  it('the sign-out picker lists the accounts by name, not by id', async () => {
    await ensureSignedIn('mario.rossi');
    await signInAs(suite.sandbox, 'laura.verdi');
    const picking = Promise.resolve(vscode.commands.executeCommand('tenantApi.signOut'));
    await driver.waitFor(`${PALETTE_LIST} .monaco-list-row`, { timeoutMs: 10_000 });
    const shown = await driver.text(PALETTE_LIST);
    await driver.screenshot('sign-out-picker');
    await driver.press('Escape');
    await picking;
    assert.match(shown, /Mario Rossi/);
    assert.match(shown, /Laura Verdi/);
    for (const account of [suite.user('mario.rossi'), suite.user('laura.verdi')]) assert.ok(!shown.includes(account.sub), `the id ${account.sub} is shown: ${shown}`);
    assert.equal((await suite.auth.getAccounts()).length, 2, 'Escape signs no one out');
    await vscode.commands.executeCommand('tenantApi.signOut', { accountId: suite.user('laura.verdi').sub });
  });

  it("a response tab's title bar shows icons only, and the cURL of a GET carries no Content-Type", async () => {
    const mario = suite.user('mario.rossi');
    await ensureSignedIn(mario.username);
    await setLicenceKeys(suite.sandbox, suite.sandbox.tenants.find((tenant) => mario.tenantIds.includes(tenant.id))!.organizationId);
    await vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'GET', path: '/api/configurazioni' });
    const actions = '.editor-group-container.active .editor-actions .action-label';
    await driver.waitFor(`${actions}.codicon-terminal`, { timeoutMs: 10_000 });
    const all = await driver.count(actions);
    const icons = await driver.count(`${actions}.codicon`);
    await driver.screenshot('response-title-bar');
    assert.ok(all >= 2, `the response tab offers its actions (${all})`);
    assert.equal(icons, all, 'no text button among the icons');

    await vscode.commands.executeCommand('tenantApi.copyAsCurl', { includeSecrets: false });
    const curl = await vscode.env.clipboard.readText();
    assert.match(curl, /^curl '.*\/api\/configurazioni'/);
    assert.match(curl, /-H 'Accept: application\/json'/);
    assert.doesNotMatch(curl, /content-type/i);
  });

  it('the login form keeps the user name after a wrong password; a sign-in finished after the editor stopped waiting is reported in the editor', async () => {
    await driver.robot.ignore();
    const since = await driver.robot.lastSeq();
    const attempt = suite.auth.signIn({ forceLogin: true }).catch((error: unknown) => error);
    await driver.robot.waitFor('ignored', { since, timeoutMs: 30_000 });
    const page = '/interaction/';
    // The user mistypes the password.
    await driver.click('#username', { page });
    await driver.type('laura.verdi', { page });
    await driver.click('#password', { page });
    await driver.type('not-her-password', { page });
    await driver.click('#submit', { page });
    await driver.waitFor('#error', { page, timeoutMs: 10_000 });
    assert.equal(await driver.count('input#username[value="laura.verdi"]', { page }), 1, 'the user name is still there');
    await driver.screenshot('login-keeps-user-name', { page });

    // The user cancels in the editor, then finishes the sign-in in the browser anyway.
    suite.auth.controller.cancel();
    assert.equal((await attempt as Error).name, 'SignInCancelledError');
    await driver.click('#password', { page });
    await driver.type(suite.user('laura.verdi').password, { page });
    await driver.click('#submit', { page });
    await driver.robot.waitFor('callback', { since, timeoutMs: 20_000 });
    await waitFor(async () => (await driver.notifications()).some((message) => /after the editor had stopped waiting/.test(message)), {
      timeoutMs: 15_000,
      what: 'the editor to say it had stopped waiting',
    });
    assert.ok(!(await suite.auth.getAccounts()).some((account) => account.id === suite.user('laura.verdi').sub), 'the late answer signs no one in');
  });
});
