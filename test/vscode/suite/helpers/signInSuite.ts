// The hooks the suites that sign in through the runner's browser robot share (firstUseDetails,
// signOutLogin, signInCancel): start signed out against a fresh sandbox, leave no sign-in waiting and
// no robot script behind after a test, and put everything back at the end.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Authentication } from '../../../../src/auth/vscode/register';
import type { Sandbox } from '../../../sandbox';
import type { SandboxUser } from '../../../sandbox/types';
import { driver } from './driver';
import { configure, extensionExports, resetSettings, signOutEveryone, startWorkbenchSandbox } from './workbench';

export interface SignInSuite {
  /** The sandbox started in before(). */
  readonly sandbox: Sandbox;
  /** The extension's authentication (activate() returns { auth }). */
  readonly auth: Authentication;
  user(username: string): SandboxUser;
}

/**
 * Registers before/after/afterEach hooks in the calling describe(). `settings` (tenantApi.*) are set in
 * before() and unset in after(); `cleanUp` runs in after() once everyone is signed out, before the
 * settings are reset and the sandbox stops.
 */
export function signInSuite(settings: Record<string, unknown>, cleanUp?: (sandbox: Sandbox) => Promise<void>): SignInSuite {
  let sandbox: Sandbox | undefined;
  let auth: Authentication | undefined;
  const suite: SignInSuite = {
    get sandbox() {
      assert.ok(sandbox, 'the sandbox starts in before()');
      return sandbox;
    },
    get auth() {
      assert.ok(auth, 'activate() returns { auth }');
      return auth;
    },
    user: (username) => suite.sandbox.users.find((candidate) => candidate.username === username)!,
  };

  before(async function () {
    if (!driver.available()) return this.skip(); // the browser robot needs the code-server runner
    auth = ((await extensionExports()) as { auth?: Authentication }).auth;
    assert.ok(auth, 'activate() returns { auth }');
    await signOutEveryone();
    sandbox = await startWorkbenchSandbox();
    await configure(settings);
  });

  after(async () => {
    if (!sandbox) return;
    auth?.controller.cancel();
    await signOutEveryone();
    await cleanUp?.(sandbox);
    await configure(Object.fromEntries(Object.keys(settings).map((name) => [name, undefined])));
    await resetSettings();
    await sandbox.close();
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  afterEach(async () => {
    if (driver.available()) await endSignInAttempt(auth);
  });

  return suite;
}

/** After a test: no sign-in left waiting, no robot script, no browser tab left open. */
export async function endSignInAttempt(auth: Authentication | undefined): Promise<void> {
  auth?.controller.cancel();
  await driver.robot.reset();
  await driver.closePages();
}
