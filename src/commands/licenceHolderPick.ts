import * as vscode from 'vscode';
import { checkLabel, checkNotTheKey } from '../api/licenceKeyStore';
import { canonicalOrganization, holderChoices, sameOrganizationName, type HolderChoice } from '../api/licenceHolders';
import type { LicenceKeyInfo, TenantRecord } from '../api/types';
import { COMMAND } from '../common/commandIds';

/** What the organization question needs to know of the workbench. */
export interface HolderPickDeps {
  /** The public part of every stored key. */
  keys: () => Promise<LicenceKeyInfo[]>;
  /** The signed-in account's tenants; empty when signed out, or when listing them failed. */
  tenants: () => Promise<TenantRecord[]>;
  signedIn: () => boolean;
  organizationOf: (tenantId: string) => string | undefined;
  activeTenantId: () => string | undefined;
}

type Item = vscode.QuickPickItem & { choice?: HolderChoice; action?: 'other' | 'signIn' };

/**
 * Asks whose licence the key of `module` is, among names the user knows: the organizations of the
 * other keys, then the user's tenants, "Other…" last (the only place a name is typed). Returns the
 * organization name, or undefined when the user cancels.
 */
export async function pickLicenceHolder(deps: HolderPickDeps, module: string, key: string): Promise<string | undefined> {
  for (;;) {
    let choices: HolderChoice[] = [];
    // The picker opens at once (busy) while the tenants are listed, when they are not yet.
    const items = (async () => {
      const keys = await deps.keys().catch(() => [] as LicenceKeyInfo[]);
      const tenants = deps.signedIn() ? await deps.tenants().catch(() => [] as TenantRecord[]) : [];
      choices = holderChoices({ keys, module, tenants, organizationOf: deps.organizationOf, activeTenantId: deps.activeTenantId() });
      return holderItems(choices, deps.signedIn());
    })();
    const picked = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Which organization holds this licence?'),
      placeHolder: vscode.l10n.t('Keys of the same organization share its weekly quota.'),
      ignoreFocusOut: true,
      matchOnDescription: true,
    });
    if (!picked) return undefined;
    if (picked.choice) return picked.choice.organization;
    if (picked.action === 'other') return typeOrganization(choices, key);
    // After signing in (or not), the same question again, now with the tenants when there are some.
    await vscode.commands.executeCommand(COMMAND.signIn);
  }
}

function holderItems(choices: HolderChoice[], signedIn: boolean): Item[] {
  const known = choices.filter((choice) => choice.kind === 'known');
  const tenants = choices.filter((choice) => choice.kind === 'tenant');
  const items: Item[] = [];
  if (known.length > 0) items.push({ label: vscode.l10n.t('Organizations of your keys'), kind: vscode.QuickPickItemKind.Separator });
  for (const choice of known) {
    items.push({
      label: choice.organization,
      description: choice.current
        ? vscode.l10n.t('current · keys: {0}', choice.modules.join(', '))
        : vscode.l10n.t('keys: {0}', choice.modules.join(', ')),
      detail: vscode.l10n.t('Shares the weekly quota of these keys.'),
      choice,
    });
  }
  if (tenants.length > 0) items.push({ label: vscode.l10n.t('Your tenants'), kind: vscode.QuickPickItemKind.Separator });
  for (const choice of tenants) items.push({ label: `$(organization) ${choice.organization}`, description: choice.tenant.codiceAmbienteDati, choice });
  items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
  if (!signedIn) items.push({ label: `$(sign-in) ${vscode.l10n.t('Sign In to choose from your tenants')}`, action: 'signIn' });
  items.push({ label: vscode.l10n.t('Other…'), description: vscode.l10n.t('type the name of the organization'), action: 'other' });
  return items;
}

/**
 * The last resort: a typed name. One spelled like a name offered is that one (the organizations of the
 * keys first), so a slip of the keyboard never makes a second quota.
 */
async function typeOrganization(choices: readonly HolderChoice[], key: string): Promise<string | undefined> {
  const names = choices.map((choice) => choice.organization);
  const typed = await vscode.window.showInputBox({
    title: vscode.l10n.t('Name of the organization that holds this licence'),
    prompt: vscode.l10n.t('As your licence shows it. Keys with the same organization share its weekly quota.'),
    ignoreFocusOut: true,
    validateInput: (value) => {
      const problem = checkLabel(value, 'organization') ?? checkNotTheKey(value, key);
      if (problem) return problem;
      const same = choices.find((choice) => sameOrganizationName(choice.organization, value));
      const message = !same
        ? vscode.l10n.t('A new organization: its usage is counted on its own.')
        : same.kind === 'known'
          ? vscode.l10n.t('The same as "{0}": the key shares its quota.', same.organization)
          : vscode.l10n.t('Taken as your tenant "{0}".', same.organization);
      return { message, severity: vscode.InputBoxValidationSeverity.Info };
    },
  });
  return typed === undefined ? undefined : canonicalOrganization(typed, names);
}
