import { ApiClient, type ApiClientOptions, type ApiSettings } from '../../../src/api/apiClient';
import { LicenceKeyStore } from '../../../src/api/licenceKeyStore';
import type { TenantRecord } from '../../../src/api/types';
import type { Logger } from '../../../src/common/logger';
import { silentLogger } from '../../../src/common/logger';
import { InMemorySecretStore } from '../../helpers/inMemorySecretStore';
import type { Sandbox } from '../../sandbox';

export const ROSSI = 'Rossi Costruzioni';

/** Stores the sandbox's Rossi keys (core and efat) under the organization name ROSSI. */
export async function rossiKeys(sandbox: Sandbox): Promise<LicenceKeyStore> {
  const store = new LicenceKeyStore(new InMemorySecretStore());
  for (const module of ['core', 'efat']) {
    const seeded = sandbox.licenceKeys.find((k) => k.organizationId === 'org-rossi' && k.module === module)!;
    await store.set(module, { key: seeded.key, label: `Rossi ${module}`, organization: ROSSI });
  }
  return store;
}

export interface Harness {
  client: ApiClient;
  /** Every request the client handed to fetch (method and URL), as seen from the client side. */
  fetched: Array<{ method: string; url: string }>;
  keys: LicenceKeyStore;
  tokens: { calls: Array<{ forceRefresh?: boolean }>; next?: string; getAccessToken(o?: { forceRefresh?: boolean }): Promise<string> };
}

/** A client against the sandbox, with limits scaled like the sandbox and tokens signed by it (user mario.rossi). */
export async function clientFor(
  sandbox: Sandbox,
  settings: Partial<ApiSettings> = {},
  extra: { logger?: Logger; backoffBaseMs?: number } = {},
): Promise<Harness> {
  const keys = await rossiKeys(sandbox);
  const tokens: Harness['tokens'] = {
    calls: [],
    next: undefined,
    async getAccessToken(options?: { forceRefresh?: boolean }) {
      tokens.calls.push(options ?? {});
      if (tokens.next !== undefined && !options?.forceRefresh) return tokens.next;
      tokens.next = undefined;
      return sandbox.signAccessToken({}, 'mario.rossi');
    },
  };
  const fetched: Harness['fetched'] = [];
  const countingFetch = (input: Request | URL | string, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    fetched.push({ method: request.method, url: request.url });
    return fetch(request);
  };
  const client = sandboxClient(sandbox, { fetch: countingFetch, tokens, licenceKeys: keys, ...extra }, settings);
  return { client, keys, tokens, fetched };
}

/** An ApiClient against the sandbox with limits scaled like the sandbox, given its tokens and keys. */
export function sandboxClient(
  sandbox: Sandbox,
  parts: Pick<ApiClientOptions, 'tokens' | 'licenceKeys' | 'fetch' | 'logger' | 'backoffBaseMs'>,
  settings: Partial<ApiSettings> = {},
): ApiClient {
  return new ApiClient({
    settings: () => ({
      baseUrl: sandbox.baseUrl,
      allowedHosts: [],
      routes: [],
      endpoints: [],
      requestTimeoutSeconds: 5,
      safetyMarginMs: 2,
      maxQueueLength: 1000,
      maxRetries: 3,
      ...settings,
    }),
    timeScale: sandbox.options.timeScale,
    ...parts,
    logger: parts.logger ?? silentLogger,
    backoffBaseMs: parts.backoffBaseMs ?? 20,
  });
}

export function tenantOf(sandbox: Sandbox, index: number): TenantRecord {
  const t = sandbox.tenants[index];
  return { id: t.id, codiceAmbienteDati: t.codiceAmbienteDati, descrizioneAmbienteDati: t.descrizioneAmbienteDati, clusterAddress: t.clusterAddress, usable: true };
}
