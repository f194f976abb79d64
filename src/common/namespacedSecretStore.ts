import type { Disposable, Event } from './event';
import type { SecretStore } from './secretStore';

const OWN_PREFIX = 'tenantApi.';

/**
 * A view of the secret storage in which every `tenantApi.<rest>` key lives at `<namespace><rest>`
 * (namespace e.g. `tenantApi.env/default/`). The stores built on it (sessions, licence keys) keep their
 * own key names and never see another namespace's keys, nor hear of their changes.
 */
export function namespacedSecretStore(secrets: SecretStore, namespace: string): SecretStore {
  const outer = (key: string): string => {
    if (!key.startsWith(OWN_PREFIX)) throw new Error(`Not a tenantApi secret key: ${key}`);
    return namespace + key.slice(OWN_PREFIX.length);
  };
  const onDidChange: Event<{ key: string }> = (listener): Disposable =>
    secrets.onDidChange(({ key }) => {
      if (key.startsWith(namespace)) listener({ key: OWN_PREFIX + key.slice(namespace.length) });
    });
  return {
    get: (key) => secrets.get(outer(key)),
    store: (key, value) => secrets.store(outer(key), value),
    delete: (key) => secrets.delete(outer(key)),
    onDidChange,
  };
}
