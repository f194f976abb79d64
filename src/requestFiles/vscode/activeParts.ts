import type { ApiSettings } from '../../api';
import type { TenantResolver } from '../../api/tenantResolver';
import type { ApiRequest, RouteRule, TenantApi } from '../../api/types';
import type { HistoryEntry } from '../../engine/historyEntry';

/**
 * What request files use of the active environment: its own parts, each bound to that environment.
 * Request files outlive a switch (their editors, CodeLens and response tabs stay open), so they ask
 * for these at each use through `active()` and never keep one: a part kept across a switch would
 * send with another environment's token, keys and hosts.
 */
export interface RequestFileParts {
  api: Pick<TenantApi, 'send' | 'routeFor' | 'endpoints' | 'quota'>;
  /** The environment's one tenant resolver. */
  tenants: Pick<TenantResolver, 'resolve' | 'list' | 'known'>;
  /** The API settings in force (base URL, time limit of a call). */
  settings(): ApiSettings;
  /** The environment's variables. */
  variables(): Record<string, string>;
  /** The request history (Send Request's): request-file sends go into it; Save to Request File reads it. */
  history: { entries(): HistoryEntry[]; add(entry: HistoryEntry): Promise<void> };
  /** Adds a route rule to the environment's tenantApi.routes (the quick fix of an unknown path). */
  saveRoute(rule: RouteRule): Promise<void>;
  /** The licence modules the environment knows. */
  modules(): string[];
  /** The organization of the licence key a call of the module for the tenant carries (what a run's calls count against). */
  licenceOrganization(module: string, tenant?: string): Promise<string | undefined>;
  /** The environment as the runner's --env takes it (Run Request File in Terminal). */
  environmentName(): string;
  /** The active tenant's id (Run Request File in Terminal hands it to the runner). */
  activeTenantId(): string | undefined;
}

/**
 * The client and the tenant resolver as the parts that live as long as the extension hold them (the
 * engine's runner, the language features, the commands): every call goes to the environment active
 * when it is made.
 */
export function followActive(active: () => RequestFileParts): Pick<RequestFileParts, 'api' | 'tenants'> {
  const api: RequestFileParts['api'] = {
    send: (request: ApiRequest) => active().api.send(request),
    routeFor: (path) => active().api.routeFor(path),
    endpoints: () => active().api.endpoints(),
    get quota() {
      return active().api.quota;
    },
  };
  const tenants: RequestFileParts['tenants'] = {
    resolve: (reference, need, path) => active().tenants.resolve(reference, need, path),
    list: () => active().tenants.list(),
    known: () => active().tenants.known(),
  };
  return { api, tenants };
}
