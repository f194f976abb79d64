/**
 * The catalogues in the Tenants view, as plain data: under each tenant the catalogues its cluster
 * serves, under the licence key's organization those of the base URL; in each, the operations grouped
 * by tag (else first path segment), each with its method, path and summary. No `vscode` here.
 */
import type { TenantRecord } from '../api/types';
import type { Catalogue } from '../catalog/catalogues';
import { describeFailure } from '../catalog/catalogues';
import type { CatalogueOperation } from '../catalog/types';
import { EDITOR_COMMAND, INTERNAL_COMMAND } from '../common/commandIds';
import * as l10n from '../common/l10n';
import type { MessageNode, NodePresentation } from './treeNodeShapes';

export interface CatalogueNode {
  kind: 'catalogue';
  id: string;
  catalogue: Catalogue;
  tenant?: TenantRecord;
}

export interface OperationGroupNode {
  kind: 'operationGroup';
  id: string;
  catalogueId: string;
  group: string;
  operations: readonly CatalogueOperation[];
  tenant?: TenantRecord;
}

export interface OperationNode {
  kind: 'operation';
  id: string;
  catalogueId: string;
  operation: CatalogueOperation;
  tenant?: TenantRecord;
}

/** What opening an operation (its item, Add to Request File) is given: plain data, so a command can take it from a test too. */
export interface OperationTarget {
  catalogueId: string;
  key: string;
  tenantId?: string;
}

/** The catalogues served by `host`, as items under `parentId` (a tenant for the cluster's, the key group for the base URL's). */
export function catalogueNodes(parentId: string, catalogues: readonly Catalogue[], host: 'base' | 'cluster', tenant?: TenantRecord): CatalogueNode[] {
  return catalogues.filter((catalogue) => catalogue.entry.host === host).map((catalogue) => ({ kind: 'catalogue', id: `${parentId}/${catalogue.id}`, catalogue, ...(tenant ? { tenant } : {}) }));
}

/** A catalogue's groups in name order, or the item that says it is loading or why it could not be read. */
export function catalogueChildren(node: CatalogueNode): Array<OperationGroupNode | MessageNode> {
  const { state } = node.catalogue;
  if (state.kind === 'idle' || state.kind === 'loading') return [{ kind: 'message', id: `${node.id}/loading`, message: l10n.t('Loading the catalogue…'), icon: 'loading' }];
  if (state.kind === 'failed') {
    const message = describeFailure(state.error);
    return [{ kind: 'message', id: `${node.id}/error`, message, tooltip: message, icon: 'error', action: { command: EDITOR_COMMAND.openSettings, title: l10n.t('Open Settings'), args: ['tenantApi.catalogues'] } }];
  }
  if (state.document.operations.length === 0) return [{ kind: 'message', id: `${node.id}/empty`, message: l10n.t('This description documents no operation.'), icon: 'info' }];
  const groups = new Map<string, CatalogueOperation[]>();
  for (const operation of state.document.operations) {
    const group = groups.get(operation.group);
    if (group) group.push(operation);
    else groups.set(operation.group, [operation]);
  }
  return [...groups]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([group, operations]) => ({ kind: 'operationGroup', id: `${node.id}/group:${group}`, catalogueId: node.catalogue.id, group, operations, ...(node.tenant ? { tenant: node.tenant } : {}) }));
}

export function groupChildren(node: OperationGroupNode): OperationNode[] {
  return node.operations.map((operation) => ({ kind: 'operation', id: `${node.id}/${operation.key}`, catalogueId: node.catalogueId, operation, ...(node.tenant ? { tenant: node.tenant } : {}) }));
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, (match) => `\\${match}`);
}

/** The operation's summary, its parameters and its body, as a tooltip or a hover shows them (Markdown). */
export function operationMarkdown(operation: CatalogueOperation): string {
  const lines = [`\`${operation.method} ${operation.path}\``];
  if (operation.summary) lines.push(`**${escapeMarkdown(operation.summary)}**`);
  if (operation.description && operation.description !== operation.summary) lines.push(escapeMarkdown(operation.description.slice(0, 500)));
  if (operation.deprecated) lines.push(l10n.t('Deprecated.'));
  const parameters = operation.parameters.map((parameter) => {
    const needed = parameter.required ? l10n.t('required') : l10n.t('optional');
    return `- \`${parameter.name}\` (${parameter.in}${parameter.type ? `, ${parameter.type}` : ''}, ${needed})${parameter.description ? `: ${escapeMarkdown(parameter.description)}` : ''}`;
  });
  if (parameters.length > 0) lines.push(l10n.t('Parameters:'), parameters.join('\n'));
  if (operation.body) lines.push(l10n.t('Body: {0}{1}', operation.body.mediaType, operation.body.required ? l10n.t(' (required)') : ''));
  return lines.join('\n\n');
}

export function presentCatalogueNode(node: CatalogueNode | OperationGroupNode | OperationNode): NodePresentation {
  switch (node.kind) {
    case 'catalogue': {
      const { state } = node.catalogue;
      const loaded = state.kind === 'loaded' ? state.document : undefined;
      return {
        label: loaded?.title ?? node.catalogue.name,
        description: loaded ? l10n.byCount(loaded.operations.length, l10n.t('{0} operation', loaded.operations.length), l10n.t('{0} operations', loaded.operations.length)) : l10n.t('catalogue'),
        tooltip: [`**${escapeMarkdown(loaded?.title ?? node.catalogue.name)}**${loaded?.apiVersion ? ` ${escapeMarkdown(loaded.apiVersion)}` : ''}`, `\`${node.catalogue.name}\``, loaded ? `OpenAPI ${loaded.version}` : undefined]
          .filter(Boolean)
          .join('\n\n'),
        contextValue: 'catalogue',
        icon: 'book',
        collapsible: 'collapsed',
      };
    }
    case 'operationGroup':
      return { label: node.group, description: String(node.operations.length), contextValue: 'operationGroup', icon: 'symbol-namespace', collapsible: 'collapsed' };
    case 'operation': {
      const { operation } = node;
      const target: OperationTarget = { catalogueId: node.catalogueId, key: operation.key, ...(node.tenant ? { tenantId: node.tenant.id } : {}) };
      return {
        label: `${operation.method} ${operation.path}`,
        description: operation.summary,
        tooltip: operationMarkdown(operation),
        contextValue: 'operation',
        icon: operation.deprecated ? 'warning' : 'symbol-method',
        collapsible: 'none',
        command: { command: INTERNAL_COMMAND.openOperation, title: l10n.t('Open Operation'), args: [target] },
      };
    }
  }
}
