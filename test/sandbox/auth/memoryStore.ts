// A per-sandbox storage adapter for oidc-provider. oidc-provider's own MemoryAdapter keeps one
// module-wide LRU of 1000 entries shared by every provider in the process, which several
// sandboxes in one test run would share and evict. This one belongs to one sandbox, and it
// remembers which access tokens were destroyed or revoked, so the resource API can refuse them.

type Payload = Record<string, unknown> & { grantId?: string; userCode?: string; uid?: string; consumed?: number };

interface Entry { payload: Payload; expiresAt: number }

const GRANTABLE = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);
const ACCESS_TOKEN_MODELS = new Set(['AccessToken', 'ClientCredentials']);

export class SandboxStore {
  private readonly entries = new Map<string, Entry>();
  private readonly byGrant = new Map<string, Set<string>>();
  private readonly byUserCode = new Map<string, string>();
  private readonly bySessionUid = new Map<string, string>();
  /** jti of access tokens that were revoked or destroyed. */
  readonly revokedAccessTokens = new Set<string>();
  /** JWT access tokens are not persisted by oidc-provider: their jti -> grant is recorded here. */
  private readonly accessTokenGrant = new Map<string, string>();
  private readonly grantAccessTokens = new Map<string, Set<string>>();

  private readonly issuedAccessTokens = new Set<string>();

  recordAccessToken(jti: string, grantId: string | undefined): void {
    this.issuedAccessTokens.add(jti);
    if (!grantId) return;
    this.accessTokenGrant.set(jti, grantId);
    let set = this.grantAccessTokens.get(grantId);
    if (!set) this.grantAccessTokens.set(grantId, (set = new Set()));
    set.add(jti);
  }

  grantOfAccessToken(jti: string): string | undefined {
    return this.accessTokenGrant.get(jti);
  }

  adapterFor(model: string): StoreAdapter {
    return new StoreAdapter(this, model);
  }

  get(key: string): Payload | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt && entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.payload;
  }

  set(model: string, id: string, payload: Payload, expiresIn: number | undefined): void {
    const key = `${model}:${id}`;
    this.entries.set(key, { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : 0 });
    if (GRANTABLE.has(model) && payload.grantId) {
      let keys = this.byGrant.get(payload.grantId);
      if (!keys) this.byGrant.set(payload.grantId, (keys = new Set()));
      keys.add(key);
    }
    if (payload.userCode) this.byUserCode.set(payload.userCode, id);
    if (model === 'Session' && payload.uid) this.bySessionUid.set(payload.uid, id);
  }

  delete(model: string, id: string): void {
    const key = `${model}:${id}`;
    if (ACCESS_TOKEN_MODELS.has(model)) this.revokedAccessTokens.add(id);
    this.entries.delete(key);
  }

  revokeGrant(grantId: string): void {
    for (const jti of this.grantAccessTokens.get(grantId) ?? []) this.revokedAccessTokens.add(jti);
    for (const key of this.byGrant.get(grantId) ?? []) {
      const [model, id] = splitKey(key);
      this.delete(model, id);
    }
    this.byGrant.delete(grantId);
    this.entries.delete(`Grant:${grantId}`);
  }

  idForUserCode(userCode: string): string | undefined {
    return this.byUserCode.get(userCode);
  }

  idForSessionUid(uid: string): string | undefined {
    return this.bySessionUid.get(uid);
  }

  isAccessTokenRevoked(jti: string): boolean {
    return this.revokedAccessTokens.has(jti);
  }

  /** Forgets every grant, token and session; every access token issued so far is refused. */
  revokeAll(): void {
    for (const key of this.entries.keys()) {
      const [model, id] = splitKey(key);
      if (ACCESS_TOKEN_MODELS.has(model)) this.revokedAccessTokens.add(id);
    }
    for (const jti of this.issuedAccessTokens) this.revokedAccessTokens.add(jti);
    this.issuedAccessTokens.clear();
    this.entries.clear();
    this.byGrant.clear();
    this.accessTokenGrant.clear();
    this.grantAccessTokens.clear();
    this.byUserCode.clear();
    this.bySessionUid.clear();
  }
}

function splitKey(key: string): [string, string] {
  const i = key.indexOf(':');
  return [key.slice(0, i), key.slice(i + 1)];
}

export class StoreAdapter {
  constructor(private readonly store: SandboxStore, private readonly model: string) {}

  async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
    this.store.set(this.model, id, payload, expiresIn);
  }

  async find(id: string): Promise<Payload | undefined> {
    return this.store.get(`${this.model}:${id}`);
  }

  async findByUserCode(userCode: string): Promise<Payload | undefined> {
    const id = this.store.idForUserCode(userCode);
    return id === undefined ? undefined : this.find(id);
  }

  async findByUid(uid: string): Promise<Payload | undefined> {
    const id = this.store.idForSessionUid(uid);
    return id === undefined ? undefined : this.find(id);
  }

  async consume(id: string): Promise<void> {
    const payload = this.store.get(`${this.model}:${id}`);
    if (payload) payload.consumed = Math.floor(Date.now() / 1000);
  }

  async destroy(id: string): Promise<void> {
    this.store.delete(this.model, id);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    this.store.revokeGrant(grantId);
  }
}
