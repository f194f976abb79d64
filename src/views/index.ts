import * as vscode from 'vscode';
import type { SessionState } from '../auth/types';
import type { TenantApi } from '../api/types';
import { silentLogger, type Logger } from '../common/logger';
import { ActiveTenantStore } from './activeTenant';
import { QuotaStatusBar } from './quotaStatusBar';
import { ResponseDocuments } from './responseDocuments';
import { TenantTreeProvider } from './tenantTree';

export interface ViewsDeps {
  auth: SessionState;
  api: TenantApi;
  logger?: Logger;
}

/** What the workbench commands (and the in-editor tests, through the extension's exports) use. */
export interface Views {
  tree: TenantTreeProvider;
  treeView: vscode.TreeView<unknown>;
  statusBar: QuotaStatusBar;
  responses: ResponseDocuments;
  activeTenant: ActiveTenantStore;
}

export const SIGNED_IN_CONTEXT = 'tenantApi.signedIn';

/**
 * The Tenants view, the quota status bar item and the response tabs. Cheap: nothing is listed or
 * called until the view is shown or a command runs.
 */
export function registerViews(context: vscode.ExtensionContext, deps: ViewsDeps): Views {
  const logger = deps.logger ?? silentLogger;
  const activeTenant = new ActiveTenantStore(context.globalState);
  const tree = new TenantTreeProvider(deps.auth, deps.api, activeTenant, logger);
  const treeView = vscode.window.createTreeView('tenantApi.tenants', { treeDataProvider: tree, showCollapseAll: true });
  const statusBar = new QuotaStatusBar(deps.api.quota, deps.auth, activeTenant);
  const responses = new ResponseDocuments();

  const showActiveTenant = () => {
    const active = activeTenant.get();
    treeView.description = active && deps.auth.activeAccount() ? active.label : undefined;
  };
  const syncSignedIn = () => {
    void vscode.commands.executeCommand('setContext', SIGNED_IN_CONTEXT, deps.auth.activeAccount() !== undefined);
    showActiveTenant();
  };
  syncSignedIn();

  context.subscriptions.push(
    tree,
    treeView,
    statusBar,
    responses,
    activeTenant,
    deps.auth.onDidChangeSessions(() => {
      syncSignedIn();
      tree.refresh();
    }),
    activeTenant.onDidChange(() => {
      showActiveTenant();
      tree.redraw();
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('tenantApi.baseUrl') || event.affectsConfiguration('tenantApi.allowedHosts')) tree.refresh();
      else if (event.affectsConfiguration('tenantApi.endpoints')) tree.redraw();
    }),
  );
  return { tree, treeView: treeView as vscode.TreeView<unknown>, statusBar, responses, activeTenant };
}
