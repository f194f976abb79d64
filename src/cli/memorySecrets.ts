/** A SecretStore that lives as long as the process: the runner's licence keys, never written anywhere. */
import { Emitter } from '../common/event';
import type { SecretStore } from '../common/secretStore';

export class MemorySecretStore implements SecretStore {
  private readonly values = new Map<string, string>();
  private readonly changes = new Emitter<{ key: string }>();
  readonly onDidChange = this.changes.event;

  async get(key: string): Promise<string | undefined> {
    return this.values.get(key);
  }

  async store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
    this.changes.fire({ key });
  }

  async delete(key: string): Promise<void> {
    this.values.delete(key);
    this.changes.fire({ key });
  }
}
