import * as assert from 'node:assert/strict';
import { ACTIVE_ENVIRONMENT_KEY, EnvironmentState, environmentMemento, environmentStateKey, type StateMemento } from '../../../src/settings/activeEnvironment';
import { parseEnvironments } from '../../../src/settings/environments';
import { devEnvironmentDefaults as defaults } from './devEnvironmentDefaults';

class MapMemento implements StateMemento {
  readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
  }
}

const list = (entries: unknown[]) => parseEnvironments(entries, defaults);

describe('the active environment', () => {
  it('is remembered in global state and comes back in a new window (a reload)', async () => {
    const memento = new MapMemento();
    const first = new EnvironmentState(memento, list([{ name: 'Sandbox' }, { name: 'Production', protected: true }]));
    assert.equal(first.active().id, 'default');
    const heard: string[] = [];
    first.onDidChange((change) => heard.push(`${change.previous.name}>${change.active.name}:${change.switched}`));
    assert.equal(await first.switchTo('@production'), true);
    assert.equal(await first.switchTo('@nope'), false);
    assert.deepEqual(heard, ['Default>Production:true']);
    assert.equal(memento.get(ACTIVE_ENVIRONMENT_KEY), '@production');
    const reloaded = new EnvironmentState(memento, list([{ name: 'Sandbox' }, { name: 'Production', protected: true }]));
    assert.equal(reloaded.active().name, 'Production');
  });

  it('follows the settings: fires when the active one changes or disappears, not for the others', async () => {
    const state = new EnvironmentState(new MapMemento(), list([{ name: 'Sandbox' }, { name: 'Tests' }]));
    await state.switchTo('@tests');
    const heard: string[] = [];
    state.onDidChange((change) => heard.push(`${change.active.name}:${change.active.settings.clientId}:${change.switched}`));
    state.onDidChangeList(() => heard.push(`list of ${state.list().length}`));
    state.update(list([{ name: 'Sandbox', clientId: 'other' }, { name: 'Tests' }]));
    state.update(list([{ name: 'Sandbox' }, { name: 'Tests', clientId: 'tests-app' }]));
    state.update(list([{ name: 'Sandbox' }]));
    assert.deepEqual(heard, ['list of 3', 'Tests:tests-app:false', 'list of 3', 'Default:dev-app:true', 'list of 2']);
  });

  it('keeps each environment\'s state apart; the default keeps today\'s keys', async () => {
    assert.equal(environmentStateKey('default', 'tenantApi.requestHistory'), 'tenantApi.requestHistory');
    assert.equal(environmentStateKey('@prod', 'tenantApi.requestHistory'), 'tenantApi.env/@prod/requestHistory');
    const memento = new MapMemento();
    await environmentMemento(memento, '@prod').update('tenantApi.requestHistory', ['p']);
    await environmentMemento(memento, 'default').update('tenantApi.requestHistory', ['d']);
    assert.deepEqual(environmentMemento(memento, '@prod').get('tenantApi.requestHistory'), ['p']);
    assert.deepEqual(memento.get('tenantApi.requestHistory'), ['d']);
  });
});
