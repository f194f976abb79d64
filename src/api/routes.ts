import * as l10n from '../common/l10n';
import type { Logger } from '../common/logger';
import type { EndpointDefinition, RouteRule } from './types';

/**
 * Which host and licence module serve a path prefix (spec 4.4, 4.5, 5.3, 5.5). The first matching
 * rule wins; rules from the tenantApi.routes setting come before these. A rule with `cacheSeconds`
 * marks a static resource (spec 8: aggregated data, dashboards may be cached): the spec names none
 * of the platform's, so no built-in rule has it; a user rule for one such path adds it.
 */
export const BUILT_IN_ROUTES: readonly RouteRule[] = [
  // The tenant listing needs only the bearer token.
  { prefix: '/v10/', host: 'base' },
  { prefix: '/api/', host: 'base', module: 'core' },
  { prefix: '/efat/', host: 'cluster', module: 'efat', tenantScoped: true },
];

/**
 * The known GET endpoints, for the tree and for suggestions; tenantApi.endpoints adds to them. A label
 * is the resource's own (Italian) name where the platform gives one; the others are ours, translated
 * when read (a getter: this table is built before activation installs the display language).
 */
export const BUILT_IN_ENDPOINTS: readonly EndpointDefinition[] = [
  { label: 'Configurazioni', method: 'GET', path: '/api/configurazioni' },
  { label: 'Ditte', method: 'GET', path: '/efat/api/v1/ditte' },
  {
    get label() {
      return l10n.t('User tenants');
    },
    method: 'GET',
    path: '/v10/user-tenants',
  },
];

/** A static resource's answer is kept at most a day (in memory, for this session). */
export const MAX_CACHE_SECONDS = 86_400;

function validCacheSeconds(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_CACHE_SECONDS;
}

const MODULE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const METHOD = /^[A-Za-z]{1,16}$/;

function normalizePrefix(prefix: string): string {
  return prefix.endsWith('/') ? prefix : `${prefix}/`;
}

/** Whether calls on this route name a tenant: tenant-scoped rules and every rule served by a cluster. */
export function needsTenant(route: RouteRule | undefined): boolean {
  return route !== undefined && (route.tenantScoped === true || route.host === 'cluster');
}

/** True when `path` (without query) is `prefix` itself or below it. */
export function matchesPrefix(path: string, prefix: string): boolean {
  const withSlash = normalizePrefix(prefix);
  return path.startsWith(withSlash) || path === withSlash.slice(0, -1);
}

/** Checks the user's rules one by one: a bad rule is logged and skipped, never fatal. */
export function parseRouteSetting(value: unknown, logger?: Logger): RouteRule[] {
  if (!Array.isArray(value)) return [];
  const rules: RouteRule[] = [];
  value.forEach((raw: unknown, index) => {
    const rule = raw as Partial<RouteRule> | null;
    const problem =
      typeof rule !== 'object' || rule === null
        ? 'not an object'
        : typeof rule.prefix !== 'string' || !rule.prefix.startsWith('/') || rule.prefix.includes('?')
          ? 'prefix must be a path starting with "/"'
          : rule.host !== 'base' && rule.host !== 'cluster'
            ? 'host must be "base" or "cluster"'
            : rule.module !== undefined && (typeof rule.module !== 'string' || !MODULE_NAME.test(rule.module))
              ? 'module must be a short name of letters, digits, ".", "_" or "-"'
              : rule.tenantScoped !== undefined && typeof rule.tenantScoped !== 'boolean'
                ? 'tenantScoped must be true or false'
                : rule.cacheSeconds !== undefined && !validCacheSeconds(rule.cacheSeconds)
                  ? `cacheSeconds must be a whole number of seconds from 1 to ${MAX_CACHE_SECONDS}`
                  : undefined;
    if (problem || !rule) {
      logger?.warn(`tenantApi.routes[${index}] ignored: ${problem}`);
      return;
    }
    rules.push({
      prefix: rule.prefix!,
      host: rule.host!,
      ...(rule.module ? { module: rule.module } : {}),
      // A cluster host is only known through a tenant, so a cluster rule is always tenant-scoped.
      ...(rule.tenantScoped || rule.host === 'cluster' ? { tenantScoped: true } : {}),
      ...(rule.cacheSeconds !== undefined ? { cacheSeconds: rule.cacheSeconds } : {}),
    });
  });
  return rules;
}

export function parseEndpointSetting(value: unknown, logger?: Logger): EndpointDefinition[] {
  if (!Array.isArray(value)) return [];
  const endpoints: EndpointDefinition[] = [];
  value.forEach((raw: unknown, index) => {
    const entry = raw as Partial<EndpointDefinition> | null;
    if (typeof entry !== 'object' || entry === null || typeof entry.path !== 'string' || !entry.path.startsWith('/')) {
      logger?.warn(`tenantApi.endpoints[${index}] ignored: path must start with "/"`);
      return;
    }
    const method = typeof entry.method === 'string' && METHOD.test(entry.method) ? entry.method.toUpperCase() : 'GET';
    const label = typeof entry.label === 'string' && entry.label.trim() ? entry.label.trim() : entry.path;
    endpoints.push({ label, method, path: entry.path });
  });
  return endpoints;
}

/** The route table in force: the user's rules first, then those the catalogues imply, then the built-in ones. */
export class RouteTable {
  readonly rules: readonly RouteRule[];

  constructor(userRules: readonly RouteRule[] = [], builtIn: readonly RouteRule[] = BUILT_IN_ROUTES, catalogued: readonly RouteRule[] = []) {
    this.rules = [...userRules, ...catalogued, ...builtIn];
  }

  match(path: string): RouteRule | undefined {
    const pathOnly = path.split('?')[0];
    return this.rules.find((rule) => matchesPrefix(pathOnly, rule.prefix));
  }

  /** Licence modules, in table order, each once. */
  modules(): string[] {
    return [...new Set(this.rules.flatMap((rule) => (rule.module ? [rule.module] : [])))];
  }

  /** Path prefixes served by each module (for the licence key picker). */
  prefixesOf(module: string): string[] {
    return this.rules.filter((rule) => rule.module === module).map((rule) => rule.prefix);
  }
}

export function mergeEndpoints(user: readonly EndpointDefinition[], builtIn: readonly EndpointDefinition[] = BUILT_IN_ENDPOINTS): EndpointDefinition[] {
  const seen = new Set<string>();
  return [...user, ...builtIn].filter((endpoint) => {
    const key = `${endpoint.method} ${endpoint.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** What the user answered for a path no rule matched: which host serves it and which module's key it needs. */
export interface RouteAnswer {
  host: RouteRule['host'];
  /** Undefined: the path needs no licence key. */
  module?: string;
}

/**
 * The rule to remember for a path no rule matched: its first segment as the prefix (`/foo/bar` ->
 * `/foo/`), so the next path under it is matched without asking. Undefined for `/` (a rule for
 * every path would shadow the built-in ones) and for a path whose segment a setting could not hold.
 */
export function proposeRule(path: string, answer: RouteAnswer = { host: 'base' }): RouteRule | undefined {
  const first = path.split('?')[0].split('/').filter(Boolean)[0];
  if (!first || /\s/.test(first)) return undefined;
  const rule: RouteRule = { prefix: `/${first}/`, host: answer.host };
  if (answer.module !== undefined) {
    if (!MODULE_NAME.test(answer.module)) return undefined;
    rule.module = answer.module;
  }
  if (answer.host === 'cluster') rule.tenantScoped = true;
  return rule;
}
