import * as vscode from 'vscode';
import type { TenantNode } from '../views/tenantTreeModel';
import { registerCommand as register, type WorkbenchCommandContext } from './commandContext';
import { COMMAND, INTERNAL_COMMAND } from '../common/commandIds';

/** tenantApi.refreshTenants, copyTenantId, setActiveTenant, signInToTenant and the tree's "use this account". */
export function registerTenantCommands(context: vscode.ExtensionContext, deps: WorkbenchCommandContext): void {
  const { views, tenants } = deps;

  register(context, COMMAND.refreshTenants, () => tenants.refresh());

  register(context, COMMAND.copyTenantId, async (args?: unknown) => {
    const tenantId = tenantIdOf(args);
    if (!tenantId) return;
    await vscode.env.clipboard.writeText(tenantId);
    void vscode.window.setStatusBarMessage(vscode.l10n.t('Tenant ID copied: {0}', tenantId), 3000);
  });

  register(context, COMMAND.setActiveTenant, async (args?: unknown) => {
    const tenantId = tenantIdOf(args);
    let tenant = tenantId ? await tenants.byId(tenantId) : undefined;
    if (!tenant) {
      const listed = await tenants.tenants().catch(() => []);
      const picked = await vscode.window.showQuickPick(
        listed.map((t) => ({ label: t.descrizioneAmbienteDati, description: t.codiceAmbienteDati, detail: t.id, tenant: t })),
        { title: vscode.l10n.t('Set as Active Tenant') },
      );
      tenant = picked?.tenant;
    }
    if (!tenant) return;
    if (!tenant.usable) {
      void vscode.window.showWarningMessage(tenant.unusableReason ?? vscode.l10n.t('This tenant cannot be called.'));
      return;
    }
    await views.activeTenant.set({ id: tenant.id, label: tenant.descrizioneAmbienteDati });
    void vscode.window.setStatusBarMessage(vscode.l10n.t('Active tenant: {0}', tenant.descrizioneAmbienteDati), 3000);
  });

  register(context, COMMAND.signInToTenant, (args?: unknown) => {
    const tenantId = tenantIdOf(args);
    return vscode.commands.executeCommand(COMMAND.signIn, tenantId ? { tenantId } : undefined);
  });

  register(context, INTERNAL_COMMAND.useAccount, (accountId?: unknown) => {
    if (typeof accountId !== 'string') return;
    deps.auth.setActiveAccount(accountId);
    tenants.refresh();
  });
}

function tenantIdOf(args: unknown): string | undefined {
  if (typeof args === 'string') return args;
  const node = args as Partial<TenantNode> | { tenantId?: unknown } | undefined;
  if (node && 'kind' in node && node.kind === 'tenant' && node.tenant) return node.tenant.id;
  if (node && 'tenantId' in node && typeof node.tenantId === 'string') return node.tenantId;
  return undefined;
}

