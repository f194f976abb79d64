import type { SessionState } from '../common/sessions';
import { Emitter, type Event } from '../common/event';
import { silentLogger, type Logger } from '../common/logger';
import { isSignInRequired } from '../common/signInRequired';
import { isApiError } from './errors';
import type { ApiErrorKind, CountedCall, TenantRecord } from './types';

/** One account's tenants as far as they are known: being listed, listed, or why listing failed. */
export type TenantListing =
  | { kind: 'loading' }
  | { kind: 'loaded'; tenants: TenantRecord[] }
  | { kind: 'error'; errorKind?: ApiErrorKind | string; message: string; module?: string };

export type TenantDirectoryChange =
  /** The listings were dropped (sign-in, sign-out, refresh) or one settled. */
  | { kind: 'listings' }
  /** A response for this tenant was counted against this organization (its licence key's). */
  | { kind: 'organization'; tenantId: string; organization: string };

export interface TenantDirectoryDeps {
  /** GET /v10/user-tenants with the active account's token (ApiClient.listTenants). */
  listTenants(): Promise<TenantRecord[]>;
  /** The account whose token the listing uses; a sign-in, sign-out or switch drops the listings (a token refresh does not). */
  sessions: Pick<SessionState, 'activeAccount' | 'onDidChangeSessions' | 'getAccounts'>;
  /** The client's counted calls (ApiClient.onDidCount): a tenant's tells which organization its calls count against. */
  counted?: Event<CountedCall>;
  logger?: Logger;
}

/**
 * The one cache of each account's tenants, which the Tenants view, Send Request, the request runner
 * and the status bar all read. An account's tenants are listed once, when first asked for, and
 * kept until sign-in, sign-out, a switch of account or refresh() (not when a token is refreshed:
 * that changes no one's tenants, and calls in flight at that moment must still find theirs). It also remembers which organization each tenant's calls
 * were counted against (learned from responses: no listing says it), which survives a refresh.
 */
export class TenantDirectory {
  private readonly changes = new Emitter<TenantDirectoryChange>();
  readonly onDidChange: Event<TenantDirectoryChange> = this.changes.event;

  private readonly listings = new Map<string, TenantListing>();
  private readonly loads = new Map<string, Promise<void>>();
  private readonly organizations = new Map<string, string>();
  /** Bumped by refresh(): a listing that started before it is not kept. */
  private generation = 0;
  private readonly logger: Logger;
  private readonly subscriptions: Array<{ dispose(): void }>;
  /** Who is signed in and which account is active, as last seen: a change of it drops the listings. */
  private accounts: Promise<string>;

  constructor(private readonly deps: TenantDirectoryDeps) {
    this.logger = deps.logger ?? silentLogger;
    this.accounts = this.signedIn();
    this.subscriptions = [
      deps.sessions.onDidChangeSessions(() => void this.sessionsChanged()),
      deps.counted?.(({ request, usage }) => request.tenant && this.noteOrganization(request.tenant.id, usage.organization)) ?? { dispose() {} },
    ];
  }

  private async signedIn(): Promise<string> {
    const ids = (await this.deps.sessions.getAccounts().catch(() => [])).map((account) => account.id).sort();
    return JSON.stringify([this.deps.sessions.activeAccount()?.id ?? null, ...ids]);
  }

  private async sessionsChanged(): Promise<void> {
    const previous = this.accounts;
    const next = (this.accounts = this.signedIn());
    if ((await previous) !== (await next)) this.refresh();
  }

  /** What is known of an account's tenants; undefined until it is first listed. */
  listing(accountId: string): TenantListing | undefined {
    return this.listings.get(accountId);
  }

  /** Lists the tenants of `accountId` (once at a time); onDidChange fires when it settles. */
  load(accountId: string): Promise<void> {
    const running = this.loads.get(accountId);
    if (running) return running;
    const generation = this.generation;
    this.listings.set(accountId, { kind: 'loading' });
    const done: Promise<void> = Promise.resolve().then(async () => {
      try {
        const tenants = await this.deps.listTenants();
        if (generation === this.generation) this.listings.set(accountId, { kind: 'loaded', tenants });
      } catch (error) {
        if (generation !== this.generation) return;
        this.logger.warn(`Tenants: listing failed: ${isApiError(error) ? error.describe() : String(error)}`);
        this.listings.set(accountId, failedListing(error));
      } finally {
        if (this.loads.get(accountId) === done) this.loads.delete(accountId);
        if (generation === this.generation) this.changes.fire({ kind: 'listings' });
      }
    });
    this.loads.set(accountId, done);
    return done;
  }

  /** The active account's tenants, listed when needed; throws when the listing failed. */
  async tenants(): Promise<TenantRecord[]> {
    const accountId = this.deps.sessions.activeAccount()?.id;
    if (!accountId) return [];
    const known = this.listings.get(accountId);
    if (known?.kind === 'loaded') return known.tenants;
    // A refresh() while the listing ran drops it: list once more rather than answer "no tenants".
    for (let attempt = 0; attempt < 2; attempt++) {
      await this.load(accountId);
      const after = this.listings.get(accountId);
      if (after?.kind === 'loaded') return after.tenants;
      if (after?.kind === 'error') throw new Error(after.message);
    }
    return [];
  }

  /** Whether an account is signed in (the one whose tenants tenants() lists). */
  isSignedIn(): boolean {
    return this.deps.sessions.activeAccount() !== undefined;
  }

  /** The organization the last counted call for this tenant went to, when one was seen. */
  organizationOf(tenantId: string): string | undefined {
    return this.organizations.get(tenantId);
  }

  noteOrganization(tenantId: string, organization: string): void {
    if (this.organizations.get(tenantId) === organization) return;
    this.organizations.set(tenantId, organization);
    this.changes.fire({ kind: 'organization', tenantId, organization });
  }

  /** Forget every listing and ask again when next needed (refresh, sign-in, sign-out, account switch). */
  refresh(): void {
    this.generation++;
    this.listings.clear();
    this.loads.clear();
    this.changes.fire({ kind: 'listings' });
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changes.dispose();
  }

  /** Every listed tenant, the active account's first. */
  listed(): TenantRecord[] {
    const active = this.deps.sessions.activeAccount()?.id;
    const order = [...this.listings.entries()].sort(([a], [b]) => Number(b === active) - Number(a === active));
    return order.flatMap(([, listing]) => (listing.kind === 'loaded' ? listing.tenants : []));
  }
}

function failedListing(error: unknown): TenantListing {
  return {
    kind: 'error',
    errorKind: isApiError(error) ? error.kind : isSignInRequired(error) ? 'auth' : undefined,
    message: error instanceof Error ? error.message : String(error),
    module: isApiError(error) ? error.details.module : undefined,
  };
}
