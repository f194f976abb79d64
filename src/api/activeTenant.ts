/**
 * The active tenant: the one every front end uses when a request names none (routing state: the
 * user's choice, kept across sessions in globalState).
 * Only the id and the name are stored: nothing secret.
 */
import { Emitter, type Event } from '../common/event';
import type { Memento } from '../common/memento';

export interface ActiveTenantInfo {
  id: string;
  label: string;
}

export const ACTIVE_TENANT_KEY = 'tenantApi.activeTenant';

export class ActiveTenantStore {
  private readonly changes = new Emitter<ActiveTenantInfo | undefined>();
  readonly onDidChange: Event<ActiveTenantInfo | undefined> = this.changes.event;

  constructor(private readonly memento: Memento) {}

  get(): ActiveTenantInfo | undefined {
    const stored = this.memento.get<unknown>(ACTIVE_TENANT_KEY);
    if (typeof stored !== 'object' || stored === null) return undefined;
    const { id, label } = stored as Partial<ActiveTenantInfo>;
    return typeof id === 'string' && id !== '' ? { id, label: typeof label === 'string' ? label : id } : undefined;
  }

  async set(tenant: ActiveTenantInfo | undefined): Promise<void> {
    await this.memento.update(ACTIVE_TENANT_KEY, tenant ? { id: tenant.id, label: tenant.label } : undefined);
    this.changes.fire(tenant);
  }

  dispose(): void {
    this.changes.dispose();
  }
}
