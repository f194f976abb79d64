// Public types of the sandbox (documented in test/sandbox/README.md).
import type { SeedUser } from './seed';

export interface SandboxOptions {
  /** 0 (default) = a free port; all servers bind 127.0.0.1. */
  authPort?: number;
  /** The {base_url} host. */
  apiPort?: number;
  /** At least two cluster hosts; default [0, 0]. */
  clusterPorts?: number[];
  /** 1 = real time; 0.1 makes a second last 100 ms (every limit window). */
  timeScale?: number;
  /** Overrides every organization's weekly limit from its licence. */
  weeklyLimit?: number;
  /** Default 300. */
  accessTokenTtlSeconds?: number;
  /** Added to every resource response. */
  latencyMs?: number;
  /** Random 0..jitterMs added on top. */
  jitterMs?: number;
  /** Public client id, default 'tenant-api-workbench'. */
  clientId?: string;
  /** Added to the public client's registered redirect URIs (exact match). */
  extraRedirectUris?: string[];
  /** Development only: any redirect_uri starting with one of these is accepted. */
  devRedirectPrefixes?: string[];
  /** Polling interval the device flow announces (default 5). */
  deviceCodeIntervalSeconds?: number;
  /**
   * Per-application limits, default the spec's 5 per second and 300 per minute. With fixed windows
   * that start at the first request, 5/s already caps a minute at 300, so the minute limit can only
   * be seen tripping with a larger perSecond or a smaller perMinute (tests do that).
   */
  rateLimits?: { perSecond?: number; perMinute?: number };
  /** More tenants (by code) for a user than the seed gives (the matrix bench gives mario.rossi all four). */
  moreTenants?: Record<string, string[]>;
  /** Write oidc-provider's server errors to stderr (default false). */
  logErrors?: boolean;
  /**
   * Serve HTTPS with a certificate from a certificate authority made at start (its PEM file is `tls.caFile`).
   * `clientCertificates`: every server also asks for a client certificate signed by that authority (mutual
   * TLS); the sandbox makes one (`tls.client`).
   */
  tls?: boolean | { clientCertificates?: boolean };
  /**
   * The host name in every URL the sandbox hands out (default 127.0.0.1): a name only a proxy resolves
   * puts the sandbox behind that proxy. The servers bind 127.0.0.1 whatever it is.
   */
  hostName?: string;
}

/** The files of a sandbox started with `tls` (in a folder removed by close()). */
export interface SandboxTls {
  /** The certificate authority to trust (PEM). */
  caFile: string;
  ca: string;
  /** With `clientCertificates`: a client certificate and its key, encrypted with `keyPassphrase`. */
  client?: { certFile: string; keyFile: string; keyPassphrase: string };
}

/** A seeded user, as test/sandbox/seed.ts defines it (with the password, for tests and robots). */
export type SandboxUser = SeedUser;

export interface SandboxTenant {
  id: string;
  codiceAmbienteDati: string;
  descrizioneAmbienteDati: string;
  clusterAddress: string;
  organizationId: string;
}

/** A refresh_token grant at the token endpoint: granted, or refused with its OAuth error (e.g. invalid_grant). */
export interface RecordedRefresh {
  ok: boolean;
  error?: string;
  at: number;
}

export interface RecordedRequest {
  method: string;
  url: string;
  host: 'base' | `cluster${number}`;
  path: string;
  headers: Record<string, string>;
  status: number;
  at: number;
  /** The request body as UTF-8 text, once the sandbox has read it (undefined before, and when it never reads one). */
  body?: string;
}

export type Fault =
  | { kind: 'status'; status: number; count?: number; pathPrefix?: string }
  | { kind: 'reset'; count?: number; pathPrefix?: string }
  | { kind: 'badLimitHeader'; value?: string; count?: number; pathPrefix?: string }
  | { kind: 'noLimitHeader'; count?: number; pathPrefix?: string }
  | { kind: 'nonJson'; count?: number; pathPrefix?: string }
  | { kind: 'slow'; delayMs: number; count?: number; pathPrefix?: string }
  /** `location` absolute or relative (to the request's URL); the hop counts against the per-application limits. */
  | { kind: 'redirect'; status?: RedirectStatus; location: string; count?: number; pathPrefix?: string };

export type RedirectStatus = 301 | 302 | 303 | 307 | 308;

export interface Sandbox {
  /** Issuer; endpoints below it (see README). */
  authUrl: string;
  baseUrl: string;
  clusterUrls: string[];
  apiScope: string;
  audience: string;
  clients: {
    public: { clientId: string };
    confidential: { clientId: string; clientSecret: string };
    password: { clientId: string; clientSecret: string };
  };
  users: SandboxUser[];
  tenants: SandboxTenant[];
  organizations: Array<{ id: string; name: string; weeklyLimit: number }>;
  licenceKeys: Array<{ key: string; module: string; organizationId: string }>;
  modules: Array<{ id: string; pathPrefixes: string[] }>;
  /** Set when started with `tls`. */
  tls?: SandboxTls;
  /** Every resource-API request, in order. */
  requests: RecordedRequest[];
  /** Every refresh_token grant at the token endpoint, in order. */
  refreshes: RecordedRefresh[];
  /** Applies to the next `count` (default 1) resource calls matching pathPrefix (default: all). */
  injectFault(fault: Fault): void;
  clearFaults(): void;
  usage(organizationId: string): { used: number; limit: number };
  /** Changes a tenant's summary (`/efat/api/v1/riepilogo`): its next answer has the next revision; returns it. */
  updateSummary(tenantId: string): number;
  /** How many resource-API requests reached `path` (query ignored), from `requests[since]` on. */
  callsTo(path: string, since?: number): number;
  /** Clears rate windows and weekly counters. */
  resetLimits(): void;
  /** Makes every issued token, grant and session invalid. */
  revokeAllTokens(): void;
  /** Endpoint URLs of the authorization server (all below authUrl). */
  endpoints: {
    authorization: string;
    token: string;
    userinfo: string;
    jwks: string;
    deviceAuthorization: string;
    deviceVerification: string;
    revocation: string;
    endSession: string;
    introspection: string;
    discovery: string;
  };
  /**
   * For negative tests: an access-token JWT signed with the provider's real key. `claims` are
   * merged over a valid payload for `username` (default the first user, client = the public
   * client). With no overrides the token is accepted by the resource API (not at userinfo).
   */
  signAccessToken(claims?: Record<string, unknown>, username?: string): string;
  /** The effective options. */
  options: Required<Omit<SandboxOptions, 'logErrors' | 'rateLimits' | 'moreTenants' | 'tls' | 'hostName'>> & { rateLimits: { perSecond: number; perMinute: number } };
  close(): Promise<void>;
}
