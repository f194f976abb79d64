import type * as vscode from 'vscode';
import type { CommandHandlers } from '../common/commandIds';
import { silentLogger, type Logger } from '../common/logger';
import type { WorkbenchCommandContext } from './commandContext';
import { curlCommands } from './curlCommands';
import { quotaCommands } from './quotaCommands';
import { RequestHistory } from './requestHistory';
import { requestCommands } from './requestCommands';
import { RequestInputError } from './requestInput';
import { RequestRunner } from './requestRunner';
import { tenantCommands } from './tenantCommands';

export type WorkbenchCommandDeps = Omit<WorkbenchCommandContext, 'history' | 'runner'> & { logger?: Logger };

export interface WorkbenchCommands {
  runner: RequestRunner;
  history: RequestHistory;
  /** Their handlers, for the registrar (registrar.ts). */
  handlers: CommandHandlers;
}

/**
 * Workbench commands: sendRequest, rerunFromHistory, copyAsCurl, refreshTenants, openResource,
 * copyTenantId, setActiveTenant, signInToTenant, showQuota: their handlers, which the registrar
 * registers. Building them does no work.
 */
export function workbenchCommands(context: vscode.ExtensionContext, deps: WorkbenchCommandDeps): WorkbenchCommands {
  const logger = deps.logger ?? silentLogger;
  const history = new RequestHistory(context.globalState);
  const runner = new RequestRunner(deps.api, deps.resolver, deps.views, history, logger, () => deps.baseUrl?.() ?? '');
  const commands: WorkbenchCommandContext = { ...deps, history, runner };
  const handlers: CommandHandlers = {
    ...requestCommands(context, commands),
    ...curlCommands(commands),
    ...tenantCommands(commands),
    ...quotaCommands(commands),
  };
  return { runner, history, handlers };
}

export { RequestInputError };
