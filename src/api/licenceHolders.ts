/**
 * Whose licence a key is: the organization whose weekly quota its calls count against. The quota
 * tracker keys its readings by this name, so keys of one organization must carry exactly the same
 * name, and a name must never come from a slip of the keyboard.
 *
 * Nothing the platform answers names the organization (spec: Service-Limit-Info has only
 * `api-usage=<used>/<limit>`, a tenant record has id, code, description and cluster address, resource
 * bodies are "not shown"), so it cannot be learned reliably from a response. The user picks it among
 * names they already know instead: the organizations of their other keys, or one of their tenants (the
 * spec calls the licence holder "the tenant (organization)"). Typing a name is the last resort, and a
 * typed name that is only spelled differently from a known one is taken as that one.
 */
import type { LicenceKeyInfo, TenantRecord } from './types';

export type HolderChoice =
  /** An organization other stored keys already name: picking it shares their quota. */
  | { kind: 'known'; organization: string; modules: string[]; current: boolean }
  /** One of the user's tenants, named by its description (its code added when two share one). */
  | { kind: 'tenant'; organization: string; tenant: TenantRecord };

export interface HolderChoiceInput {
  /** The keys stored now (public part only), this module's included when it is being replaced. */
  keys: readonly LicenceKeyInfo[];
  /** The module whose key is being set. */
  module: string;
  /** The signed-in account's tenants (empty when signed out or not listed). */
  tenants: readonly TenantRecord[];
  /** Which organization a tenant's calls were last counted against, when one was seen. */
  organizationOf?: (tenantId: string) => string | undefined;
  /** The active tenant, offered first among the tenants. */
  activeTenantId?: string;
}

/**
 * The choices in the order offered: this module's current organization, the other keys'
 * organizations, then the tenants no known organization already covers, the active one first.
 */
export function holderChoices(input: HolderChoiceInput): HolderChoice[] {
  const current = input.keys.find((key) => key.module === input.module)?.organization;
  const known = new Map<string, string[]>();
  for (const key of input.keys) known.set(key.organization, [...(known.get(key.organization) ?? []), key.module]);
  const knownChoices: HolderChoice[] = [...known.entries()]
    .map(([organization, modules]) => ({ kind: 'known' as const, organization, modules, current: organization === current }))
    .sort((a, b) => Number(b.current) - Number(a.current));

  const covered = (tenant: TenantRecord) => {
    const name = tenantOrganizationName(tenant, input.tenants);
    const seen = input.organizationOf?.(tenant.id);
    return [...known.keys()].some((organization) => sameOrganizationName(organization, name) || organization === seen);
  };
  const tenantChoices: HolderChoice[] = input.tenants
    .filter((tenant) => !covered(tenant))
    .sort((a, b) => Number(b.id === input.activeTenantId) - Number(a.id === input.activeTenantId))
    .map((tenant) => ({ kind: 'tenant' as const, organization: tenantOrganizationName(tenant, input.tenants), tenant }));
  return [...knownChoices, ...tenantChoices];
}

/** A tenant's name as an organization: its description, with its code when another tenant has the same description. */
export function tenantOrganizationName(tenant: TenantRecord, tenants: readonly TenantRecord[]): string {
  const name = (tenant.descrizioneAmbienteDati || tenant.codiceAmbienteDati || tenant.id).trim();
  const shared = tenants.some((other) => other.id !== tenant.id && sameOrganizationName(other.descrizioneAmbienteDati, name));
  return shared && tenant.codiceAmbienteDati ? `${name} (${tenant.codiceAmbienteDati})` : name;
}

/** Two spellings of one name: case, accents, spaces and punctuation aside ("Rossi S.r.l." = "rossi srl"). */
export function sameOrganizationName(a: string, b: string): boolean {
  const normal = comparable(a);
  return normal !== '' && normal === comparable(b);
}

/** The known name a typed one stands for, or the typed one (trimmed) when it is new. */
export function canonicalOrganization(typed: string, known: readonly string[]): string {
  const name = typed.trim().replace(/\s+/g, ' ');
  return known.find((candidate) => sameOrganizationName(candidate, name)) ?? name;
}

function comparable(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * The organization of the stored keys that covers a tenant: a key whose answer named the tenant, else
 * the organization the tenant's calls were last counted against, else (keys set before the question
 * named tenants) a key whose organization is spelled like the tenant's name. Undefined: none yet.
 */
export function coveringOrganization(
  tenant: TenantRecord,
  input: Pick<HolderChoiceInput, 'keys' | 'tenants' | 'organizationOf'>,
): string | undefined {
  const named = input.keys.find((key) => key.tenantIds?.includes(tenant.id));
  if (named) return named.organization;
  const seen = input.organizationOf?.(tenant.id);
  const organizations = input.keys.map((key) => key.organization);
  if (seen && organizations.includes(seen)) return seen;
  const name = tenantOrganizationName(tenant, input.tenants);
  return input.keys.find((key) => !key.tenantIds && sameOrganizationName(key.organization, name))?.organization;
}

/** What the tenants ticked for a key say about its organization. */
export type CoverageAnswer =
  /** One of them is already covered by the organization of another key: the key joins it. */
  | { kind: 'known'; organization: string }
  /** None is covered: a new organization, whose name the user confirms (`suggested`). */
  | { kind: 'new'; suggested: string }
  /** They are covered by two different organizations: one licence cannot be both's. */
  | { kind: 'conflict'; organizations: [string, string] };

/**
 * One licence is one organization's. So the tenants a key covers name its organization when any of them
 * is already covered by a key: one organization is never offered, nor stored, under two names.
 */
export function coverageAnswer(selected: readonly TenantRecord[], input: Pick<HolderChoiceInput, 'keys' | 'tenants' | 'organizationOf'>): CoverageAnswer {
  const organizations = [...new Set(selected.map((tenant) => coveringOrganization(tenant, input)).filter((name): name is string => Boolean(name)))];
  if (organizations.length > 1) return { kind: 'conflict', organizations: [organizations[0], organizations[1]] };
  if (organizations.length === 1) return { kind: 'known', organization: organizations[0] };
  return { kind: 'new', suggested: suggestedOrganizationName(selected) };
}

/**
 * A name for a new organization from its tenants' names: the words they share at the start
 * ("Rossi Costruzioni - Sede di Milano" and "Rossi Costruzioni - Filiale di Torino": "Rossi
 * Costruzioni"), else the one tenant's name. Only a suggestion: the user confirms or changes it.
 */
export function suggestedOrganizationName(tenants: readonly TenantRecord[]): string {
  const names = tenants.map((tenant) => (tenant.descrizioneAmbienteDati || tenant.codiceAmbienteDati || tenant.id).trim());
  if (names.length === 0) return '';
  const words = names.map((name) => name.split(/\s+/));
  const shared: string[] = [];
  for (let index = 0; words.every((list) => list[index] !== undefined && list[index] === words[0][index]); index++) shared.push(words[0][index]);
  const prefix = shared.join(' ').replace(/[\s\-–—,:;·.]+$/u, '').trim();
  return names.length > 1 && prefix ? prefix : names[0];
}

/**
 * Which of a module's keys (one per organization) a call for `tenant` carries. The tenant's
 * organization is the one a key names it for (ticked in the editor, named by the runner's
 * TENANT_API_TENANTS_<ORG>), of any module, or the one `declared` for it: then only that
 * organization's key of the module will do. A tenant no key names takes the module's key that names no
 * tenant (set before the question was asked, the runner's TENANT_API_KEY_<MODULE>). Undefined: no key
 * covers the tenant, and no other organization's key is lent (its calls would count against the
 * wrong quota).
 */
export function keyForTenant<K extends Pick<LicenceKeyInfo, 'organization' | 'tenantIds' | 'tenants'>>(
  moduleKeys: readonly K[],
  allKeys: readonly Pick<LicenceKeyInfo, 'organization' | 'tenantIds' | 'tenants'>[],
  tenant: TenantRecord,
  declared?: string,
): K | undefined {
  const organization = declared ?? tenantOrganization(allKeys, tenant);
  if (organization !== undefined) return moduleKeys.find((key) => sameOrganizationName(key.organization, organization));
  return moduleKeys.find((key) => !key.tenantIds && !key.tenants);
}

/** The organization whose key names the tenant (by id when ticked; by id, code or description when written). */
export function tenantOrganization(keys: readonly Pick<LicenceKeyInfo, 'organization' | 'tenantIds' | 'tenants'>[], tenant: TenantRecord): string | undefined {
  const values = [tenant.id, tenant.codiceAmbienteDati, tenant.descrizioneAmbienteDati].map((value) => value.toLowerCase());
  const names = (key: (typeof keys)[number]) => key.tenantIds?.includes(tenant.id) || key.tenants?.some((reference) => values.includes(reference.trim().toLowerCase()));
  return keys.find(names)?.organization;
}
