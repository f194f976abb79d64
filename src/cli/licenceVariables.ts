/**
 * The runner's licence keys of several organizations, from the environment: TENANT_API_KEY_<MODULE>
 * is the module's key for every tenant no organization claims (as before); TENANT_API_KEY_<MODULE>_<ORG>
 * is the key of the organization ORG, whose tenants TENANT_API_TENANTS_<ORG> names (codes,
 * descriptions or ids, comma-separated). A tenant claimed by an organization is only ever sent with
 * that organization's key: without one, its calls of that module are refused with the variable to
 * set. Pure.
 */
import { findTenant } from '../api/tenantResolver';
import type { LicenceWording } from '../api/licenceKeyStore';
import type { TenantRecord } from '../api/types';
import * as l10n from '../common/l10n';
import { LICENCE_KEY_PREFIX, ORGANIZATION_TENANTS_PREFIX } from './credentials';

export interface LicenceVariable {
  module: string;
  /** Undefined for TENANT_API_KEY_<MODULE>. */
  organization?: string;
  variable: string;
  key: string;
}

/** Each TENANT_API_KEY_* variable as a module's key (of an organization, or for every unclaimed tenant); the others as problems. */
export function licenceVariables(credentials: { licenceKeys: ReadonlyMap<string, string>; organizationTenants: ReadonlyMap<string, readonly string[]> }, modules: readonly string[]): { keys: LicenceVariable[]; problems: string[] } {
  const keys: LicenceVariable[] = [];
  const problems: string[] = [];
  const longestFirst = [...modules].sort((a, b) => b.length - a.length);
  for (const [suffix, key] of credentials.licenceKeys) {
    const variable = `${LICENCE_KEY_PREFIX}${suffix.toUpperCase()}`;
    const module = modules.find((name) => name.toLowerCase() === suffix) ?? longestFirst.find((name) => suffix.startsWith(`${name.toLowerCase()}_`));
    if (module === undefined) {
      // Before any route names it a module's key may still be the only one: kept for that module, as before.
      keys.push({ module: suffix, variable, key });
      continue;
    }
    const organization = suffix.length > module.length ? suffix.slice(module.length + 1).toUpperCase() : undefined;
    if (organization !== undefined && !credentials.organizationTenants.has(organization)) {
      problems.push(l10n.t('{0} is not used: {1}{2} names none of the organization\'s tenants.', variable, ORGANIZATION_TENANTS_PREFIX, organization));
      continue;
    }
    keys.push({ module, variable, key, ...(organization === undefined ? {} : { organization }) });
  }
  // A module's key for every unclaimed tenant last: stored first (LicenceKeyStore.put), it is also the key of calls that name no tenant.
  return { keys: [...keys.filter((entry) => entry.organization), ...keys.filter((entry) => !entry.organization)], problems };
}

/** The organization whose TENANT_API_TENANTS_<ORG> names the tenant. */
export function declaredOrganization(organizationTenants: ReadonlyMap<string, readonly string[]>, tenant: TenantRecord): string | undefined {
  for (const [organization, tenants] of organizationTenants) if (tenants.some((reference) => findTenant(reference, [tenant]))) return organization;
  return undefined;
}

/** The organization of a default key's readings (no answer names it): the variable the key came from. */
export function defaultOrganization(variable: string): string {
  return l10n.t('the organization of {0}', variable);
}

/** The runner's sentences for a call refused for want of a key: the variable to set. */
export function runnerLicenceWording(organizationTenants: ReadonlyMap<string, readonly string[]>): LicenceWording {
  return {
    missing(module, tenant, coveredElsewhere) {
      const moduleVariable = `${LICENCE_KEY_PREFIX}${module.toUpperCase()}`;
      const code = tenant && (tenant.codiceAmbienteDati || tenant.id);
      const organization = tenant && declaredOrganization(organizationTenants, tenant);
      if (code && organization) {
        return l10n.t('No licence key of the module "{0}" for the tenant {1}: set {2}_{3} (its organization, {4}{3}).', module, code, moduleVariable, organization, ORGANIZATION_TENANTS_PREFIX);
      }
      if (code && coveredElsewhere) {
        return l10n.t('No licence key of the module "{0}" covers the tenant {1}: set {2}_<ORG> and name {1} in {3}<ORG>, or set {2} for the tenants no organization names.', module, code, moduleVariable, ORGANIZATION_TENANTS_PREFIX);
      }
      return l10n.t('No licence key is set for the module "{0}": set {1}.', module, moduleVariable);
    },
  };
}
