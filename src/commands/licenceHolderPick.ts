import * as vscode from 'vscode';
import { checkLabel, checkNotTheKey } from '../api/licenceKeyStore';
import {
  canonicalOrganization,
  coverageAnswer,
  coveringOrganization,
  holderChoices,
  sameOrganizationName,
  type HolderChoice,
} from '../api/licenceHolders';
import type { LicenceKeyInfo, TenantRecord } from '../api/types';
import { COMMAND } from '../common/commandIds';
import { settleOnce } from './quickInputSteps';

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
type TenantItem = vscode.QuickPickItem & { tenant: TenantRecord };

/** Whose licence a key is: its organization, and the tenants the user said it covers (remembered with the key). */
export interface HolderAnswer {
  organization: string;
  tenantIds?: string[];
}

/**
 * Asks whose licence the key of `module` is. Signed in with tenants: which of them the licence covers
 * (several at once), in the terms the user knows; the organization follows from the answer (that of
 * another key covering one of them, else a new one whose name the user confirms), so one organization
 * is never offered under two names. Signed out (or no tenants): the organizations of the other keys,
 * Sign In, "Other…" last. Undefined when the user cancels.
 */
export async function pickLicenceHolder(deps: HolderPickDeps, module: string, key: string): Promise<HolderAnswer | undefined> {
  for (;;) {
    if (deps.signedIn()) {
      const covered = await pickCoveredTenants(deps, module, key);
      if (covered !== 'noTenants') return covered;
    }
    const organization = await pickByName(deps, module, key);
    if (organization !== 'signIn') return organization === undefined ? undefined : { organization };
    // After signing in (or not), the same question again, now with the tenants when there are some.
    await vscode.commands.executeCommand(COMMAND.signIn);
  }
}

/** The names known without tenants: the other keys' organizations, Sign In, Other…. */
async function pickByName(deps: HolderPickDeps, module: string, key: string): Promise<string | 'signIn' | undefined> {
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
  return 'signIn';
}

/**
 * Which of the user's tenants the licence covers, ticked (Enter with none ticked takes the one tenant
 * the typed filter leaves, or the only one). The tenants this module's key covered are ticked at first; each tenant says which
 * organization's keys already cover it. 'noTenants' when none could be listed.
 */
async function pickCoveredTenants(deps: HolderPickDeps, module: string, key: string): Promise<HolderAnswer | undefined | 'noTenants'> {
  const quickPick = vscode.window.createQuickPick<TenantItem>();
  const baseTitle = vscode.l10n.t('Which of your tenants does this licence cover?');
  quickPick.title = baseTitle;
  quickPick.placeholder = vscode.l10n.t('Tick every tenant whose calls this licence pays for (Space ticks, Enter confirms)');
  quickPick.canSelectMany = true;
  quickPick.ignoreFocusOut = true;
  quickPick.matchOnDescription = true;
  quickPick.busy = true;
  // Opens at once (busy) while the tenants are listed, when they are not yet.
  quickPick.show();
  const [keys, tenants] = await Promise.all([deps.keys().catch(() => [] as LicenceKeyInfo[]), deps.tenants().catch(() => [] as TenantRecord[])]);
  if (tenants.length === 0) {
    quickPick.dispose();
    return 'noTenants';
  }
  const input = { keys, tenants, organizationOf: deps.organizationOf };
  const current = keys.find((info) => info.module === module);
  const activeId = deps.activeTenantId();
  const items = [...tenants]
    .sort((a, b) => Number(b.id === activeId) - Number(a.id === activeId))
    .map((tenant): TenantItem => {
      const organization = coveringOrganization(tenant, input);
      const modules = keys.filter((info) => info.organization === organization).map((info) => info.module);
      return {
        label: tenant.descrizioneAmbienteDati || tenant.codiceAmbienteDati || tenant.id,
        description: tenant.codiceAmbienteDati,
        detail: organization ? vscode.l10n.t('Counted against {0} (keys: {1})', organization, modules.join(', ')) : undefined,
        tenant,
      };
    });
  quickPick.items = items;
  quickPick.selectedItems = items.filter((item) => current?.tenantIds?.includes(item.tenant.id));
  quickPick.busy = false;
  const answer = await new Promise<{ selected: TenantRecord[] } | undefined>((resolve) => {
    const finish = settleOnce(resolve, quickPick);
    quickPick.onDidAccept(() => {
      const ticked = quickPick.selectedItems.length > 0 ? quickPick.selectedItems : onlyShown(items, quickPick.value);
      const selected = ticked.map((item) => item.tenant);
      const problem = selected.length === 0 ? vscode.l10n.t('Tick at least one tenant.') : conflictOf(selected, input);
      if (problem) quickPick.title = `${baseTitle} · ${problem}`;
      else finish({ selected });
    });
    quickPick.onDidHide(() => finish(undefined));
  });
  if (!answer) return undefined;
  const tenantIds = answer.selected.map((tenant) => tenant.id);
  const coverage = coverageAnswer(answer.selected, input);
  if (coverage.kind === 'known') return { organization: coverage.organization, tenantIds };
  const names = [...new Set(keys.map((info) => info.organization))];
  const organization = await nameOrganization(names, key, coverage.kind === 'new' ? coverage.suggested : '');
  return organization === undefined ? undefined : { organization, tenantIds };
}

/** With nothing ticked, Enter takes the one tenant the typed filter leaves (a list with checkboxes highlights none). */
function onlyShown(items: readonly TenantItem[], filter: string): TenantItem[] {
  const typed = filter.trim().toLocaleLowerCase();
  const shown = items.filter((item) => `${item.label} ${item.description ?? ''}`.toLocaleLowerCase().includes(typed));
  return shown.length === 1 ? shown : [];
}

function conflictOf(selected: readonly TenantRecord[], input: Parameters<typeof coverageAnswer>[1]): string | undefined {
  const coverage = coverageAnswer(selected, input);
  if (coverage.kind !== 'conflict') return undefined;
  const [first, second] = coverage.organizations;
  return vscode.l10n.t('"{0}" and "{1}" are two organizations, and a licence is one organization\'s: untick the tenants of one.', first, second);
}

/** A new organization's name, proposed from its tenants' names; one spelled like a known name is that one. */
async function nameOrganization(known: readonly string[], key: string, suggested: string): Promise<string | undefined> {
  const typed = await vscode.window.showInputBox({
    title: vscode.l10n.t('Name of the organization that holds this licence'),
    prompt: vscode.l10n.t('None of these tenants is covered by another key: a new organization. Press Enter to keep the name proposed.'),
    value: suggested,
    ignoreFocusOut: true,
    validateInput: (value) => {
      const problem = checkLabel(value, 'organization') ?? checkNotTheKey(value, key);
      if (problem) return problem;
      const same = known.find((name) => sameOrganizationName(name, value));
      return same ? { message: vscode.l10n.t('The same as "{0}": the key shares its quota.', same), severity: vscode.InputBoxValidationSeverity.Info } : undefined;
    },
  });
  return typed === undefined ? undefined : canonicalOrganization(typed, known);
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
