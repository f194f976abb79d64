import * as vscode from 'vscode';
import { canonicalOrganization } from '../api/licenceHolders';
import { checkLabel, checkLicenceKey, checkNotTheKey, type LicenceKeyStore } from '../api/licenceKeyStore';
import type { QuotaTracker } from '../api/quotaTracker';
import { pickLicenceHolder, type HolderAnswer, type HolderPickDeps } from './licenceHolderPick';
import { COMMAND, type CommandHandlers } from '../common/commandIds';

export interface LicenceKeyCommandDeps {
  licenceKeys: LicenceKeyStore;
  /** Licence modules of the route table in force (ApiClient.modules()). */
  modules: () => string[];
  /** Path prefixes each module serves, shown in the picker (ApiClient.routeTable().prefixesOf). */
  prefixesOf: (module: string) => string[];
  quota: QuotaTracker;
  /** Where the organization of a key is chosen from (other keys, the user's tenants). */
  holders: HolderPickDeps;
}

/** Argument of tenantApi.setLicenceKey: a module name, or everything at once (scripts and tests). */
interface SetKeyArgument {
  module?: string;
  key?: string;
  label?: string;
  organization?: string;
}

function asObject(argument: unknown, field: string): Record<string, unknown> {
  if (typeof argument === 'string') return { [field]: argument };
  return argument && typeof argument === 'object' ? (argument as Record<string, unknown>) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

/** tenantApi.setLicenceKey, tenantApi.clearLicenceKey, tenantApi.resumeOrganization. */
export function licenceKeyCommands(deps: LicenceKeyCommandDeps): CommandHandlers {
  return {
    [COMMAND.setLicenceKey]: (argument?: unknown) => setLicenceKey(deps, argument),
    [COMMAND.clearLicenceKey]: (argument?: unknown) => clearLicenceKey(deps, argument),
    [COMMAND.resumeOrganization]: (argument?: unknown) => resumeOrganization(deps, argument),
  };
}

async function pickModule(deps: LicenceKeyCommandDeps, placeHolder: string, onlySet: boolean): Promise<string | undefined> {
  const items: Array<vscode.QuickPickItem & { module: string }> = [];
  for (const module of deps.modules()) {
    const stored = await deps.licenceKeys.all(module).catch(() => []);
    if (onlySet && stored.length === 0) continue;
    items.push({
      label: module,
      description: deps.prefixesOf(module).join(', '),
      detail: stored.length > 0
        ? vscode.l10n.t('Set: {0}', stored.map((key) => `${key.label} (${key.organization})`).join(', '))
        : vscode.l10n.t('No key set'),
      module,
    });
  }
  if (items.length === 0) {
    void vscode.window.showInformationMessage(
      onlySet ? vscode.l10n.t('No licence key is set.') : vscode.l10n.t('No licence module is known. Check the setting tenantApi.routes.'),
    );
    return undefined;
  }
  return (await vscode.window.showQuickPick(items, { placeHolder, ignoreFocusOut: true }))?.module;
}

async function setLicenceKey(deps: LicenceKeyCommandDeps, argument?: unknown): Promise<boolean> {
  const input = asObject(argument, 'module') as SetKeyArgument;
  const module = text(input.module) ?? (await pickModule(deps, vscode.l10n.t('Which licence module is the key for?'), false));
  if (!module) return false;
  if (!deps.modules().includes(module)) {
    void vscode.window.showErrorMessage(vscode.l10n.t('"{0}" is not a licence module of any route.', module));
    return false;
  }
  const existing = await deps.licenceKeys.get(module).catch(() => undefined);
  const key = text(input.key) ?? (await askKey(module));
  if (key === undefined) return false;
  const keyProblem = checkLicenceKey(key);
  if (keyProblem) {
    void vscode.window.showErrorMessage(keyProblem);
    return false;
  }
  const label = text(input.label) ?? (await askLabel(existing?.label ?? module, key));
  if (label === undefined) return false;
  const holder = await holderFor(deps, module, key, text(input.organization));
  if (holder === undefined) return false;
  const { organization } = holder;

  try {
    // Another organization's key of the module stays: each tenant's calls carry its own organization's.
    await deps.licenceKeys.put(module, { key, label, organization, tenantIds: holder.tenantIds });
  } catch (error) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('The licence key could not be saved: {0}', error instanceof Error ? error.message : String(error)),
    );
    return false;
  }
  void vscode.window.showInformationMessage(
    vscode.l10n.t('Licence key "{0}" set for the module "{1}" ({2}).', label.trim(), module, organization),
  );
  return true;
}

function askKey(module: string): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: vscode.l10n.t('Licence key for the module "{0}"', module),
    prompt: vscode.l10n.t('The Authorization-Key from "Licenze e prodotti" of your account. It is kept in the editor\'s secret storage.'),
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => checkLicenceKey(value),
  });
}

/** Optional: an empty answer keeps the proposed label. */
async function askLabel(proposed: string, key: string): Promise<string | undefined> {
  const label = await vscode.window.showInputBox({
    title: vscode.l10n.t('Label for this key'),
    prompt: vscode.l10n.t('Optional: a name you recognise, shown in the status bar and in lists. Press Enter to keep "{0}".', proposed),
    value: proposed,
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() ? (checkLabel(value, 'label') ?? checkNotTheKey(value, key)) : undefined),
  });
  return label === undefined ? undefined : label.trim() || proposed;
}

/** A scripted name is taken as the known organization it spells; otherwise the user answers. */
async function holderFor(deps: LicenceKeyCommandDeps, module: string, key: string, scripted: string | undefined): Promise<HolderAnswer | undefined> {
  if (scripted === undefined) return pickLicenceHolder(deps.holders, module, key);
  const known = (await deps.holders.keys().catch(() => [])).map((info) => info.organization);
  return { organization: canonicalOrganization(scripted, known) };
}

async function clearLicenceKey(deps: LicenceKeyCommandDeps, argument?: unknown): Promise<boolean> {
  const input = asObject(argument, 'module');
  const scripted = text(input.module);
  const module = scripted ?? (await pickModule(deps, vscode.l10n.t('Which licence key do you want to remove?'), true));
  if (!module) return false;
  if (!scripted) {
    const remove = vscode.l10n.t('Remove');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('Remove the licence key of the module "{0}" from this editor?', module),
      { modal: true },
      remove,
    );
    if (answer !== remove) return false;
  }
  try {
    await deps.licenceKeys.clear(module);
  } catch (error) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('The licence key could not be removed: {0}', error instanceof Error ? error.message : String(error)),
    );
    return false;
  }
  void vscode.window.showInformationMessage(vscode.l10n.t('Licence key of the module "{0}" removed.', module));
  return true;
}

async function resumeOrganization(deps: LicenceKeyCommandDeps, argument?: unknown): Promise<boolean> {
  const input = asObject(argument, 'organization');
  let organization = text(input.organization);
  if (!organization) {
    const stopped = deps.quota.refusedOrganizations();
    if (stopped.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No organization has its calls stopped.'));
      return false;
    }
    organization = await vscode.window.showQuickPick(stopped, {
      placeHolder: vscode.l10n.t('Whose calls should be sent again?'),
    });
    if (!organization) return false;
  }
  deps.quota.resume(organization);
  void vscode.window.showInformationMessage(
    vscode.l10n.t('Calls for "{0}" will be sent again. The server may still refuse them until its weekly quota resets.', organization),
  );
  return true;
}
