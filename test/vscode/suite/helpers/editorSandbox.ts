// The sandbox as the in-editor suites use it: started in the extension host, accepting this editor's
// sign-in redirect, with the tenantApi.* settings pointed at it.
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

export async function resetSettings(names: readonly string[]): Promise<void> {
  await configure(Object.fromEntries(names.map((name) => [name, undefined])));
}

/** Starts the sandbox accepting `redirect`, and sets authUrl, baseUrl and clientId to it, plus `settings`. */
export async function startEditorSandbox(redirect: string, settings: Record<string, unknown> = {}, options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await startSandbox({ ...redirectOptions(redirect), ...options });
  await configure({ authUrl: sandbox.authUrl, baseUrl: sandbox.baseUrl, clientId: sandbox.clients.public.clientId, ...settings });
  return sandbox;
}
