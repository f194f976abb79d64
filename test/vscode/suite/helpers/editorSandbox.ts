// The sandbox as the in-editor suites use it: started in the extension host, accepting this editor's
// sign-in redirect, with the tenantApi.* settings pointed at it.
import { isDeepStrictEqual } from 'node:util';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../sandbox';

/**
 * Accepts `redirect` exactly when it is a plain URI (vscode://... on desktop), by prefix when it carries a
 * query: a browser-hosted editor's /callback?vscode-reqid=<n>&... changes with every attempt.
 */
function redirectOptions(redirect: string): SandboxOptions {
  const query = redirect.indexOf('?');
  return query >= 0 ? { devRedirectPrefixes: [redirect.slice(0, query + 1)] } : { extraRedirectUris: [redirect] };
}

export async function configure(values: Record<string, unknown>): Promise<void> {
  const configuration = vscode.workspace.getConfiguration('tenantApi');
  for (const [name, value] of Object.entries(values)) {
    await configuration.update(name, value, vscode.ConfigurationTarget.Global);
  }
}

/**
 * Sets several tenantApi.* settings in one change, as a user saving settings.json does: one write of
 * the editor's User settings file (the runner names its folder), so the extension hears one change
 * with all of them, never the states between (configure writes them one by one). Resolves once the
 * editor has read them back; without the runner's folder (the desktop runner), one by one.
 */
export async function configureAtOnce(values: Record<string, unknown>): Promise<void> {
  const userData = process.env.TENANT_API_TEST_USER_DATA;
  if (!userData) return configure(values);
  const file = path.join(userData, 'User', 'settings.json');
  const settings = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete settings[`tenantApi.${name}`];
    else settings[`tenantApi.${name}`] = value;
  }
  fs.writeFileSync(file, JSON.stringify(settings, null, 2));
  const applied = () => {
    const configuration = vscode.workspace.getConfiguration('tenantApi');
    return Object.entries(values).every(([name, value]) => isDeepStrictEqual(configuration.inspect(name)?.globalValue, value));
  };
  const deadline = Date.now() + 15_000;
  while (!applied()) {
    if (Date.now() > deadline) throw new Error(`the editor did not read back ${Object.keys(values).join(', ')} from ${file}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function resetSettings(names: readonly string[]): Promise<void> {
  await configure(Object.fromEntries(names.map((name) => [name, undefined])));
}

/** Starts the sandbox accepting `redirect`, and sets authUrl, baseUrl and clientId to it, plus `settings`. */
export async function startEditorSandbox(redirect: string, settings: Record<string, unknown> = {}, options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await startSandbox({ ...redirectOptions(redirect), ...options });
  await configure({ authUrl: sandbox.authUrl, baseUrl: sandbox.baseUrl, clientId: sandbox.clients.public.clientId, ...settings });
  return sandbox;
}
