import { Emitter } from '../common/event';
import type { Disposable } from '../common/event';
import * as l10n from '../common/l10n';
import { registerSecret } from '../common/redact';
import type { SecretStore } from '../common/secretStore';
import { keyForTenant, sameOrganizationName } from './licenceHolders';
import type { LicenceKeyInfo, TenantRecord } from './types';

/** A licence key as stored: the key itself plus what the user said about it. */
export interface StoredLicenceKey extends LicenceKeyInfo {
  key: string;
}

/** The new value of one key (the module is the store's argument). */
export type LicenceKeyValue = { key: string; label: string; organization: string; tenantIds?: readonly string[]; tenants?: readonly string[] };

/** The sentence of a call refused for want of a key: the editor's (Set Licence Key), the runner's (the variable to set). */
export interface LicenceWording {
  missing(module: string, tenant: TenantRecord | undefined, coveredElsewhere: boolean): string;
}

const PREFIX = 'tenantApi.licenceKey.';

const EDITOR_WORDING: LicenceWording = {
  missing: (module, tenant, coveredElsewhere) =>
    tenant && coveredElsewhere
      ? l10n.t('No licence key of the module "{0}" covers the tenant {1}. Set its organization\'s key with "Tenant API: Set Licence Key" and tick {1}.', module, tenant.codiceAmbienteDati || tenant.id)
      : l10n.t('No licence key is set for the module "{0}". Set one with "Tenant API: Set Licence Key".', module),
};

/**
 * Secret name of one module's keys: `tenantApi.licenceKey.<module>`, value JSON {key, label,
 * organization, tenantIds?} for one key, {keys: [...]} for the keys of several organizations.
 */
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
  private readonly cache = new Map<string, StoredLicenceKey[]>();
  /** Counts the writes of each module (ours and other windows'): a read that started before one is not cached. */
  private readonly writes = new Map<string, number>();
  private readonly changes = new Emitter<{ module: string }>();
  readonly onDidChange = this.changes.event;
  private readonly subscription: Disposable;

  constructor(
    private readonly secrets: SecretStore,
    readonly wording: LicenceWording = EDITOR_WORDING,
    /** The organization a tenant is declared to belong to (the runner's TENANT_API_TENANTS_<ORG>), if any. */
    private readonly organizations?: (tenant: TenantRecord) => string | undefined,
  ) {
    this.subscription = secrets.onDidChange(({ key }) => {
      if (!key.startsWith(PREFIX)) return;
      const module = key.slice(PREFIX.length);
      this.wrote(module);
      this.cache.delete(module);
      this.changes.fire({ module });
    });
  }

  /** The module's first key (the one for calls that name no tenant), or undefined. Throws when the storage cannot be read (not cached then). */
  async get(module: string): Promise<StoredLicenceKey | undefined> {
    return (await this.all(module))[0];
  }

  /** Every key of the module, one per organization, the first first. */
  async all(module: string): Promise<StoredLicenceKey[]> {
    const cached = this.cache.get(module);
    if (cached) return cached;
    const before = this.writes.get(module) ?? 0;
    const raw = await this.secrets.get(licenceSecretName(module));
    const value = raw === undefined ? [] : parseStoredList(module, raw);
    for (const stored of value) registerSecret(stored.key);
    // A key set or cleared while this read was on its way makes what it read stale: not kept.
    if ((this.writes.get(module) ?? 0) === before) this.cache.set(module, value);
    return value;
  }

  /**
   * The key a call of the module for `tenant` carries (licenceHolders.keyForTenant, the tenant's
   * organization learned from the keys of `modules`): undefined when no key covers that tenant. No tenant: the first key.
   */
  async forTenant(module: string, tenant: TenantRecord | undefined, modules: readonly string[] = [module]): Promise<StoredLicenceKey | undefined> {
    const keys = await this.all(module);
    if (tenant === undefined) return keys[0];
    const every = (await Promise.all([...new Set([module, ...modules])].map((name) => this.all(name)))).flat();
    return keyForTenant(keys, every, tenant, this.organizations?.(tenant));
  }

  private wrote(module: string): void {
    this.writes.set(module, (this.writes.get(module) ?? 0) + 1);
  }

  /** The module's one key: replaces every key it had. */
  async set(module: string, value: LicenceKeyValue): Promise<void> {
    await this.write(module, [this.checked(module, value)]);
  }

  /** One organization's key of the module, first (the key of calls that name no tenant): replaces that organization's, keeps the others'. */
  async put(module: string, value: LicenceKeyValue): Promise<void> {
    const stored = this.checked(module, value);
    const others = (await this.all(module)).filter((key) => !sameOrganizationName(key.organization, stored.organization));
    await this.write(module, [stored, ...others]);
  }

  /** Removes one organization's key of the module (the others stay). */
  async remove(module: string, organization: string): Promise<void> {
    const kept = (await this.all(module)).filter((key) => key.organization !== organization);
    if (kept.length === 0) return this.clear(module);
    await this.write(module, kept);
  }

  private checked(module: string, value: LicenceKeyValue): StoredLicenceKey {
    const problem =
      checkLicenceKey(value.key) ??
      checkLabel(value.label, 'label') ??
      checkLabel(value.organization, 'organization') ??
      checkNotTheKey(value.label, value.key) ??
      checkNotTheKey(value.organization, value.key);
    if (problem) throw new Error(problem);
    // Registered before it is stored: a server that echoes it never gets it into a log or an error.
    registerSecret(value.key.trim());
    return {
      module,
      key: value.key.trim(),
      label: value.label.trim(),
      organization: value.organization.trim(),
      ...(value.tenantIds ? { tenantIds: [...value.tenantIds] } : {}),
      ...(value.tenants ? { tenants: [...value.tenants] } : {}),
    };
  }

  private async write(module: string, keys: StoredLicenceKey[]): Promise<void> {
    const plain = keys.map(({ key, label, organization, tenantIds, tenants }) => ({ key, label, organization, ...(tenantIds ? { tenantIds } : {}), ...(tenants ? { tenants } : {}) }));
    this.wrote(module);
    await this.secrets.store(licenceSecretName(module), JSON.stringify(plain.length === 1 ? plain[0] : { keys: plain }));
    this.cache.set(module, keys);
  }

  async clear(module: string): Promise<void> {
    this.wrote(module);
    await this.secrets.delete(licenceSecretName(module));
    this.cache.set(module, []);
  }

  /** Public information about the keys set for these modules (every organization's). */
  async list(modules: readonly string[]): Promise<LicenceKeyInfo[]> {
    const infos: LicenceKeyInfo[] = [];
    for (const module of modules) {
      for (const stored of await this.all(module)) {
        infos.push({ module, label: stored.label, organization: stored.organization, ...(stored.tenantIds ? { tenantIds: stored.tenantIds } : {}), ...(stored.tenants ? { tenants: stored.tenants } : {}) });
      }
    }
    return infos;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changes.dispose();
  }
}

function parseStoredList(module: string, raw: string): StoredLicenceKey[] {
  try {
    const value = JSON.parse(raw) as { keys?: unknown };
    if (Array.isArray(value?.keys)) return value.keys.flatMap((entry) => parseStored(module, entry) ?? []);
    const one = parseStored(module, value);
    if (one) return [one];
  } catch {
    // A bare key written by hand or by an older version.
  }
  return checkLicenceKey(raw) === undefined ? [{ module, key: raw.trim(), label: module, organization: module }] : [];
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined;
}

function parseStored(module: string, entry: unknown): StoredLicenceKey | undefined {
  const value = (entry ?? {}) as Partial<StoredLicenceKey>;
  if (typeof value.key !== 'string' || !value.key) return undefined;
  const tenantIds = strings(value.tenantIds);
  const tenants = strings(value.tenants);
  return {
    module,
    key: value.key,
    label: typeof value.label === 'string' && value.label ? value.label : module,
    organization: typeof value.organization === 'string' && value.organization ? value.organization : module,
    ...(tenantIds ? { tenantIds } : {}),
    ...(tenants ? { tenants } : {}),
  };
}
