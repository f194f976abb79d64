import { Emitter } from '../../src/common/event';
import type { SecretStore } from '../../src/common/secretStore';

/** SecretStorage double for unit tests; `failNext` simulates a transient storage error. */
export class InMemorySecretStore implements SecretStore {
  readonly values = new Map<string, string>();
  private readonly changes = new Emitter<{ key: string }>();
  readonly onDidChange = this.changes.event;
  private failures = 0;

  failNext(count = 1): void {
    this.failures = count;
  }

  private check(): void {
    if (this.failures > 0) {
      this.failures--;
      throw new Error('secret storage unavailable');
    }
  }

  async get(key: string): Promise<string | undefined> {
    this.check();
    return this.values.get(key);
  }

  async store(key: string, value: string): Promise<void> {
    this.check();
    this.values.set(key, value);
    this.changes.fire({ key });
  }

  async delete(key: string): Promise<void> {
    this.check();
    this.values.delete(key);
    this.changes.fire({ key });
  }

  /** What another window writing the same storage looks like to this one. */
  simulateExternalWrite(key: string, value: string | undefined): void {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
    this.changes.fire({ key });
  }
}
