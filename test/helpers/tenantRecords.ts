import type { TenantRecord } from '../../src/api/types';

/** A usable tenant record as /v10/user-tenants lists it, its cluster named after its id. */
export const tenantRecord = (id: string, code: string, description: string): TenantRecord => ({
  id,
  codiceAmbienteDati: code,
  descrizioneAmbienteDati: description,
  clusterAddress: `https://${id}.example.com`,
  usable: true,
});
