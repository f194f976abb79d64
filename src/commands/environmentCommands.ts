import * as vscode from 'vscode';
import type { EnvironmentState } from '../settings/activeEnvironment';
import { ENVIRONMENTS_SETTING, environmentId, type Environment } from '../settings/environments';
import type { WatchedEnvironmentFiles } from '../settings/environmentFileWatcher';
import { addEnvironmentEntry } from '../settings/environmentSettings';
import { environmentPickItems, variableOriginItems, type VariableOriginItem } from '../views/environmentPresentation';
import { COMMAND, type CommandHandlers, EDITOR_COMMAND } from '../common/commandIds';

type PickItem = vscode.QuickPickItem & { id?: string; fileOnly?: string; variablesOf?: string };

/** The request file the variables are for: the active editor's, else none (the workspace's root). */
const activeKey = () => vscode.window.activeTextEditor?.document.uri.toString();

function variablesOf(environment: Environment, files: WatchedEnvironmentFiles | undefined): VariableOriginItem[] {
  const found = files?.forDocument(activeKey() ?? '', environment) ?? { variables: {}, secrets: new Set<string>(), dotenv: {}, origins: {}, problems: [] };
  return variableOriginItems(environment, found, (file) => vscode.workspace.asRelativePath(file, false));
}

const VARIABLES_BUTTON = (): vscode.QuickInputButton => ({ iconPath: new vscode.ThemeIcon('symbol-variable'), tooltip: vscode.l10n.t('Show the variables and where each comes from') });

/** The variables of one environment, each with where it comes from; secrets masked. */
async function showVariables(environment: Environment, files: WatchedEnvironmentFiles | undefined): Promise<void> {
  const items: vscode.QuickPickItem[] = variablesOf(environment, files).map((item) => ({ label: item.label, description: item.description, detail: item.detail }));
  const key = activeKey();
  const forFile = key ? vscode.workspace.asRelativePath(vscode.Uri.parse(key), false) : undefined;
  await vscode.window.showQuickPick(items.length > 0 ? items : [{ label: vscode.l10n.t('No variables: add them to tenantApi.environments or to an http-client.env.json file.') }], {
    title: forFile ? vscode.l10n.t('Variables of {0} for {1}', environment.name, forFile) : vscode.l10n.t('Variables of {0}', environment.name),
    placeHolder: vscode.l10n.t('Where each variable comes from (the file nearest the request file wins)'),
    matchOnDescription: true,
    matchOnDetail: true,
  });
}

/** Adds an environment only the files name to tenantApi.environments, then waits until it is known. */
async function addFileEnvironment(name: string, environments: EnvironmentState): Promise<string | undefined> {
  const id = environmentId(name);
  const added = new Promise<void>((resolve) => {
    const listener = environments.onDidChangeList(() => {
      if (!environments.get(id)) return;
      listener.dispose();
      resolve();
    });
  });
  await addEnvironmentEntry(name);
  await added;
  return id;
}

/** `{ name }` or `{ id }`: switch without asking (scripts, tests). */
function requested(args: unknown): { name?: string; id?: string } | undefined {
  // From the Tenants view's title VS Code passes the focused tree item (it has a `kind`): not an environment.
  if (typeof args !== 'object' || args === null || 'kind' in args) return undefined;
  const { name, id } = args as { name?: unknown; id?: unknown };
  if (typeof name === 'string') return { name };
  if (typeof id === 'string') return { id };
  return undefined;
}

function pickItems(environments: EnvironmentState, files: WatchedEnvironmentFiles | undefined): PickItem[] {
  const items: PickItem[] = environmentPickItems(environments.list(), environments.active().id, (environment) => variablesOf(environment, files)).map((item) => ({
    id: item.id,
    label: item.label,
    description: item.description,
    detail: item.detail,
    picked: item.active,
    buttons: [VARIABLES_BUTTON()],
  }));
  const known = new Set(environments.list().map((environment) => environment.name.toLowerCase()));
  const fileOnly = (files?.environmentNames(activeKey()) ?? []).filter((name) => !known.has(name.toLowerCase()) && name.toLowerCase() !== 'default');
  if (fileOnly.length > 0) items.push({ label: vscode.l10n.t('In environment files only'), kind: vscode.QuickPickItemKind.Separator });
  for (const name of fileOnly) {
    items.push({ label: `$(file) ${name.replace(/\$\(/g, '$\u200b(')}`, description: vscode.l10n.t('picking it adds it to tenantApi.environments, with the top-level connection settings'), fileOnly: name });
  }
  items.push(
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    { label: `$(symbol-variable) ${vscode.l10n.t('Variables of {0}: where each comes from…', environments.active().name)}`, variablesOf: environments.active().id },
    { label: `$(gear) ${vscode.l10n.t('Edit environments in the settings…')}` },
  );
  return items;
}

async function pick(environments: EnvironmentState, files: WatchedEnvironmentFiles | undefined): Promise<string | undefined> {
  const quickPick = vscode.window.createQuickPick<PickItem>();
  quickPick.title = vscode.l10n.t('Switch Tenant API Environment');
  quickPick.placeholder = vscode.l10n.t('Environment to use (now: {0})', environments.active().name);
  quickPick.matchOnDetail = true;
  quickPick.items = pickItems(environments, files);
  const choice = await new Promise<PickItem | { variablesOf: string } | undefined>((resolve) => {
    quickPick.onDidAccept(() => resolve(quickPick.selectedItems[0]));
    quickPick.onDidTriggerItemButton((event) => resolve({ variablesOf: event.item.id ?? environments.active().id }));
    quickPick.onDidHide(() => resolve(undefined));
    quickPick.show();
  });
  quickPick.dispose();
  if (!choice) return undefined;
  if (choice.variablesOf !== undefined) {
    const environment = environments.get(choice.variablesOf);
    if (environment) await showVariables(environment, files);
    return undefined;
  }
  if ('fileOnly' in choice && choice.fileOnly) return addFileEnvironment(choice.fileOnly, environments);
  if (!('id' in choice) || choice.id === undefined) {
    await vscode.commands.executeCommand(EDITOR_COMMAND.openSettings, ENVIRONMENTS_SETTING);
    return undefined;
  }
  return choice.id;
}

/**
 * tenantApi.switchEnvironment: a quick pick of the environments (from the palette, the status bar
 * and the Tenants view's title), each saying where its variables come from (settings or environment
 * files, for the active request file), and the environments only the files name. Returns the active
 * environment's name afterwards.
 */
export function environmentCommands(environments: EnvironmentState, files?: WatchedEnvironmentFiles): CommandHandlers {
  return {
    [COMMAND.switchEnvironment]: async (args?: unknown): Promise<string> => {
      const wanted = requested(args);
      const id = wanted
        ? environments.list().find((environment) => environment.id === wanted.id || environment.name === wanted.name)?.id
        : await pick(environments, files);
      if (wanted && id === undefined) {
        void vscode.window.showErrorMessage(vscode.l10n.t('There is no environment "{0}" in tenantApi.environments.', wanted.name ?? wanted.id ?? ''));
      }
      if (id !== undefined) await environments.switchTo(id);
      return environments.active().name;
    },
  };
}
