/**
 * An address typed whole in Send Request (`https://host/v10/user-tenants`): by the rule request files
 * follow (src/engine/prepare.ts), on the base URL or on one of the user's tenants' clusters it becomes
 * that path (the tenant first in the tenant step), and any other host is sent as it is, without
 * credentials. No `vscode` here.
 */
import type { TenantRecord } from '../api/types';
import type { RouteRule } from '../api/types';
import { platformPath } from '../engine/prepare';
import { wrongHostOf } from '../engine/sender';
import { splitPathAndQuery } from './requestInput';

export type AddressTarget =
  /** A platform path (query split off); the tenant whose cluster the address named. */
  | { kind: 'path'; path: string; query: Record<string, string>; tenantId?: string }
  /** Another host: sent as typed, without credentials. */
  | { kind: 'elsewhere' }
  | { kind: 'error'; message: string };

export interface AddressDeps {
  baseUrl(): string;
  /** The user's tenants (their clusters); an empty list when they cannot be listed. */
  tenants(): Promise<readonly TenantRecord[]>;
  routeFor(path: string): RouteRule | undefined;
}

export async function addressTarget(address: string, query: Record<string, string>, deps: AddressDeps): Promise<AddressTarget> {
  const url = new URL(address);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const onBase = platformPath(url, { baseUrl: deps.baseUrl() });
  if (onBase) return pathTarget(onBase, deps);
  for (const tenant of await deps.tenants()) {
    const onCluster = platformPath(url, { baseUrl: '', clusterAddress: tenant.clusterAddress });
    if (onCluster) return pathTarget(onCluster, deps, tenant.id);
  }
  return { kind: 'elsewhere' };
}

function pathTarget(mapped: { where: 'base' | 'cluster'; path: string }, deps: AddressDeps, tenantId?: string): AddressTarget {
  const split = splitPathAndQuery(mapped.path);
  const wrongHost = wrongHostOf(deps.routeFor(split.path), mapped);
  if (wrongHost) return { kind: 'error', message: wrongHost };
  return { kind: 'path', path: split.path, query: split.query, ...(tenantId ? { tenantId } : {}) };
}
