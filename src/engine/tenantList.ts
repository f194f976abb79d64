/**
 * A request's tenants as written: one (`# @tenant RC-MI`), a list (`# @tenant RC-MI, RC-TO`) or every
 * tenant of the signed-in user (`# @tenant *`). A request that names one tenant is pinned to it; a list
 * or `*` makes it a matrix, run once per tenant. No `vscode` here.
 */

/** Every tenant of the signed-in user (`# @tenant *`, `--tenant '*'`). */
export const EVERY_TENANT = '*';

/** `RC-MI, RC-TO` as ['RC-MI', 'RC-TO'] (trimmed, each once); '' or undefined as []. */
export function splitTenants(text: string | undefined): string[] {
  if (!text) return [];
  return [...new Set(text.split(',').map((part) => part.trim()).filter((part) => part !== ''))];
}

/** The one tenant a request is pinned to, when it names exactly one (not `*`). */
export function pinnedTenant(tenants: readonly string[]): string | undefined {
  return tenants.length === 1 && tenants[0] !== EVERY_TENANT ? tenants[0] : undefined;
}
