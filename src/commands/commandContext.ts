import type { CommandHandler, CommandHandlers, RegisteredCommandId } from '../common/commandIds';
import type { TenantDirectory } from '../api/tenantDirectory';
import type { TenantResolver } from '../api/tenantResolver';
import type { RouteRule, TenantApi } from '../api/types';
import type { SessionState } from '../auth/types';
import type { Views } from '../views';
import type { RequestHistory } from './requestHistory';
import type { RequestRunner } from './requestRunner';

/** What every workbench command group is given. */
export interface WorkbenchCommandContext {
  /** src/auth's AuthenticationApi (session state and, for Copy as cURL with secrets, the token). */
  auth: SessionState & { getAccessToken(options?: { forceRefresh?: boolean }): Promise<string> };
  api: TenantApi;
  /** The one cache of the accounts' tenants. */
  tenants: TenantDirectory;
  /** The one way a request's tenant is found (by id, code or description, else the active tenant). */
  resolver: TenantResolver;
  views: Views;
  history: RequestHistory;
  runner: RequestRunner;
  /** Reads a licence key from SecretStorage, only when the user asks to include it in a cURL command. */
  readLicenceKey?: (module: string) => Promise<string | undefined>;
  /** The base URL shown for the base host: the active environment's (default tenantApi.baseUrl). */
  baseUrl?: () => string;
  /** The licence modules of the route table in force (ApiClient.modules()). */
  modules?: () => string[];
  /** Remembers a route rule in the active environment's tenantApi.routes (src/settings/routeSettings). */
  saveRoute?: (rule: RouteRule) => Promise<void>;
}

/** Puts a command's handler in its group's table; the registrar (registrar.ts) registers every table from one place. */
export function handle(handlers: CommandHandlers, id: RegisteredCommandId, run: CommandHandler): void {
  handlers[id] = run;
}
