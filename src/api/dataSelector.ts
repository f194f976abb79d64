/** Whose data a call reads: a tenant, the licence key's organization, or the signed-in user. No `vscode` here. */
import { needsTenant } from './routes';
import type { LicenceKeyInfo, RouteRule, TenantRecord } from './types';

export type SelectorTenant = Pick<TenantRecord, 'id' | 'codiceAmbienteDati' | 'descrizioneAmbienteDati'>;

/**
 * What chooses the data a call reads. A tenant-scoped route carries User-Tenant: the tenant does. A
 * base-URL route carries no tenant, only the licence key: the data are those of the key's holder
 * (spec 2.3, 5.3). A route with neither (the tenant listing) answers for the signed-in user.
 */
export type DataSelector =
  | { kind: 'tenant'; tenant: SelectorTenant }
  | { kind: 'licenceKey'; module: string; licence?: Partial<LicenceKeyInfo> }
  | { kind: 'user' };

export function dataSelector(
  route: RouteRule | undefined,
  tenant: SelectorTenant | undefined,
  licence: Partial<LicenceKeyInfo> | undefined,
): DataSelector {
  if (needsTenant(route) && tenant) return { kind: 'tenant', tenant };
  if (route?.module) return { kind: 'licenceKey', module: route.module, ...(licence ? { licence } : {}) };
  return { kind: 'user' };
}
