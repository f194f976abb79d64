/**
 * The calls a run will make, by what each counts against (what a run's cost and the quota guard are
 * made from, before anything is sent): a path's licence module from the route table, and the
 * organization of that module's key for the call's tenant. An absolute URL, a path no rule serves
 * and a route with no module (the tenant listing) count against no organization. No `vscode` here.
 */
import type { RouteRule } from '../api/types';
import type { PlannedCall } from './matrix';
import type { ParsedRequest } from './parser';

/** The licence module a request's path counts against (undefined: an absolute URL, no route, or a route with no module). */
export function moduleOfRequest(request: Pick<ParsedRequest, 'url'>, routeFor: (path: string) => RouteRule | undefined): string | undefined {
  return request.url.startsWith('/') ? routeFor(request.url.split('?')[0])?.module : undefined;
}

/**
 * A matrix's calls by the organization each counts against: its module's key for its tenant
 * (`organizationOf`, once per module and tenant). Undefined: no organization (no module, no key).
 */
export async function callsByOrganization(
  calls: readonly PlannedCall[],
  routeFor: (path: string) => RouteRule | undefined,
  organizationOf: (module: string, tenant: string | undefined) => Promise<string | undefined>,
): Promise<Map<string | undefined, number>> {
  const known = new Map<string, Promise<string | undefined>>();
  const counts = new Map<string | undefined, number>();
  for (const call of calls) {
    const module = moduleOfRequest(call.request, routeFor);
    let organization: string | undefined;
    if (module !== undefined) {
      const key = `${module}\u0000${call.tenant?.toLowerCase() ?? ''}`;
      if (!known.has(key)) known.set(key, organizationOf(module, call.tenant));
      organization = await known.get(key);
    }
    counts.set(organization, (counts.get(organization) ?? 0) + 1);
  }
  return counts;
}
