/**
 * What the Tenants view shows, as plain data: accounts, their tenants, each tenant's resources, and
 * loading / empty / error items that always carry an action. No `vscode` here; tenantTree.ts maps
 * these to TreeItems.
 */
import * as l10n from '../common/l10n';
import type { AccountInfo } from '../auth/types';
import type { TenantListing } from '../api/tenantDirectory';
import { needsTenant } from '../api/routes';
import type { EndpointDefinition, RouteRule, TenantRecord } from '../api/types';
import { selectorLine, selectorName, type DataSelector } from './responsePresentation';
import { COMMAND, EDITOR_COMMAND, INTERNAL_COMMAND } from '../common/commandIds';
import { treeCommandOf } from '../api/errorActions';
import type { MessageNode, NodeAction, NodePresentation } from './treeNodeShapes';
import { presentCatalogueNode, type CatalogueNode, type OperationGroupNode, type OperationNode } from './catalogueTreeModel';

export type { CatalogueNode, OperationGroupNode, OperationNode };
export type { MessageNode, NodeAction, NodePresentation };

export interface AccountNode {
  kind: 'account';
  id: string;
  account: AccountInfo;
  active: boolean;
}

export interface TenantNode {
  kind: 'tenant';
  id: string;
  tenant: TenantRecord;
  accountId: string;
  active: boolean;
}

export interface ResourceProblem {
  message: string;
  action?: NodeAction;
}

export interface ResourceNode {
  kind: 'resource';
  id: string;
  /** The tenant whose data it reads; absent for a resource that is not tenant-scoped (see `selector`). */
  tenant?: TenantRecord;
  /** What selects the data of a resource that is not tenant-scoped (the licence key's organization). */
  selector?: Exclude<DataSelector, { kind: 'tenant' }>;
  endpoint: EndpointDefinition;
  problem?: ResourceProblem;
}

/** Under the active account: the resources no tenant selects (base-URL routes), beside the tenants. */
export interface KeyGroupNode {
  kind: 'keyGroup';
  id: string;
  accountId: string;
}

export type TreeNode = AccountNode | TenantNode | KeyGroupNode | ResourceNode | MessageNode | CatalogueNode | OperationGroupNode | OperationNode;

/** What the tenant directory knows of an account's tenants (src/api/tenantDirectory.ts). */
export type TenantsState = TenantListing;

export function accountNodes(accounts: AccountInfo[], activeAccountId: string | undefined): AccountNode[] {
  return accounts.map((account) => ({
    kind: 'account',
    id: `account:${account.id}`,
    account,
    active: account.id === activeAccountId,
  }));
}

/**
 * Children of an account node. Only the active account's tenants are listed (calls use its token),
 * then, with `keyResources`, the group of resources that no tenant selects.
 */
export function accountChildren(
  node: AccountNode,
  state: TenantsState | undefined,
  activeTenantId: string | undefined,
  options: { keyResources?: boolean } = {},
): TreeNode[] {
  const prefix = `${node.id}/`;
  if (!node.active) {
    return [
      {
        kind: 'message',
        id: `${prefix}use`,
        message: l10n.t('Use this account to list its tenants'),
        icon: 'account',
        action: { command: INTERNAL_COMMAND.useAccount, title: l10n.t('Use This Account'), args: [node.account.id] },
      },
    ];
  }
  if (!state || state.kind === 'loading') {
    return [{ kind: 'message', id: `${prefix}loading`, message: l10n.t('Loading tenants…'), icon: 'loading' }];
  }
  if (state.kind === 'error') return [errorNode(prefix, state)];
  const keyGroup: TreeNode[] = options.keyResources ? [{ kind: 'keyGroup', id: `${prefix}key-resources`, accountId: node.account.id }] : [];
  if (state.tenants.length === 0) {
    return [
      {
        kind: 'message',
        id: `${prefix}empty`,
        message: l10n.t('No tenants for this account. Click to refresh'),
        tooltip: l10n.t('The platform lists no data area for this user. Ask your administrator for access, then refresh.'),
        icon: 'info',
        action: { command: COMMAND.refreshTenants, title: l10n.t('Refresh Tenants') },
      },
      ...keyGroup,
    ];
  }
  const tenants = state.tenants.map((tenant): TenantNode => ({
    kind: 'tenant',
    id: `${prefix}tenant:${tenant.id}`,
    tenant,
    accountId: node.account.id,
    active: tenant.id === activeTenantId,
  }));
  return [...tenants, ...keyGroup];
}

/**
 * The known GET resources split by what selects their data (the one rule: needsTenant of their
 * route): under each tenant the tenant-scoped ones, in the key group the others.
 */
export function splitResources(
  endpoints: readonly EndpointDefinition[],
  routeFor: (path: string) => RouteRule | undefined,
): { tenantScoped: EndpointDefinition[]; notTenantScoped: Array<{ endpoint: EndpointDefinition; route: RouteRule | undefined }> } {
  const gets = endpoints.filter((endpoint) => endpoint.method.toUpperCase() === 'GET');
  const tenantScoped: EndpointDefinition[] = [];
  const notTenantScoped: Array<{ endpoint: EndpointDefinition; route: RouteRule | undefined }> = [];
  for (const endpoint of gets) {
    const route = routeFor(endpoint.path);
    if (needsTenant(route)) tenantScoped.push(endpoint);
    else notTenantScoped.push({ endpoint, route });
  }
  return { tenantScoped, notTenantScoped };
}

/** The key group's resources, each with what selects its data (the licence key's organization, or the user). */
export function keyGroupChildren(
  node: KeyGroupNode,
  resources: ReadonlyArray<{ endpoint: EndpointDefinition; selector: Exclude<DataSelector, { kind: 'tenant' }> }>,
): ResourceNode[] {
  return resources.map(({ endpoint, selector }) => ({
    kind: 'resource',
    id: `${node.id}/${endpoint.method.toUpperCase()} ${endpoint.path}`,
    selector,
    endpoint,
  }));
}

/**
 * A tenant listing that failed: the item runs what the one error map (src/api/errorActions) offers
 * for its kind (sign in, set the key, open the settings, show the usage), else it loads the listing again.
 */
function errorNode(prefix: string, state: Extract<TenantsState, { kind: 'error' }>): MessageNode {
  const base = { kind: 'message' as const, id: `${prefix}error`, tooltip: state.message, description: state.message };
  const fix = treeCommandOf(state.errorKind, { module: state.module });
  const action: NodeAction = fix
    ? { command: fix.command, title: fix.label, ...(fix.args.length > 0 ? { args: fix.args } : {}) }
    : { command: COMMAND.refreshTenants, title: l10n.t('Retry') };
  const wording = LISTING_ERROR_WORDING[action.command];
  return {
    ...base,
    message: wording?.message() ?? l10n.t('Could not load the tenants. Click to retry'),
    icon: wording?.icon ?? 'error',
    action,
  };
}

/** What a failed listing's item says, by the command it runs (the command comes from the error map). */
const LISTING_ERROR_WORDING: Readonly<Record<string, { message(): string; icon: MessageNode['icon'] }>> = {
  [COMMAND.signIn]: { message: () => l10n.t('Your session has expired. Click to sign in again'), icon: 'sign-in' },
  [EDITOR_COMMAND.openSettings]: { message: () => l10n.t('Check the Tenant API settings. Click to open them'), icon: 'error' },
  [COMMAND.setLicenceKey]: { message: () => l10n.t('A licence key is needed. Click to set one'), icon: 'error' },
  [COMMAND.showQuota]: { message: () => l10n.t('Weekly quota reached. Click to see the usage'), icon: 'warning' },
};

export function tenantChildren(node: TenantNode, endpoints: EndpointDefinition[], problems: ReadonlyMap<string, ResourceProblem>): TreeNode[] {
  if (!node.tenant.usable) {
    return [
      {
        kind: 'message',
        id: `${node.id}/unusable`,
        message: node.tenant.unusableReason ?? l10n.t('This tenant cannot be called: its cluster address is not allowed.'),
        icon: 'warning',
        action: { command: EDITOR_COMMAND.openSettings, title: l10n.t('Open Settings'), args: ['tenantApi.allowedHosts'] },
      },
    ];
  }
  const gets = endpoints.filter((endpoint) => endpoint.method.toUpperCase() === 'GET');
  if (gets.length === 0) {
    return [
      {
        kind: 'message',
        id: `${node.id}/no-resources`,
        message: l10n.t('No known resources. Click to add some (setting tenantApi.endpoints)'),
        icon: 'info',
        action: { command: EDITOR_COMMAND.openSettings, title: l10n.t('Open Settings'), args: ['tenantApi.endpoints'] },
      },
    ];
  }
  return gets.map((endpoint) => {
    const id = resourceId(node.tenant.id, endpoint);
    return { kind: 'resource', id: `${node.id}/${id}`, tenant: node.tenant, endpoint, problem: problems.get(id) };
  });
}

/** Key of a resource's problem: the same for the tenant under every account. */
export function resourceId(tenantId: string, endpoint: Pick<EndpointDefinition, 'method' | 'path'>): string {
  return `${tenantId} ${endpoint.method.toUpperCase()} ${endpoint.path}`;
}

export function present(node: TreeNode): NodePresentation {
  switch (node.kind) {
    case 'account':
      return {
        label: node.account.label,
        description: node.active ? l10n.t('active') : undefined,
        tooltip: [
          `**${escapeMarkdown(node.account.label)}**`,
          node.account.roles.length > 0 ? l10n.t('Roles: {0}', node.account.roles.join(', ')) : undefined,
        ]
          .filter((line): line is string => line !== undefined)
          .join('\n\n'),
        contextValue: 'account',
        icon: 'account',
        collapsible: node.active ? 'expanded' : 'collapsed',
      };
    case 'tenant': {
      const tenant = node.tenant;
      const lines = [
        `**${escapeMarkdown(tenant.descrizioneAmbienteDati)}** (${escapeMarkdown(tenant.codiceAmbienteDati)})`,
        l10n.t('ID: {0}', `\`${tenant.id}\``),
        l10n.t('Cluster: {0}', `\`${tenant.clusterAddress}\``),
      ];
      if (node.active) lines.push(l10n.t('Active tenant: Send Request uses it by default.'));
      if (!tenant.usable) lines.push(`$(warning) ${escapeMarkdown(tenant.unusableReason ?? l10n.t('Cannot be called.'))}`);
      return {
        label: tenant.descrizioneAmbienteDati || tenant.id,
        description: tenant.usable
          ? node.active
            ? l10n.t('{0} · active', tenant.codiceAmbienteDati)
            : tenant.codiceAmbienteDati
          : l10n.t('{0} · unusable', tenant.codiceAmbienteDati),
        tooltip: lines.join('\n\n'),
        contextValue: tenant.usable ? (node.active ? 'tenant-active' : 'tenant') : 'tenant-unusable',
        icon: tenant.usable ? (node.active ? 'pass-filled' : 'database') : 'warning',
        collapsible: node.active ? 'expanded' : 'collapsed',
      };
    }
    case 'keyGroup':
      return {
        label: l10n.t("Data of the licence key's organization"),
        description: l10n.t('no tenant is sent'),
        tooltip: l10n.t(
          "These resources are served by the base URL without a tenant (no User-Tenant header): their data are those of the organization that holds the licence key of their module, whichever tenant you work in.",
        ),
        contextValue: 'keyGroup',
        icon: 'key',
        collapsible: 'expanded',
      };
    case 'resource':
      return presentResource(node);
    case 'catalogue':
    case 'operationGroup':
    case 'operation':
      return presentCatalogueNode(node);
    case 'message':
      return {
        label: node.message,
        description: node.description,
        tooltip: node.tooltip ? escapeMarkdown(node.tooltip) : undefined,
        contextValue: node.action ? 'message-action' : 'message',
        icon: node.icon,
        collapsible: 'none',
        command: node.action,
      };
  }
}

function presentResource(node: ResourceNode): NodePresentation {
  const { endpoint } = node;
  const request = `${endpoint.method.toUpperCase()} ${endpoint.path}`;
  const tooltip = [`**${escapeMarkdown(endpoint.label)}**`, `\`${request}\``];
  if (node.tenant) tooltip.push(l10n.t('Tenant: {0}', escapeMarkdown(node.tenant.descrizioneAmbienteDati)));
  else if (node.selector) tooltip.push(escapeMarkdown(selectorLine(node.selector)));
  if (node.problem) tooltip.push(`$(warning) ${escapeMarkdown(node.problem.message)}`);
  return {
    label: endpoint.label,
    description: node.problem ? node.problem.message : node.selector ? `${selectedBy(node.selector)} · ${request}` : request,
    tooltip: tooltip.join('\n\n'),
    contextValue: 'resource',
    icon: node.problem ? 'warning' : 'symbol-interface',
    collapsible: 'none',
    command: node.problem?.action ?? {
      command: COMMAND.openResource,
      title: l10n.t('Open Resource'),
      args: [{ ...(node.tenant ? { tenantId: node.tenant.id } : {}), method: endpoint.method, path: endpoint.path }],
    },
  };
}

/** Who the data of a resource outside any tenant belong to, in a few words. */
function selectedBy(selector: Exclude<DataSelector, { kind: 'tenant' }>): string {
  if (selector.kind === 'user') return l10n.t('your sign-in');
  return selectorName(selector) ?? l10n.t('no licence key for {0}', selector.module);
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, (match) => `\\${match}`);
}
