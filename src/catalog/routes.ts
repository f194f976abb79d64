/**
 * The routes a catalogue implies: each operation's path up to its first templated segment, served by
 * the catalogue's host with its licence module, fewest rules first (a prefix under another is dropped).
 */
import { matchesPrefix } from '../api/routes';
import type { RouteRule } from '../api/types';
import type { CatalogueEntry, CatalogueOperation } from './types';

/** `/efat/api/v1/ditte/{id}` -> `/efat/api/v1/ditte/`; a path without a template is its own prefix. */
export function literalPrefix(path: string): string {
  const template = path.indexOf('{');
  if (template < 0) return path;
  const head = path.slice(0, template);
  return head.slice(0, head.lastIndexOf('/') + 1);
}

export function catalogueRoutes(operations: readonly CatalogueOperation[], entry: Pick<CatalogueEntry, 'host' | 'module'>): RouteRule[] {
  const prefixes = [...new Set(operations.map((operation) => literalPrefix(operation.path)))]
    // `/` or `/{id}` would claim every path of the platform.
    .filter((prefix) => prefix.replace(/\/+$/, '') !== '')
    .sort((a, b) => a.length - b.length || a.localeCompare(b));
  const kept: string[] = [];
  for (const prefix of prefixes) if (!kept.some((shorter) => matchesPrefix(prefix, shorter))) kept.push(prefix);
  return kept.map((prefix) => ({
    prefix,
    host: entry.host,
    ...(entry.module ? { module: entry.module } : {}),
    ...(entry.host === 'cluster' ? { tenantScoped: true } : {}),
  }));
}
