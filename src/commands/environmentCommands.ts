import * as vscode from 'vscode';
import type { EnvironmentState } from '../settings/activeEnvironment';
import { ENVIRONMENTS_SETTING } from '../settings/environments';
import { environmentPickItems } from '../views/environmentPresentation';
import { COMMAND, type CommandHandlers, EDITOR_COMMAND } from '../common/commandIds';

type PickItem = vscode.QuickPickItem & { id?: string };

/** `{ name }` or `{ id }`: switch without asking (scripts, tests). */
function requested(args: unknown): { name?: string; id?: string } | undefined {
  // From the Tenants view's title VS Code passes the focused tree item (it has a `kind`): not an environment.
  if (typeof args !== 'object' || args === null || 'kind' in args) return undefined;
  const { name, id } = args as { name?: unknown; id?: unknown };
  if (typeof name === 'string') return { name };
  if (typeof id === 'string') return { id };
  return undefined;
}

async function pick(environments: EnvironmentState): Promise<string | undefined> {
  const items: PickItem[] = environmentPickItems(environments.list(), environments.active().id).map((item) => ({
    id: item.id,
    label: item.label,
    description: item.description,
    detail: item.detail,
    picked: item.active,
  }));
  items.push(
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    { label: `$(gear) ${vscode.l10n.t('Edit environments in the settings…')}` },
  );
  const choice = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Switch Tenant API Environment'),
    placeHolder: vscode.l10n.t('Environment to use (now: {0})', environments.active().name),
    matchOnDetail: true,
  });
  if (!choice) return undefined;
  if (choice.id === undefined) {
    await vscode.commands.executeCommand(EDITOR_COMMAND.openSettings, ENVIRONMENTS_SETTING);
    return undefined;
  }
  return choice.id;
}

/**
 * tenantApi.switchEnvironment: a quick pick of the environments (from the palette, the status bar
 * and the Tenants view's title). Returns the active environment's name afterwards.
 */
export function environmentCommands(environments: EnvironmentState): CommandHandlers {
  return {
    [COMMAND.switchEnvironment]: async (args?: unknown): Promise<string> => {
      const wanted = requested(args);
      const id = wanted
        ? environments.list().find((environment) => environment.id === wanted.id || environment.name === wanted.name)?.id
        : await pick(environments);
      if (wanted && id === undefined) {
        void vscode.window.showErrorMessage(vscode.l10n.t('There is no environment "{0}" in tenantApi.environments.', wanted.name ?? wanted.id ?? ''));
      }
      if (id !== undefined) await environments.switchTo(id);
      return environments.active().name;
    },
  };
}
