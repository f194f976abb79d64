import * as vscode from 'vscode';
import type { TenantNode } from '../views/tenantTreeModel';
import { handle, type WorkbenchCommandContext } from './commandContext';
import { COMMAND, INTERNAL_COMMAND, type CommandHandlers } from '../common/commandIds';

/** tenantApi.refreshTenants, copyTenantId, setActiveTenant, signInToTenant and the tree's "use this account". */
export function tenantCommands(deps: WorkbenchCommandContext): CommandHandlers {
  const handlers: CommandHandlers = {};
  const { views, tenants } = deps;

  handle(handlers, COMMAND.refreshTenants, () => tenants.refresh());

  handle(handlers, COMMAND.copyTenantId, async (args?: unknown) => {
    const tenantId = tenantIdOf(args);
    if (!tenantId) return;
    await vscode.env.clipboard.writeText(tenantId);
    void vscode.window.setStatusBarMessage(vscode.l10n.t('Tenant ID copied: {0}', tenantId), 3000);
  });

  handle(handlers, COMMAND.setActiveTenant, async (args?: unknown) => {
    const tenantId = tenantIdOf(args);
    let tenant = tenantId ? await deps.resolver.find(tenantId).catch(() => undefined) : undefined;
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

  handle(handlers, COMMAND.signInToTenant, (args?: unknown) => {
    const tenantId = tenantIdOf(args);
    return vscode.commands.executeCommand(COMMAND.signIn, tenantId ? { tenantId } : undefined);
  });

  handle(handlers, INTERNAL_COMMAND.useAccount, (accountId?: unknown) => {
    if (typeof accountId !== 'string') return;
    deps.auth.setActiveAccount(accountId);
    tenants.refresh();
  });
  return handlers;
}

function tenantIdOf(args: unknown): string | undefined {
  if (typeof args === 'string') return args;
  const node = args as Partial<TenantNode> | { tenantId?: unknown } | undefined;
  if (node && 'kind' in node && node.kind === 'tenant' && node.tenant) return node.tenant.id;
  if (node && 'tenantId' in node && typeof node.tenantId === 'string') return node.tenantId;
  return undefined;
}

