import * as l10n from '../common/l10n';
import type { Logger } from '../common/logger';
import { validateCredentialHost, type HostPolicy } from './hostValidation';
import type { TenantRecord } from './types';

/** The tenant records of a /v10/user-tenants answer; an entry without an id is skipped, a bad cluster address marks it unusable. */
export function parseTenantList(entries: unknown[], policy: HostPolicy, logger: Logger): TenantRecord[] {
  const tenants: TenantRecord[] = [];
  for (const raw of entries) {
    const record = raw as Partial<Record<keyof TenantRecord, unknown>> | null;
    if (typeof record !== 'object' || record === null || typeof record.id !== 'string' || !record.id) {
      logger.warn('Tenant list: skipped an entry without an id');
      continue;
    }
    const clusterAddress = typeof record.clusterAddress === 'string' ? record.clusterAddress : '';
    const verdict = clusterAddress
      ? validateCredentialHost(clusterAddress, policy)
      : { ok: false as const, reason: l10n.t('The tenant has no cluster address.') };
    const tenant: TenantRecord = {
      id: record.id,
      codiceAmbienteDati: typeof record.codiceAmbienteDati === 'string' ? record.codiceAmbienteDati : '',
      descrizioneAmbienteDati: typeof record.descrizioneAmbienteDati === 'string' ? record.descrizioneAmbienteDati : record.id,
      clusterAddress,
      usable: verdict.ok,
      ...(verdict.ok ? {} : { unusableReason: verdict.reason }),
    };
    if (!verdict.ok) logger.warn(`Tenant ${tenant.id} marked unusable: ${verdict.reason}`);
    tenants.push(tenant);
  }
  return tenants;
}
