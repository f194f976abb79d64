// After a sign-out the browser may still be signed in at the server as the user who left. Inside a
// real VS Code against the sandbox: the next Sign In shows the login form (prompt=login), "sign in
// with another account" always does, and the sandbox's consent page names the account.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AccountInfo } from '../../../src/auth/types';
import { driver, type RobotEvent } from './helpers/driver';
import { signInSuite } from './helpers/signInSuite';
import { configure, signInAs } from './helpers/workbench';

describe('sign-in after sign-out: the login form', function () {
  this.timeout(120_000);
  const suite = signInSuite({ signInFlow: 'uriHandler' });

  function authorizeRequests(events: RobotEvent[]): URL[] {
    return events.filter((event) => event.action === 'authorize').map((event) => new URL(event.url));
  }

  it('after Sign Out, Sign In shows the login form and signs in whoever signs in there, not the user the browser remembered', async () => {
    const laura = suite.user('laura.verdi');
    const mario = suite.user('mario.rossi');
    await signInAs(suite.sandbox, laura.username); // the browser now holds Laura's session at the sandbox
    await vscode.commands.executeCommand('tenantApi.signOut');
    assert.deepEqual(await suite.auth.getAccounts(), []);

    await driver.robot.setCredentials({ username: mario.username, password: mario.password });
    const since = await driver.robot.lastSeq();
    const account = await vscode.commands.executeCommand<AccountInfo | undefined>('tenantApi.signIn');
    const events = await driver.robot.events(since);
    assert.equal(account?.id, mario.sub, `signed in as ${account?.label}; robot events: ${JSON.stringify(events)}`);
    const [sent] = authorizeRequests(events);
    assert.equal(sent?.searchParams.get('prompt'), 'login', JSON.stringify(events));
    assert.ok(events.some((event) => event.action === 'filledSignIn'), 'the login form was shown and filled');
    assert.ok(!events.some((event) => event.action === 'approvedConsent'), 'no bare "Allow access" page');
  });

  it('"Sign in with another account" (what the Accounts menu calls: the provider\'s createSession) always shows the login form', async () => {
    const laura = suite.user('laura.verdi');
    await driver.robot.setCredentials({ username: laura.username, password: laura.password });
    const since = await driver.robot.lastSeq();
    const session = await suite.auth.provider.createSession(['api'], {});
    const events = await driver.robot.events(since);
    assert.equal(session.account.id, laura.sub, JSON.stringify(events));
    assert.equal(authorizeRequests(events)[0]?.searchParams.get('prompt'), 'login');
    assert.deepEqual((await suite.auth.getAccounts()).map((account) => account.id).sort(), [suite.user('mario.rossi').sub, laura.sub].sort());
  });

  it('the sandbox\'s consent page names the account the browser is signed in as; "Not you?" leads to the login form', async () => {
    // Mario signs in in the browser granting fewer scopes than the extension asks for by default (a
    // new grant: the browser's session switches from Laura to him)...
    const mario = suite.user('mario.rossi');
    await configure({ scopes: ['openid', 'api'] });
    try {
      await driver.robot.setCredentials({ username: mario.username, password: mario.password });
      await suite.auth.signIn({ forceLogin: true });
    } finally {
      await configure({ scopes: undefined });
    }
    // ...so a sign-in that does not ask for the form (an extension's getSession does so) meets the consent page.
    await driver.robot.ignore();
    const since = await driver.robot.lastSeq();
    const attempt = suite.auth.signIn({}).catch((error: unknown) => error);
    await driver.robot.waitFor('ignored', { since, timeoutMs: 30_000 });
    const named = await driver.text('#account', { page: '/interaction/', timeoutMs: 10_000 });
    assert.match(named, /^Signed in as Mario Rossi \(mario\.rossi\)$/);
    await driver.screenshot('consent-names-account', { page: '/interaction/' });

    const laura = suite.user('laura.verdi');
    await driver.robot.setCredentials({ username: laura.username, password: laura.password });
    await driver.click('#switch-account', { page: '/interaction/' });
    const account = await attempt;
    assert.equal((account as AccountInfo | undefined)?.id, laura.sub, `${String(account)}; robot events: ${JSON.stringify(await driver.robot.events(since))}`);
  });
});
