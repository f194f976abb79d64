/**
 * The one way every front end (Send Request, request files, the tree, later the Testing view and the
 * command line) turns what a request names into a tenant: by id, code or description, else the
 * active tenant when the route needs one. Failures are the client's closed kind `tenant`. No `vscode`.
 */
import * as l10n from '../common/l10n';
import { ApiError, apiErrors } from './errors';
import type { TenantRecord } from './types';

/**
 * A tenant named by its id, its code (codiceAmbienteDati) or its description, trimmed and in any case:
 * an id wins over a code, a code over a description.
 */
export function findTenant(reference: string, tenants: readonly TenantRecord[]): TenantRecord | undefined {
  const wanted = reference.trim().toLowerCase();
  if (!wanted) return undefined;
  return (
    tenants.find((tenant) => tenant.id.toLowerCase() === wanted) ??
    tenants.find((tenant) => tenant.codiceAmbienteDati.toLowerCase() === wanted) ??
    tenants.find((tenant) => tenant.descrizioneAmbienteDati.toLowerCase() === wanted)
  );
}

/** Where the tenants come from: a directory of listed tenants (src/api/tenantDirectory.ts) and the active tenant. */
export interface TenantSource {
  /** The tenants already listed (for every signed-in account, the active one's first), without waiting. */
  listed(): readonly TenantRecord[];
  /** The active account's tenants, listed when needed; throws when the listing fails. */
  tenants(): Promise<TenantRecord[]>;
  /** The active tenant (routing state), when one is set. */
  active(): { id: string } | undefined;
  /** Whether an account is signed in: signed out, no tenant is anyone's, and the cause is the sign-out. */
  isSignedIn(): boolean;
  /** How this front end's user chooses a tenant, where it is not the editor's (the command line's --tenant). */
  wording?: TenantWording;
}

/** The sentences that tell the user how to choose a tenant. */
export interface TenantWording {
  /** A path that needs a tenant, and none was named or chosen. */
  needsTenant(path: string): string;
  /** The tenant chosen for requests that name none is not the user's. */
  chosenNotYours(id: string): string;
}

const EDITOR_WORDING: TenantWording = {
  needsTenant: (path) => l10n.t('{0} needs a tenant: name one, or set an active tenant in the Tenants view.', path),
  chosenNotYours: () => l10n.t('The active tenant is not one of your tenants any more: choose another one.'),
};

/**
 * `required`: the route needs a tenant (the active one when the request names none); `optional`: the
 * one named, else the active one (to recognise its cluster in an absolute URL); `named`: only the one
 * named (a base-host path, where a tenant only labels the response).
 */
export type TenantNeed = 'required' | 'optional' | 'named';

export class TenantResolver {
  constructor(private readonly source: TenantSource) {}

  /** A tenant by reference, from those listed or else by listing the active account's tenants. */
  async find(reference: string): Promise<TenantRecord | undefined> {
    return findTenant(reference, this.source.listed()) ?? findTenant(reference, await this.source.tenants());
  }

  /** The active account's tenants, listed when needed (a front end lists them ahead, for completion). */
  list(): Promise<TenantRecord[]> {
    return this.source.tenants();
  }

  /** The tenants known without waiting, for completion and diagnostics; undefined until a listing settled. */
  known(): readonly TenantRecord[] | undefined {
    const listed = this.source.listed();
    return listed.length > 0 ? listed : undefined;
  }

  /** The tenant of a request to `path` that names `reference` (or nothing); throws ApiError `tenant`. */
  async resolve(reference: string | undefined, need: TenantNeed, path: string): Promise<TenantRecord | undefined> {
    if ((reference || need === 'required') && !this.source.isSignedIn()) throw apiErrors.signInRequired();
    if (reference) {
      const tenant = await this.find(reference);
      if (!tenant) throw new ApiError('tenant', l10n.t('The tenant {0} is not one of your tenants (code, description or id).', reference));
      return tenant;
    }
    const active = need === 'named' ? undefined : this.source.active();
    if (!active) {
      if (need !== 'required') return undefined;
      throw new ApiError('tenant', (this.source.wording ?? EDITOR_WORDING).needsTenant(path.split('?')[0]));
    }
    const tenant = await this.find(active.id);
    if (!tenant && need === 'required') throw new ApiError('tenant', (this.source.wording ?? EDITOR_WORDING).chosenNotYours(active.id));
    return tenant;
  }
}

/** The resolver of an environment: its tenant directory and its active tenant. */
export function tenantResolver(
  directory: Pick<TenantSource, 'listed' | 'tenants' | 'isSignedIn'>,
  activeTenant: { get(): { id: string } | undefined },
): TenantResolver {
  return new TenantResolver({
    listed: () => directory.listed(),
    tenants: () => directory.tenants(),
    isSignedIn: () => directory.isSignedIn(),
    active: () => activeTenant.get(),
  });
}
