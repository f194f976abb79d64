import type { EnvironmentScope } from '../settings/environmentScope';
import type { CommandHandlers } from '../common/commandIds';
import { silentLogger, type Logger } from '../common/logger';
import type { WorkbenchCommandContext } from './commandContext';
import { copyAsCodeCommands } from './copyAsCode';
import { curlCommands } from './curlCommands';
import { quotaCommands } from './quotaCommands';
import { RequestHistory } from './requestHistory';
import { requestCommands } from './requestCommands';
import { RequestInputError } from './requestInput';
import { RequestRunner } from './requestRunner';
import { tenantCommands } from './tenantCommands';
import { operationCommands } from './operationCommands';
import type { CatalogueSet } from '../catalog/catalogues';

export type WorkbenchCommandDeps = Omit<WorkbenchCommandContext, 'history' | 'runner'> & { logger?: Logger; catalogues?: CatalogueSet };

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
export function workbenchCommands(scope: Pick<EnvironmentScope, 'globalState'>, deps: WorkbenchCommandDeps): WorkbenchCommands {
  const logger = deps.logger ?? silentLogger;
  const history = new RequestHistory(scope.globalState);
  const runner = new RequestRunner(deps.api, deps.resolver, deps.views, history, logger, () => deps.baseUrl?.() ?? '');
  const commands: WorkbenchCommandContext = { ...deps, history, runner };
  const handlers: CommandHandlers = {
    ...requestCommands({ ...commands, catalogues: deps.catalogues }),
    ...curlCommands(commands),
    ...copyAsCodeCommands(commands, scope.globalState),
    ...tenantCommands(commands),
    ...quotaCommands(commands),
    ...operationCommands({ ...commands, catalogues: deps.catalogues }),
  };
  return { runner, history, handlers };
}

export { RequestInputError };
