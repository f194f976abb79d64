import type { Event } from './event';

/**
 * The part of vscode.SecretStorage that our modules use. The extension passes
 * context.secrets; unit tests pass test/helpers/inMemorySecretStore.
 */
export interface SecretStore {
  get(key: string): Thenable<string | undefined>;
  store(key: string, value: string): Thenable<void>;
  delete(key: string): Thenable<void>;
  /** Fires with the changed key, also for changes made by another window. */
  readonly onDidChange: Event<{ key: string }>;
}
