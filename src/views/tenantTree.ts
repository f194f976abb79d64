import * as vscode from 'vscode';
import type { SessionState } from '../auth/types';
import type { LicenceKeyInfo, TenantApi } from '../api/types';
import { TENANT_LIST_PATH } from '../api/apiClient';
import type { TenantDirectory } from '../api/tenantDirectory';
import type { Logger } from '../common/logger';
import type { ActiveTenantStore } from '../api/activeTenant';
import { dataSelector } from './responsePresentation';
import {
  accountChildren,
  accountNodes,
  keyGroupChildren,
  present,
  resourceId,
  splitResources,
  tenantChildren,
  type KeyGroupNode,
  type MessageNode,
  type ResourceProblem,
  type TreeNode,
} from './tenantTreeModel';
import { COMMAND } from '../common/commandIds';
import type { CatalogueSet } from '../catalog/catalogues';
import { catalogueChildren, catalogueNodes, groupChildren } from './catalogueTreeModel';

/** What the in-editor tests read: the tree as the user sees it. */
export interface TreeSnapshotItem {
  label: string;
  description?: string;
  contextValue: string;
  icon: string;
  command?: string;
  children?: TreeSnapshotItem[];
}

/**
 * The Tenants view. It shows the tenant directory: an account's tenants are listed when its node is
 * first shown, and every state in between is an item with an action.
 */
export class TenantTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<TreeNode | undefined | void>();
  readonly onDidChangeTreeData = this.changes.event;

  private readonly problems = new Map<string, ResourceProblem>();
  private readonly parents = new WeakMap<TreeNode, TreeNode>();
  private readonly subscription: { dispose(): void };

  constructor(
    private readonly auth: SessionState,
    private readonly api: TenantApi,
    private readonly tenants: TenantDirectory,
    private readonly activeTenant: ActiveTenantStore,
    private readonly logger: Logger,
    /** The public part of each module's licence key: its organization is what a base-URL resource reads. */
    private readonly licenceKeys?: { get(module: string): Promise<LicenceKeyInfo | undefined> },
    /** The catalogues: their operations under the tenants (cluster) and the key group (base URL). */
    private readonly catalogues?: CatalogueSet,
  ) {
    this.subscription = tenants.onDidChange((change) => {
      if (change.kind === 'listings') this.changes.fire();
    });
    this.catalogueSubscription = catalogues?.onDidChange(() => this.changes.fire());
  }

  private readonly catalogueSubscription?: { dispose(): void };

  dispose(): void {
    this.catalogueSubscription?.dispose();
    this.subscription.dispose();
    this.changes.dispose();
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const shown = present(node);
    const item = new vscode.TreeItem(
      shown.label,
      shown.collapsible === 'none'
        ? vscode.TreeItemCollapsibleState.None
        : shown.collapsible === 'expanded'
          ? vscode.TreeItemCollapsibleState.Expanded
          : vscode.TreeItemCollapsibleState.Collapsed,
    );
    item.id = node.id;
    item.description = shown.description;
    if (shown.tooltip) {
      const tooltip = new vscode.MarkdownString(shown.tooltip, true);
      item.tooltip = tooltip;
    }
    item.contextValue = shown.contextValue;
    item.iconPath = themeIcon(shown.icon);
    if (shown.command) {
      item.command = { command: shown.command.command, title: shown.command.title, arguments: shown.command.args };
    }
    return item;
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    const children = await this.childrenOf(node);
    if (node) for (const child of children) this.parents.set(child, node);
    return children;
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return this.parents.get(node);
  }

  private async childrenOf(node?: TreeNode): Promise<TreeNode[]> {
    if (!node) {
      try {
        const accounts = await this.auth.getAccounts();
        // Signed out: no items, so the view's welcome content (Sign In) shows.
        return accountNodes(accounts, this.auth.activeAccount()?.id ?? accounts[0]?.id);
      } catch (error) {
        this.logger.error(`Tenants view: could not read the accounts: ${String(error)}`);
        return [this.accountsError(error)];
      }
    }
    switch (node.kind) {
      case 'account': {
        if (node.active && !this.tenants.listing(node.account.id)) void this.tenants.load(node.account.id);
        return accountChildren(node, this.tenants.listing(node.account.id), this.activeTenant.get()?.id, {
          keyResources: this.resources().notTenantScoped.length > 0 || this.cataloguesOf('base').length > 0,
        });
      }
      case 'tenant':
        return [...tenantChildren(node, this.resources().tenantScoped, this.problems), ...(node.tenant.usable ? catalogueNodes(node.id, this.cataloguesOf('cluster'), 'cluster', node.tenant) : [])];
      case 'keyGroup':
        return [...(await this.keyGroupChildren(node)), ...catalogueNodes(node.id, this.cataloguesOf('base'), 'base')];
      case 'catalogue':
        // Expanding a catalogue is what first reads it: the tree redraws when it is read.
        void this.catalogues?.ready();
        return catalogueChildren(node);
      case 'operationGroup':
        return groupChildren(node);
      default:
        return [];
    }
  }

  private cataloguesOf(host: 'base' | 'cluster'): ReturnType<CatalogueSet['list']> {
    return (this.catalogues?.list() ?? []).filter((catalogue) => catalogue.entry.host === host);
  }

  /** The known resources by what selects their data. The tenant listing is what this tree is built from, not a resource. */
  private resources(): ReturnType<typeof splitResources> {
    const endpoints = this.api.endpoints().filter((endpoint) => endpoint.path !== TENANT_LIST_PATH);
    return splitResources(endpoints, (path) => this.api.routeFor(path));
  }

  private async keyGroupChildren(node: KeyGroupNode): Promise<TreeNode[]> {
    const entries = await Promise.all(
      this.resources().notTenantScoped.map(async ({ endpoint, route }) => {
        const licence = route?.module ? await this.licenceKeys?.get(route.module).catch(() => undefined) : undefined;
        // Only the public part: the key itself never reaches the tree.
        const info = licence ? { module: licence.module, label: licence.label, organization: licence.organization } : undefined;
        const selector = dataSelector(route, undefined, info);
        return selector.kind === 'tenant' ? [] : [{ endpoint, selector }];
      }),
    );
    return keyGroupChildren(node, entries.flat());
  }

  private accountsError(error: unknown): MessageNode {
    return {
      kind: 'message',
      id: 'accounts-error',
      message: vscode.l10n.t('Could not read your sessions: {0}', error instanceof Error ? error.message : String(error)),
      icon: 'error',
      action: { command: COMMAND.refreshTenants, title: vscode.l10n.t('Retry') },
    };
  }

  /** Redraw without listing again (active tenant, resource problems). */
  redraw(): void {
    this.changes.fire();
  }

  setProblem(tenantId: string, endpoint: { method: string; path: string }, problem: ResourceProblem | undefined): void {
    const key = resourceId(tenantId, endpoint);
    const had = this.problems.has(key);
    if (problem) this.problems.set(key, problem);
    else this.problems.delete(key);
    if (problem || had) this.changes.fire();
  }

  /** A licence key changed: resource problems may be solved, and the key group names its organization: redraw. */
  clearProblems(): void {
    this.problems.clear();
    this.changes.fire();
  }

  /** The tree as shown, expanded to `depth` levels (for the in-editor tests and diagnostics). */
  async snapshot(depth = 3): Promise<TreeSnapshotItem[]> {
    const walk = async (node: TreeNode | undefined, level: number): Promise<TreeSnapshotItem[]> => {
      const children = await this.getChildren(node);
      return Promise.all(
        children.map(async (child) => {
          const shown = present(child);
          const item: TreeSnapshotItem = {
            label: shown.label,
            description: shown.description,
            contextValue: shown.contextValue,
            icon: shown.icon,
            command: shown.command?.command,
          };
          if (shown.collapsible !== 'none' && level < depth) item.children = await walk(child, level + 1);
          return item;
        }),
      );
    };
    return walk(undefined, 1);
  }
}

function themeIcon(icon: string): vscode.ThemeIcon {
  switch (icon) {
    case 'loading':
      return new vscode.ThemeIcon('loading~spin');
    case 'error':
      return new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'));
    case 'warning':
      return new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
    case 'pass-filled':
      return new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('charts.green'));
    default:
      return new vscode.ThemeIcon(icon);
  }
}
