/**
 * The calls a run of a request file will make, by the licence module each counts against (what a
 * run's cost is made from, before anything is sent): every request once, in file order, as Send All
 * sends them; a request a later one reads is one of the file's requests, so chained requests are in.
 * A path's module comes from the route table; an absolute URL, a path no rule serves and a route with
 * no module (the tenant listing) count as calls with no module. No `vscode` here.
 */
import type { RouteRule } from '../api/types';
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
