import * as vscode from 'vscode';
import type { SessionState } from '../auth/types';
import type { TenantDirectory } from '../api/tenantDirectory';
import type { LicenceKeyInfo, TenantApi } from '../api/types';
import type { Event } from '../common/event';
import { silentLogger, type Logger } from '../common/logger';
import { onSettingsChange } from '../settings/editorSettings';
import type { EnvironmentScope } from '../settings/environmentScope';
import { ActiveTenantStore } from '../api/activeTenant';
import { QuotaStatusBar } from './quotaStatusBar';
import { ResponseDocuments } from './responseDocuments';
import { SwitchableTreeView } from './switchableTreeView';
import { TenantTreeProvider } from './tenantTree';
import type { TreeNode } from './tenantTreeModel';
import { trackWalkthroughProgress } from './walkthroughProgress';
import { EDITOR_COMMAND } from '../common/commandIds';
import type { CatalogueSet } from '../catalog/catalogues';

export interface ViewsDeps {
  auth: SessionState;
  api: TenantApi;
  /** The one cache of the accounts' tenants, which the tree shows. */
  tenants: TenantDirectory;
  logger?: Logger;
  /**
   * src/api's LicenceKeyStore: a key set or cleared (here or in another window) clears the resources'
   * licence problems, and the first key set completes the walkthrough's licence step.
   */
  licenceKeys?: { onDidChange: Event<{ module: string }>; get(module: string): Promise<LicenceKeyInfo | undefined> };
  /** The catalogues, whose operations the tree lists. */
  catalogues?: CatalogueSet;
  /** Parts that outlive an environment (created once by the composition root): the view and the response tabs. */
  shared?: { tenantsView: SwitchableTreeView<TreeNode>; responses: ResponseDocuments };
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
export const TENANTS_VIEW_ID = 'tenantApi.tenants';

/**
 * The Tenants view, the quota status bar item and the response tabs. Cheap: nothing is listed or
 * called until the view is shown or a command runs.
 */
export function registerViews(scope: EnvironmentScope, deps: ViewsDeps): Views {
  const logger = deps.logger ?? silentLogger;
  const activeTenant = new ActiveTenantStore(scope.globalState);
  const tree = new TenantTreeProvider(deps.auth, deps.api, deps.tenants, activeTenant, logger, deps.licenceKeys, deps.catalogues);
  const tenantsView = deps.shared?.tenantsView ?? new SwitchableTreeView<TreeNode>(TENANTS_VIEW_ID, { showCollapseAll: true });
  const treeView = tenantsView.view;
  const statusBar = new QuotaStatusBar(deps.api.quota, activeTenant, deps.tenants);
  const responses = deps.shared?.responses ?? new ResponseDocuments();
  scope.subscriptions.push(tenantsView.attach(tree), ...(deps.shared ? [] : [tenantsView, responses]));

  let signedIn = false;
  const showActiveTenant = () => {
    const active = activeTenant.get();
    treeView.description = active && signedIn ? active.label : undefined;
  };
  // getAccounts (not activeAccount) because the sessions load from SecretStorage asynchronously.
  let sync = 0;
  const syncSignedIn = async () => {
    const current = ++sync;
    let accounts: unknown[] = [];
    try {
      accounts = await deps.auth.getAccounts();
    } catch (error) {
      logger.warn(`Could not read the accounts: ${String(error)}`);
    }
    if (current !== sync) return;
    signedIn = accounts.length > 0;
    await vscode.commands.executeCommand(EDITOR_COMMAND.setContext, SIGNED_IN_CONTEXT, signedIn);
    statusBar.setSignedIn(signedIn);
    showActiveTenant();
  };
  void syncSignedIn();

  scope.subscriptions.push(
    tree,
    statusBar,
    activeTenant,
    // The tenant directory drops its listings itself; the tree redraws when it does.
    deps.auth.onDidChangeSessions(() => void syncSignedIn()),
    activeTenant.onDidChange(() => {
      showActiveTenant();
      tree.redraw();
    }),
    // A key set or cleared: its resources' problems may be solved, and the key group names its organization.
    deps.licenceKeys?.onDidChange(() => {
      tree.clearProblems();
    }) ?? { dispose() {} },
    deps.licenceKeys ? trackWalkthroughProgress({ extensionId: scope.extensionId, auth: deps.auth, licenceKeys: deps.licenceKeys, logger }) : { dispose() {} },
    onSettingsChange((affects) => {
      if (affects('baseUrl') || affects('allowedHosts') || affects('environments')) deps.tenants.refresh();
      else if (affects('endpoints')) tree.redraw();
    }),
  );
  return { tree, treeView: treeView as vscode.TreeView<unknown>, statusBar, responses, activeTenant };
}
