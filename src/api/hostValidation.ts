import { getDomain, parse } from 'tldts';
import * as l10n from '../common/l10n';
import { isLoopbackHost } from '../common/loopbackHost';

/** Outcome of checking whether an address may receive the bearer token and licence keys. */
export type HostVerdict = { ok: true; url: URL } | { ok: false; reason: string };

export { isLoopbackHost };

function isIpAddress(host: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[') || host.includes(':');
}

/**
 * The registrable domain of a host ("eTLD+1") from the Public Suffix List, private section included
 * (tldts bundles the list, so no network is needed): acme.azurewebsites.net and user.github.io are
 * registrable domains of their own, so the default trust of one never reaches its neighbours.
 * Undefined for IP addresses, single labels and hosts that are a public suffix themselves: then only
 * the host itself is trusted.
 */
export function registrableDomain(hostname: string): string | undefined {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (isIpAddress(host)) return undefined;
  return getDomain(host, { allowPrivateDomains: true, extractHostname: false }) ?? undefined;
}

/** "example.com", "*.example.com", ".example.com" or "https://example.com:8443/x" -> "example.com". */
export function normalizeAllowedHost(entry: string): string | undefined {
  let value = entry.trim().toLowerCase();
  if (!value) return undefined;
  if (value.includes('://')) {
    try {
      value = new URL(value).hostname;
    } catch {
      return undefined;
    }
  }
  value = value.replace(/^\*?\./, '').replace(/\.$/, '').replace(/:\d+$/, '');
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/.test(value) || value.startsWith('.') || value.includes('..')) return undefined;
  return value;
}

/**
 * Whether a host is itself a suffix of the Public Suffix List, ICANN or private section (co.uk,
 * azurewebsites.net, github.io): as an allowed host it would trust every neighbour under it. A single
 * label no rule of the list names (localhost, an intranet name) is not one.
 */
export function isPublicSuffix(host: string): boolean {
  if (isIpAddress(host)) return false;
  const parsed = parse(host, { allowPrivateDomains: true, extractHostname: false });
  return parsed.domain === null && parsed.publicSuffix === host && (parsed.isIcann === true || parsed.isPrivate === true);
}

/** The tenantApi.allowedHosts entries (as written) that are a public suffix: they are refused. */
export function publicSuffixEntries(entries: readonly string[]): string[] {
  return entries.filter((entry) => {
    const host = normalizeAllowedHost(entry);
    return host !== undefined && isPublicSuffix(host);
  });
}

/** The sentence that refuses such an entry, naming it and the setting it is in. */
export function publicSuffixProblem(entry: string, setting: string): string {
  return l10n.t('"{0}" in {1} is ignored: it is a public suffix, so it would trust every site under it. Name your own domain instead.', entry.trim(), setting);
}

/** The entries a policy may trust: well-formed, and no public suffix. */
function usableAllowedHosts(entries: readonly string[]): string[] {
  return entries
    .map(normalizeAllowedHost)
    .filter((entry): entry is string => entry !== undefined && !isPublicSuffix(entry));
}

function hostMatches(host: string, allowed: string): boolean {
  return host === allowed || (!isIpAddress(allowed) && host.endsWith(`.${allowed}`));
}

export interface HostPolicy {
  baseUrl: string;
  allowedHosts: readonly string[];
}

/** The scheme and shape rules every credential-bearing address must meet. */
export function checkAddressShape(address: string): HostVerdict {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return { ok: false, reason: l10n.t('"{0}" is not a valid address.', address.slice(0, 200)) };
  }
  if (url.username || url.password) {
    return { ok: false, reason: l10n.t('The address {0} contains a user name or password.', url.host) };
  }
  if (url.protocol === 'https:') return { ok: true, url };
  if (url.protocol === 'http:') {
    if (isLoopbackHost(url.hostname)) return { ok: true, url };
    return { ok: false, reason: l10n.t('The address {0} uses plain http; only https is allowed (http only on this computer).', url.host) };
  }
  return { ok: false, reason: l10n.t('The address {0} does not use https.', address.slice(0, 200)) };
}

/** Checks the configured base URL itself. */
export function validateBaseUrl(baseUrl: string): HostVerdict {
  if (!baseUrl.trim()) {
    return { ok: false, reason: l10n.t('The setting tenantApi.baseUrl is empty. Set the address of the API host.') };
  }
  return checkAddressShape(baseUrl.trim());
}

/**
 * May `address` receive the bearer token and licence keys? Only when it has the right shape and its
 * host is the base URL's host or allowed by tenantApi.allowedHosts (an entry also allows its
 * subdomains; an entry that is a public suffix is ignored; when no entry is left, the base URL's
 * registrable domain by the Public Suffix List and its subdomains).
 */
export function validateCredentialHost(address: string, policy: HostPolicy): HostVerdict {
  const shape = checkAddressShape(address);
  if (!shape.ok) return shape;
  const base = validateBaseUrl(policy.baseUrl);
  if (!base.ok) return base;
  const host = shape.url.hostname.toLowerCase();
  const baseHost = base.url.hostname.toLowerCase();
  if (host === baseHost) return shape;
  const entries = usableAllowedHosts(policy.allowedHosts);
  const defaultDomain = registrableDomain(baseHost);
  const allowed = entries.length > 0 ? entries : defaultDomain ? [defaultDomain] : [baseHost];
  // Without a registrable domain (an IP, a public suffix) the default is the base host alone, no subdomains.
  const matches = entries.length > 0 || defaultDomain ? hostMatches : (h: string, a: string) => h === a;
  if (allowed.some((entry) => matches(host, entry))) return shape;
  return {
    ok: false,
    reason: l10n.t('The host {0} is not among the allowed hosts ({1}).', host, allowed.join(', ')),
  };
}
