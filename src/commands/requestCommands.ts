import * as vscode from 'vscode';
import type { ResourceNode, TenantNode } from '../views/tenantTreeModel';
import { handle, type WorkbenchCommandContext } from './commandContext';
import { pickHistoryEntry } from './historyPicker';
import { normalizeArgs, type NormalizedRequest } from './requestInput';
import { FIX_RESOURCE_COMMAND, type FixResourceArgs } from './requestOutcome';
import type { RequestSummary } from './requestRunner';
import type { FlowDeps } from './sendRequestChecks';
import type { CatalogueSet } from '../catalog/catalogues';
import { responseTabRequest, runFileCommand } from './responseTabRequest';
import { askForRequest } from './sendRequestFlow';
import { COMMAND, type CommandHandlers } from '../common/commandIds';

/** tenantApi.sendRequest, tenantApi.openResource (and the fix of a resource's problem), tenantApi.rerunFromHistory. */
export function requestCommands(deps: WorkbenchCommandContext & { catalogues?: CatalogueSet }): CommandHandlers {
  const handlers: CommandHandlers = {};
  const { runner, history, views } = deps;

  handle(handlers, COMMAND.sendRequest, async (args?: unknown): Promise<RequestSummary | undefined> => {
    let request: NormalizedRequest | undefined;
    if (isArgumentObject(args)) {
      try {
        request = normalizeArgs(args);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        void vscode.window.showErrorMessage(message);
        const input = args as { method?: unknown; path?: unknown };
        return { ok: false, method: String(input.method ?? ''), path: String(input.path ?? ''), warnings: [], error: { kind: 'invalidRequest', message } };
      }
    } else {
      request = await askForRequest(flowDeps(deps), tenantDefaults(args));
    }
    return request ? runner.run(request) : undefined;
  });

  handle(handlers, COMMAND.openResource, async (args?: unknown): Promise<RequestSummary | undefined> => {
    const target = resourceTarget(args);
    if (!target) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Open a resource from the Tenants view.'));
      return undefined;
    }
    return runner.run(normalizeArgs({ method: target.method, path: target.path, tenantId: target.tenantId }), { fromTree: true });
  });

  handle(handlers, FIX_RESOURCE_COMMAND, async (args?: unknown) => {
    const fix = args as FixResourceArgs | undefined;
    if (!fix?.fix) return;
    await vscode.commands.executeCommand(fix.fix, ...(fix.fixArgs ?? []));
    views.tree.setProblem(fix.tenantId, fix, undefined);
    return vscode.commands.executeCommand(COMMAND.openResource, { tenantId: fix.tenantId, method: fix.method, path: fix.path });
  });

  // From a response tab's title bar: that tab's request (a request file's, sent from its file); else from the history.
  handle(handlers, COMMAND.rerunFromHistory, async (args?: unknown): Promise<unknown> => {
    const tab = await responseTabRequest(args, views.responses, history.entries());
    if (tab && 'file' in tab) return runFileCommand(COMMAND.requestFileSend, tab.file, tab.index);
    const index = (args as { index?: unknown } | undefined)?.index;
    const entry = tab?.entry ?? (typeof index === 'number' ? history.entries()[index] : await pickHistoryEntry(history));
    if (!entry) return undefined;
    return runner.run(
      normalizeArgs({ method: entry.method, path: entry.path, tenantId: entry.tenantId, query: entry.query, body: entry.body, headers: entry.headers }),
    );
  });
  // A cached answer's Refresh: the tab's request sent for real (a static resource's kept answer is replaced).
  handle(handlers, COMMAND.refreshResponse, async (args?: unknown): Promise<unknown> => {
    const tab = await responseTabRequest(args ?? vscode.window.activeTextEditor?.document.uri, views.responses, history.entries());
    if (tab && 'file' in tab) return vscode.commands.executeCommand(COMMAND.requestFileSend, tab.file, tab.index, { bypassCache: true });
    if (!tab) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Refresh sends the request of a response tab: open one first.'));
      return undefined;
    }
    const { entry } = tab;
    return runner.run(
      normalizeArgs({ method: entry.method, path: entry.path, tenantId: entry.tenantId, query: entry.query, body: entry.body, headers: entry.headers, bypassCache: true }),
    );
  });
  return handlers;
}

/** What the Send Request flow asks of the rest of the extension. */
function flowDeps(deps: WorkbenchCommandContext & { catalogues?: CatalogueSet }): FlowDeps {
  return {
    api: deps.api,
    tenants: deps.tenants,
    activeTenant: deps.views.activeTenant,
    history: deps.history,
    baseUrl: deps.baseUrl,
    auth: deps.auth,
    signIn: async () => Boolean(await vscode.commands.executeCommand(COMMAND.signIn)),
    hasLicenceKey: async (module) => Boolean(await deps.readLicenceKey?.(module).catch(() => undefined)),
    setLicenceKey: async (module) => (await vscode.commands.executeCommand(COMMAND.setLicenceKey, { module })) === true,
    modules: () => deps.modules?.() ?? [],
    saveRoute: async (rule) => {
      if (!deps.saveRoute) throw new Error(vscode.l10n.t('routes cannot be saved here'));
      await deps.saveRoute(rule);
    },
    catalogues: deps.catalogues,
  };
}

/** A scripted call passes an object with a method; the view title and palette pass nothing. */
function isArgumentObject(args: unknown): boolean {
  return typeof args === 'object' && args !== null && !('kind' in args) && ('method' in args || 'path' in args);
}

function tenantDefaults(args: unknown): { tenantId?: string } {
  const node = args as Partial<TenantNode> | undefined;
  return node?.kind === 'tenant' && node.tenant ? { tenantId: node.tenant.id } : {};
}

function resourceTarget(args: unknown): { tenantId?: string; method: string; path: string } | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const node = args as Partial<ResourceNode>;
  if (node.kind === 'resource' && node.endpoint) {
    return { tenantId: node.tenant?.id, method: node.endpoint.method, path: node.endpoint.path };
  }
  const plain = args as { tenantId?: unknown; method?: unknown; path?: unknown };
  if (typeof plain.path !== 'string') return undefined;
  return {
    tenantId: typeof plain.tenantId === 'string' ? plain.tenantId : undefined,
    method: typeof plain.method === 'string' ? plain.method : 'GET',
    path: plain.path,
  };
}

