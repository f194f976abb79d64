// Shared set-up of the workbench suites (workbench.test.ts, ui.test.ts): a sandbox started in the
// extension host, the tenantApi.* settings pointed at it, sign-in through the runner's robot, and
// the extension's read-only test API (activate() returns { workbench, ... }).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Sandbox, SandboxOptions } from '../../../sandbox';
import { configure, resetSettings as resetEditorSettings, startEditorSandbox } from './editorSandbox';
import { driver } from './driver';

export const extensionId = 'tenant-api.tenant-api-workbench';

export interface TreeItemSnapshot {
  label: string;
  description?: string;
  contextValue: string;
  icon: string;
  command?: string;
  children?: TreeItemSnapshot[];
}

export interface StatusSnapshot {
  visible: boolean;
  text: string;
  tooltip: string;
  severity: 'normal' | 'warning' | 'error';
  organization: string | undefined;
}

/** What the in-editor tests read from the extension (see src/commands/workbenchTestApi.ts). */
export interface WorkbenchTestApi {
  treeSnapshot(depth?: number): Promise<TreeItemSnapshot[]>;
  statusBar(): StatusSnapshot;
  history(): Array<Record<string, unknown>>;
  lastRequest(): { method: string; url: string; requestHeaders: Record<string, string> } | undefined;
  activeTenantId(): string | undefined;
}

export interface ExtensionExports {
  workbench?: WorkbenchTestApi;
  /** src/api's LicenceKeyStore, so tests can set keys without the masked input box. */
  licenceKeys?: {
    set(module: string, value: { key: string; label: string; organization: string; tenantIds?: string[] }): Promise<void>;
    get(module: string): Promise<{ key: string; label: string; organization: string; tenantIds?: string[] } | undefined>;
    clear(module: string): Promise<void>;
  };
}

export async function extensionExports(): Promise<ExtensionExports> {
  const extension = vscode.extensions.getExtension<ExtensionExports>(extensionId);
  assert.ok(extension, `extension ${extensionId} is not loaded`);
  return (await extension.activate()) ?? {};
}

export async function workbenchApi(): Promise<WorkbenchTestApi> {
  const exports = await extensionExports();
  assert.ok(exports.workbench, 'activate() must return { workbench: workbenchTestApi(views, commands) } (src/commands/workbenchTestApi.ts)');
  return exports.workbench;
}

const settingNames = ['authUrl', 'baseUrl', 'clientId', 'signInFlow', 'quota.warningPercent', 'quota.errorPercent', 'allowedHosts'];

export { configure };

export async function resetSettings(): Promise<void> {
  await resetEditorSettings(settingNames);
}

/** The URI the sign-in redirect comes back to in this editor (code-server's /callback?..., or vscode://...). */
async function callbackUri(): Promise<string> {
  const uri = vscode.Uri.parse(`${vscode.env.uriScheme}://${extensionId}/auth-callback`);
  return (await vscode.env.asExternalUri(uri)).toString(true);
}

/** Starts the sandbox with this editor's callback accepted, and points the settings at it. */
export async function startWorkbenchSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startEditorSandbox(await callbackUri(), {}, options);
}

/** Signs in as a sandbox user through the real flow: the robot fills the sign-in form in the runner's browser. */
export async function signInAs(sandbox: Sandbox, username: string): Promise<void> {
  const user = sandbox.users.find((candidate) => candidate.username === username);
  assert.ok(user, `no sandbox user ${username}`);
  await driver.robot.setCredentials({ username: user.username, password: user.password });
  await vscode.commands.executeCommand('tenantApi.signIn', { loginHint: user.username, forceLogin: true });
  await waitFor(
    async () => {
      const roots = await (await workbenchApi()).treeSnapshot(1);
      return roots.some((root) => root.contextValue === 'account' && root.label === user.name) ? roots : undefined;
    },
    { timeoutMs: 60_000, what: `the account ${user.name} in the Tenants view` },
  );
}

export async function signOutEveryone(): Promise<void> {
  const exports = (await extensionExports()) as ExtensionExports & { auth?: { getAccounts(): Promise<Array<{ id: string }>>; signOut(id: string): Promise<void> } };
  if (exports.auth) {
    for (const account of await exports.auth.getAccounts()) await exports.auth.signOut(account.id);
  }
}

/** A suite's end: its editors closed, everyone signed out, the settings back, its sandbox stopped. */
export async function endWorkbenchSuite(sandbox: Sandbox | undefined): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  // Keys of this sandbox would otherwise meet the next suite's sandbox, whose keys differ.
  if (sandbox) await clearLicenceKeys(sandbox);
  await signOutEveryone();
  await resetSettings();
  await sandbox?.close();
}

/** The usual start of a suite about requests: everyone signed out, a new sandbox, Mario signed in with org-rossi's keys. */
export async function startSignedInAsMario(options: SandboxOptions = {}): Promise<Sandbox> {
  await workbenchApi();
  await signOutEveryone();
  const sandbox = await startWorkbenchSandbox(options);
  await signInAs(sandbox, 'mario.rossi');
  await setLicenceKeys(sandbox, 'org-rossi');
  return sandbox;
}

/** Removes the licence keys of every module of the sandbox (every organization's). */
export async function clearLicenceKeys(sandbox: Sandbox): Promise<void> {
  const store = (await extensionExports()).licenceKeys;
  for (const module of sandbox.modules) await store?.clear(module.id);
}

/** Sets the sandbox's licence keys of one organization for every module. */
export async function setLicenceKeys(sandbox: Sandbox, organizationId: string): Promise<void> {
  const exports = await extensionExports();
  assert.ok(exports.licenceKeys, 'activate() must return { licenceKeys } (src/api LicenceKeyStore) for the tests');
  const organization = sandbox.organizations.find((candidate) => candidate.id === organizationId);
  for (const key of sandbox.licenceKeys.filter((candidate) => candidate.organizationId === organizationId)) {
    await exports.licenceKeys.set(key.module, { key: key.key, label: `${organizationId} ${key.module}`, organization: organization?.name ?? organizationId });
  }
}

export async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, options: { timeoutMs?: number; what: string }): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${options.what}${lastError ? `: ${String(lastError)}` : ''}`);
}

/** The tree once the account's tenants are listed (not loading). */
export async function loadedTree(api: WorkbenchTestApi, depth = 3): Promise<TreeItemSnapshot[]> {
  return waitFor(
    async () => {
      const roots = await api.treeSnapshot(depth);
      const account = roots.find((root) => root.contextValue === 'account' && root.children);
      const loading = account?.children?.some((child) => child.icon === 'loading');
      return account && !loading ? roots : undefined;
    },
    { what: 'the tenants to load' },
  );
}

/** The JSON body of a response tab (the lines after the `//` header block). */
export function responseBody(text: string): unknown {
  const lines = text.split('\n');
  const first = lines.findIndex((line) => !line.startsWith('//'));
  return JSON.parse(lines.slice(first).join('\n'));
}

export function formatCount(value: number): string {
  return value.toLocaleString(vscode.env.language, { maximumFractionDigits: 0 });
}
