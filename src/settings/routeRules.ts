import type { RouteRule } from '../api/types';
import { environmentId } from './environments';

/*
 * Adding a rule the user answered to the tenantApi.routes table they already have. Pure: the editor
 * reads the raw values and writes back what these return (src/settings/routeSettings.ts).
 */

/** The rules with `rule` added last; a rule with the same prefix is replaced (the user answered again). */
export function withRouteRule(routes: unknown, rule: RouteRule): unknown[] {
  const existing = Array.isArray(routes) ? routes : [];
  const samePrefix = (raw: unknown) => typeof raw === 'object' && raw !== null && (raw as { prefix?: unknown }).prefix === rule.prefix;
  return [...existing.filter((raw) => !samePrefix(raw)), { ...rule }];
}

/**
 * tenantApi.environments with `rule` added to the routes of the environment named `name` (which sets
 * routes of its own, or its rules would replace the top-level ones). Undefined when no entry has the name.
 */
export function environmentsWithRouteRule(environments: unknown, name: string, rule: RouteRule): unknown[] | undefined {
  if (!Array.isArray(environments)) return undefined;
  const wanted = environmentId(name);
  const index = environments.findIndex(
    (entry) => typeof entry === 'object' && entry !== null && environmentId(String((entry as { name?: unknown }).name ?? '')) === wanted,
  );
  if (index === -1) return undefined;
  const entry = environments[index] as Record<string, unknown>;
  const updated = [...environments];
  updated[index] = { ...entry, routes: withRouteRule(entry.routes, rule) };
  return updated;
}
