import * as assert from 'node:assert/strict';
import { ACTIVE_TENANT_KEY, ActiveTenantStore } from '../../../src/api/activeTenant';

class MemoryMemento {
  readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
  }
}

describe('ActiveTenantStore', () => {
  it('keeps the id and the name only, and tells listeners', async () => {
    const memento = new MemoryMemento();
    const store = new ActiveTenantStore(memento);
    const seen: unknown[] = [];
    store.onDidChange((tenant) => seen.push(tenant));
    await store.set({ id: 't1', label: 'Milano', secret: 'x' } as unknown as { id: string; label: string });
    assert.deepEqual(memento.values.get(ACTIVE_TENANT_KEY), { id: 't1', label: 'Milano' });
    assert.deepEqual(store.get(), { id: 't1', label: 'Milano' });
    await store.set(undefined);
    assert.equal(store.get(), undefined);
    assert.deepEqual(seen, [{ id: 't1', label: 'Milano', secret: 'x' }, undefined]);
  });

  it('ignores a stored value of the wrong shape', () => {
    const memento = new MemoryMemento();
    const store = new ActiveTenantStore(memento);
    for (const bad of ['t1', 42, null, {}, { id: '' }, { id: 3 }]) {
      memento.values.set(ACTIVE_TENANT_KEY, bad);
      assert.equal(store.get(), undefined, JSON.stringify(bad));
    }
    memento.values.set(ACTIVE_TENANT_KEY, { id: 't2' });
    assert.deepEqual(store.get(), { id: 't2', label: 't2' });
  });
});
