/**
 * tenantApi.catalogues (and an environment's `catalogues`): each entry a workspace file or an https
 * address, with the licence module and the host that serve its paths. Pure: a bad entry is a sentence
 * and is skipped, never fatal.
 */
import { isLoopbackHost } from '../common/loopbackHost';
import * as l10n from '../common/l10n';
import type { CatalogueEntry } from './types';

export const CATALOGUES_SETTING = 'tenantApi.catalogues';
const MODULE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** An address entry: https, or http on this computer (a sandbox); undefined for a file entry. */
export function addressOf(source: string): URL | undefined {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) return undefined;
  try {
    return new URL(source);
  } catch {
    return undefined;
  }
}

function entryProblem(raw: Record<string, unknown>): string | undefined {
  if (typeof raw.source !== 'string' || raw.source.trim() === '') return l10n.t('"source" must be a workspace file or an https address');
  const source = raw.source.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) {
    const url = addressOf(source);
    if (!url) return l10n.t('"{0}" is not a valid address', source.slice(0, 200));
    if (url.username || url.password) return l10n.t('the address {0} holds a user name or password', url.host);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
      return l10n.t('the address {0} does not use https (http only on this computer)', url.host);
    }
  }
  if (raw.host !== 'base' && raw.host !== 'cluster') return l10n.t('"host" must be "base" or "cluster"');
  if (raw.module !== undefined && (typeof raw.module !== 'string' || !MODULE_NAME.test(raw.module))) {
    return l10n.t('"module" must be a short name of letters, digits, ".", "_" or "-"');
  }
  return undefined;
}

export function parseCatalogueEntries(value: unknown, setting = CATALOGUES_SETTING): { entries: CatalogueEntry[]; problems: string[] } {
  const entries: CatalogueEntry[] = [];
  const problems: string[] = [];
  if (value === undefined || value === null) return { entries, problems };
  if (!Array.isArray(value)) return { entries, problems: [l10n.t('{0} must be a list of catalogues; it is ignored.', setting)] };
  value.forEach((raw, index) => {
    const problem = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? entryProblem(raw as Record<string, unknown>) : l10n.t('it is not an object');
    if (problem) {
      problems.push(l10n.t('{0}[{1}] is ignored: {2}.', setting, index, problem));
      return;
    }
    const entry = raw as { source: string; host: CatalogueEntry['host']; module?: string };
    entries.push({ source: entry.source.trim(), host: entry.host, ...(entry.module ? { module: entry.module } : {}) });
  });
  return { entries, problems };
}

/** Whether two lists name the same catalogues the same way (a settings change that is not one keeps them loaded). */
export function sameEntries(a: readonly CatalogueEntry[], b: readonly CatalogueEntry[]): boolean {
  return a.length === b.length && a.every((entry, index) => entry.source === b[index].source && entry.host === b[index].host && entry.module === b[index].module);
}
