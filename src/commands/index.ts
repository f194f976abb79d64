import type * as vscode from 'vscode';
import { silentLogger, type Logger } from '../common/logger';
import type { WorkbenchCommandContext } from './commandContext';
import { registerCurlCommand } from './curlCommands';
import { registerQuotaCommands } from './quotaCommands';
import { RequestHistory } from './requestHistory';
import { registerRequestCommands } from './requestCommands';
import { RequestInputError } from './requestInput';
import { RequestRunner } from './requestRunner';
import { registerTenantCommands } from './tenantCommands';

export type WorkbenchCommandDeps = Omit<WorkbenchCommandContext, 'history' | 'runner'> & { logger?: Logger };

export interface WorkbenchCommands {
  runner: RequestRunner;
  history: RequestHistory;
}

/**
 * Workbench commands: sendRequest, rerunFromHistory, copyAsCurl, refreshTenants, openResource,
 * copyTenantId, setActiveTenant, signInToTenant, showQuota. Registration does no work.
 */
export function registerWorkbenchCommands(context: vscode.ExtensionContext, deps: WorkbenchCommandDeps): WorkbenchCommands {
  const logger = deps.logger ?? silentLogger;
  const history = new RequestHistory(context.globalState);
  const runner = new RequestRunner(deps.api, deps.resolver, deps.views, history, logger);
  const commands: WorkbenchCommandContext = { ...deps, history, runner };
  registerRequestCommands(context, commands);
  registerCurlCommand(context, commands);
  registerTenantCommands(context, commands);
  registerQuotaCommands(context, commands);
  return { runner, history };
}

export { RequestInputError };
