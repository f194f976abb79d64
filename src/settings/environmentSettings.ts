import * as vscode from 'vscode';
import { publicSuffixEntries } from '../api/hostValidation';
import type { Logger } from '../common/logger';
import { EnvironmentState } from './activeEnvironment';
import { ENVIRONMENTS_SETTING, type EnvironmentList } from './environments';
import { environmentListFrom } from './settingValues';
import { EDITOR_COMMAND } from '../common/commandIds';

/** The settings an environment overlays (the other tenantApi.* settings are the same in every environment). */
const OVERLAID = ['authUrl', 'baseUrl', 'clientId', 'scopes', 'allowedHosts', 'routes', 'endpoints', 'catalogues', 'environments'];

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
}

/** The top-level settings (the default environment) and tenantApi.environments, as the editor has them now. */
export function readEnvironmentList(): EnvironmentList {
  const section = vscode.workspace.getConfiguration('tenantApi');
  return environmentListFrom((key, fallback) => section.get(key, fallback));
}

/** The setting to open for the problems: tenantApi.allowedHosts when it has a refused entry (the environments' own problems name their entries), else tenantApi.environments. */
function settingWithProblems(): string {
  const allowedHosts = strings(vscode.workspace.getConfiguration('tenantApi').get<unknown>('allowedHosts')) ?? [];
  return publicSuffixEntries(allowedHosts).length > 0 ? 'tenantApi.allowedHosts' : ENVIRONMENTS_SETTING;
}

async function offerSettings(message: string, query: string): Promise<void> {
  const open = vscode.l10n.t('Open Settings');
  if ((await vscode.window.showWarningMessage(message, open)) === open) {
    await vscode.commands.executeCommand(EDITOR_COMMAND.openSettings, query);
  }
}

/**
 * The environments and the active one, following the settings. Problems in tenantApi.environments
 * and tenantApi.allowedHosts go to the log, and once per new set of problems to a warning that opens
 * the settings.
 */
export function watchEnvironments(extension: { globalState: vscode.Memento; subscriptions: vscode.Disposable[] }, logger: Logger): EnvironmentState {
  const state = new EnvironmentState(extension.globalState, readEnvironmentList());
  let reported = '';
  const report = () => {
    const problems = state.problems();
    for (const problem of problems) logger.warn(problem);
    const key = problems.join('\n');
    if (key === reported) return;
    reported = key;
    if (problems.length === 0) return;
    void offerSettings(vscode.l10n.t('Part of the Tenant API settings is ignored: {0}', problems.join(' ')), settingWithProblems());
  };
  report();
  extension.subscriptions.push(
    state,
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!OVERLAID.some((name) => event.affectsConfiguration(`tenantApi.${name}`))) return;
      state.update(readEnvironmentList());
      report();
    }),
  );
  return state;
}

/**
 * Adds `{ name }` to tenantApi.environments (it takes the top-level connection settings), where the
 * setting is kept: the workspace's when it has one or a folder is open, else the user's.
 */
export async function addEnvironmentEntry(name: string): Promise<void> {
  const configuration = vscode.workspace.getConfiguration('tenantApi');
  const inspected = configuration.inspect<unknown[]>('environments');
  const inWorkspace = inspected?.workspaceValue !== undefined || (inspected?.globalValue === undefined && (vscode.workspace.workspaceFolders?.length ?? 0) > 0);
  const current = (inWorkspace ? inspected?.workspaceValue : inspected?.globalValue) ?? [];
  await configuration.update('environments', [...(Array.isArray(current) ? current : []), { name }], inWorkspace ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global);
}
