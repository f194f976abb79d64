import { Emitter } from '../common/event';
import type { Disposable } from '../common/event';
import * as l10n from '../common/l10n';
import { registerSecret } from '../common/redact';
import type { SecretStore } from '../common/secretStore';
import type { LicenceKeyInfo } from './types';

/** A licence key as stored: the key itself plus what the user said about it. */
export interface StoredLicenceKey extends LicenceKeyInfo {
  key: string;
}

const PREFIX = 'tenantApi.licenceKey.';

/** Secret name of one module's key: `tenantApi.licenceKey.<module>`, value JSON {key, label, organization, tenantIds?}. */
export function licenceSecretName(module: string): string {
  return `${PREFIX}${module}`;
}

/** Returns a sentence saying what is wrong with a key the user typed, or undefined when it is fine. */
export function checkLicenceKey(key: string): string | undefined {
  const value = key.trim();
  if (!value) return l10n.t('Enter the licence key.');
  if (value.length > 512) return l10n.t('A licence key is at most 512 characters long.');
  if (!/^[A-Za-z0-9._~+/=-]+$/.test(value)) {
    return l10n.t('A licence key has only letters, digits and the characters . _ ~ + / = - (no spaces).');
  }
  return undefined;
}

export function checkLabel(value: string, what: 'label' | 'organization'): string | undefined {
  const text = value.trim();
  if (!text) return what === 'label' ? l10n.t('Enter a label for this key.') : l10n.t('Enter the organization this key belongs to.');
  if (text.length > 100) return l10n.t('At most 100 characters.');
  if (/[\u0000-\u001f]/.test(text)) return l10n.t('Control characters are not allowed.');
  return undefined;
}

/**
 * A label or an organization name is shown in the status bar and keys the quota's readings: it must
 * never be the key itself (pasted into the wrong box).
 */
export function checkNotTheKey(value: string, key: string): string | undefined {
  const secret = key.trim();
  return secret && value.includes(secret) ? l10n.t('This is the licence key itself: enter a name instead.') : undefined;
}

/**
 * One Authorization-Key per licence module, in the editor's secret storage. Keys are cached in
 * memory and the cache follows changes made by other windows (SecretStorage.onDidChange). Every key
 * read or set is registered with the redactor (src/common/redact.ts), and stays registered after it is
 * cleared: a server may still echo an old key.
 */
export class LicenceKeyStore implements Disposable {
  private readonly cache = new Map<string, StoredLicenceKey | undefined>();
  /** Counts the writes of each module (ours and other windows'): a read that started before one is not cached. */
  private readonly writes = new Map<string, number>();
  private readonly changes = new Emitter<{ module: string }>();
  readonly onDidChange = this.changes.event;
  private readonly subscription: Disposable;

  constructor(private readonly secrets: SecretStore) {
    this.subscription = secrets.onDidChange(({ key }) => {
      if (!key.startsWith(PREFIX)) return;
      const module = key.slice(PREFIX.length);
      this.wrote(module);
      this.cache.delete(module);
      this.changes.fire({ module });
    });
  }

  /** The stored key, or undefined. Throws when the storage cannot be read (not cached then). */
  async get(module: string): Promise<StoredLicenceKey | undefined> {
    if (this.cache.has(module)) return this.cache.get(module);
    const before = this.writes.get(module) ?? 0;
    const raw = await this.secrets.get(licenceSecretName(module));
    const value = raw === undefined ? undefined : parseStored(module, raw);
    registerSecret(value?.key);
    // A key set or cleared while this read was on its way makes what it read stale: not kept.
    if ((this.writes.get(module) ?? 0) === before) this.cache.set(module, value);
    return value;
  }

  private wrote(module: string): void {
    this.writes.set(module, (this.writes.get(module) ?? 0) + 1);
  }

  async set(module: string, value: { key: string; label: string; organization: string; tenantIds?: readonly string[] }): Promise<void> {
    const problem =
      checkLicenceKey(value.key) ??
      checkLabel(value.label, 'label') ??
      checkLabel(value.organization, 'organization') ??
      checkNotTheKey(value.label, value.key) ??
      checkNotTheKey(value.organization, value.key);
    if (problem) throw new Error(problem);
    // Registered before it is stored: a server that echoes it never gets it into a log or an error.
    registerSecret(value.key.trim());
    const stored: StoredLicenceKey = {
      module,
      key: value.key.trim(),
      label: value.label.trim(),
      organization: value.organization.trim(),
      ...(value.tenantIds ? { tenantIds: [...value.tenantIds] } : {}),
    };
    const { key, label, organization, tenantIds } = stored;
    this.wrote(module);
    await this.secrets.store(licenceSecretName(module), JSON.stringify({ key, label, organization, ...(tenantIds ? { tenantIds } : {}) }));
    this.cache.set(module, stored);
  }

  async clear(module: string): Promise<void> {
    this.wrote(module);
    await this.secrets.delete(licenceSecretName(module));
    this.cache.set(module, undefined);
  }

  /** Public information about the keys set for these modules. */
  async list(modules: readonly string[]): Promise<LicenceKeyInfo[]> {
    const infos: LicenceKeyInfo[] = [];
    for (const module of modules) {
      const stored = await this.get(module);
      if (stored) infos.push({ module, label: stored.label, organization: stored.organization, ...(stored.tenantIds ? { tenantIds: stored.tenantIds } : {}) });
    }
    return infos;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changes.dispose();
  }
}

function parseStored(module: string, raw: string): StoredLicenceKey | undefined {
  try {
    const value = JSON.parse(raw) as Partial<StoredLicenceKey>;
    if (typeof value.key === 'string' && value.key) {
      const tenantIds = Array.isArray(value.tenantIds) ? value.tenantIds.filter((id): id is string => typeof id === 'string') : undefined;
      return {
        module,
        key: value.key,
        label: typeof value.label === 'string' && value.label ? value.label : module,
        organization: typeof value.organization === 'string' && value.organization ? value.organization : module,
        ...(tenantIds ? { tenantIds } : {}),
      };
    }
  } catch {
    // A bare key written by hand or by an older version.
  }
  return checkLicenceKey(raw) === undefined ? { module, key: raw.trim(), label: module, organization: module } : undefined;
}
