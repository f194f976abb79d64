import * as vscode from 'vscode';
import { SETTINGS_SECTION } from './editorSettings';

/** The extension's own settings, as its manifest declares them (`tenantApi.baseUrl`, ...). */
export function contributedSettings(packageJSON: unknown): string[] {
  const configuration = (packageJSON as { contributes?: { configuration?: unknown } } | undefined)?.contributes?.configuration;
  const sections = Array.isArray(configuration) ? configuration : configuration ? [configuration] : [];
  return sections.flatMap((section) => Object.keys((section as { properties?: Record<string, unknown> }).properties ?? {})).filter((key) => key.startsWith(`${SETTINGS_SECTION}.`));
}

/**
 * The settings the user set anywhere (user, workspace or folder), each as the editor resolves it for
 * the file at `scope`, as flat keys: what a runner started from the editor takes instead of the
 * workspace file alone. Defaults are left out: the runner has the same ones.
 */
export function settingsForRunner(scope: vscode.Uri, keys: readonly string[]): Record<string, unknown> {
  const configuration = vscode.workspace.getConfiguration(undefined, scope);
  const values: Record<string, unknown> = {};
  for (const key of keys) {
    const seen = configuration.inspect(key);
    const set = seen && [seen.globalValue, seen.workspaceValue, seen.workspaceFolderValue].some((value) => value !== undefined);
    if (set) values[key] = configuration.get(key);
  }
  return values;
}
