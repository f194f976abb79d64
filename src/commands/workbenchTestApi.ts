import type { Views } from '../views';
import type { TreeSnapshotItem } from '../views/tenantTree';
import type { QuotaStatusState } from '../views/quotaStatusBar';
import type { WorkbenchCommands } from '.';
import type { HistoryEntry } from './requestHistory';
import type { LastRequest } from './requestRunner';

/**
 * Read-only view of the workbench for the in-editor tests (returned from activate() as `workbench`):
 * what the tree and the status bar show, and what history kept. Nothing here can change state.
 */
export interface WorkbenchTestApi {
  treeSnapshot(depth?: number): Promise<TreeSnapshotItem[]>;
  statusBar(): QuotaStatusState;
  history(): HistoryEntry[];
  lastRequest(): LastRequest | undefined;
  activeTenantId(): string | undefined;
}

export function workbenchTestApi(views: Views, commands: WorkbenchCommands): WorkbenchTestApi {
  return {
    treeSnapshot: (depth) => views.tree.snapshot(depth),
    statusBar: () => views.statusBar.current(),
    history: () => commands.history.entries(),
    lastRequest: () => commands.runner.lastRequest(),
    activeTenantId: () => views.activeTenant.get()?.id,
  };
}
