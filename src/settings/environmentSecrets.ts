import { licenceSecretName } from '../api/licenceKeyStore';
import { RouteTable, parseRouteSetting } from '../api/routes';
import { CLIENT_SECRET_KEY, SESSIONS_INDEX_KEY, SESSION_KEY_PREFIX } from '../common/sessionSecretNames';
import { namespacedSecretStore } from '../common/namespacedSecretStore';
import type { SecretStore } from '../common/secretStore';
import { DEFAULT_ENVIRONMENT_ID, type Environment } from './environments';

/*
 * Each environment's secrets live under `tenantApi.env/<environment id>/`:
 *   tenantApi.env/<id>/auth.sessions, tenantApi.env/<id>/auth.session/<sub>,
 *   tenantApi.env/<id>/auth.clientSecret, tenantApi.env/<id>/licenceKey.<module>
 * Ids never contain "/" (environments.ts), so no namespace is a prefix of another.
 */
export function secretNamespace(environmentId: string): string {
  return `tenantApi.env/${environmentId}/`;
}

/** The secret storage as one environment's stores see it. */
export function environmentSecrets(secrets: SecretStore, environmentId: string): SecretStore {
  return namespacedSecretStore(secrets, secretNamespace(environmentId));
}

export interface MigrationReport {
  /** Key names (never values) moved into the default environment. */
  moved: string[];
  /** Old keys dropped because the default environment already had a newer value. */
  superseded: string[];
}

function parseIds(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  try {
    const ids = JSON.parse(raw) as unknown;
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : undefined;
  } catch {
    return undefined;
  }
}

function updatedAt(raw: string): number {
  try {
    const value = (JSON.parse(raw) as { updatedAt?: unknown }).updatedAt;
    return typeof value === 'number' ? value : 0;
  } catch {
    return 0;
  }
}

/**
 * Moves the secrets of the layout before environments (`tenantApi.auth.sessions`,
 * `tenantApi.auth.session/<sub>`, `tenantApi.auth.clientSecret`, `tenantApi.licenceKey.<module>`)
 * into the default environment's namespace. SecretStorage cannot list its keys, so the licence
 * modules to look for are passed in (every module of every environment's route table).
 *
 * Safe to interrupt and to run again (it runs at every activation): an old key is deleted only after
 * its value is stored at the new key, the new session index is written after the sessions it names,
 * and the old index goes last, so a run that stops anywhere leaves each secret at the old key, the new
 * key or both, and the next run finishes the job. Where both exist the new one wins (for a session:
 * the one written last), since only an older version of the extension still writes old keys.
 */
export async function migrateLegacySecrets(secrets: SecretStore, modules: readonly string[]): Promise<MigrationReport> {
  const target = environmentSecrets(secrets, DEFAULT_ENVIRONMENT_ID);
  const report: MigrationReport = { moved: [], superseded: [] };

  const move = async (key: string, oldWins: (oldValue: string, newValue: string) => boolean = () => false) => {
    const oldValue = await secrets.get(key);
    if (oldValue === undefined) return;
    const newValue = await target.get(key);
    if (newValue === undefined || oldWins(oldValue, newValue)) {
      await target.store(key, oldValue);
      report.moved.push(key);
    } else {
      report.superseded.push(key);
    }
    await secrets.delete(key);
  };

  await move(CLIENT_SECRET_KEY);
  for (const module of new Set(modules)) await move(licenceSecretName(module));

  const oldIndexRaw = await secrets.get(SESSIONS_INDEX_KEY);
  const oldIds = parseIds(oldIndexRaw);
  if (oldIds === undefined) return report; // none, or unreadable: left as it is, nothing to follow
  for (const id of oldIds) await move(SESSION_KEY_PREFIX + id, (oldValue, newValue) => updatedAt(oldValue) > updatedAt(newValue));

  const newIds = parseIds(await target.get(SESSIONS_INDEX_KEY)) ?? [];
  const present: string[] = [];
  for (const id of oldIds) if (!newIds.includes(id) && (await target.get(SESSION_KEY_PREFIX + id)) !== undefined) present.push(id);
  if (present.length > 0) {
    await target.store(SESSIONS_INDEX_KEY, JSON.stringify([...newIds, ...present]));
    report.moved.push(SESSIONS_INDEX_KEY);
  }
  await secrets.delete(SESSIONS_INDEX_KEY);
  return report;
}

/** Every licence module the migration must look for: those of the built-in routes and of each environment's. */
export function knownModules(environments: readonly Environment[]): string[] {
  return [...new Set(environments.flatMap((environment) => new RouteTable(parseRouteSetting(environment.settings.routes)).modules()))];
}
