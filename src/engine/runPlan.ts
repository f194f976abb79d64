/**
 * The calls a run of a request file will make, by the licence module each counts against (what a
 * run's cost is made from, before anything is sent): every request once, in file order, as Send All
 * sends them; a request a later one reads is one of the file's requests, so chained requests are in.
 * A path's module comes from the route table; an absolute URL, a path no rule serves and a route with
 * no module (the tenant listing) count as calls with no module. No `vscode` here.
 */
import type { RouteRule } from '../api/types';
import type { PlannedCall } from './matrix';
import type { ParsedFile, ParsedRequest } from './parser';

/** `file` may be a run's calls alone (a test run's, chained requests included). */
export function callsByModule(file: Pick<ParsedFile, 'requests'> | { requests: readonly ParsedRequest[] }, routeFor: (path: string) => RouteRule | undefined): Map<string | undefined, number> {
  const calls = new Map<string | undefined, number>();
  for (const request of file.requests) {
    const path = request.url.startsWith('/') ? request.url.split('?')[0] : undefined;
    const module = path === undefined ? undefined : routeFor(path)?.module;
    calls.set(module, (calls.get(module) ?? 0) + 1);
  }
  return calls;
}

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
