// Deterministic seed data of the sandbox: the same ids, passwords and keys on every run.
// Plain constants with no imports, so the in-editor test robot can import this file as it is.

export const DEFAULT_PUBLIC_CLIENT_ID = 'tenant-api-workbench';
export const API_SCOPE = 'api';
/** The `aud` of every access token: one resource server (base host and every cluster host). */
export const API_AUDIENCE = 'urn:tenant-api:resource-api';

export const CONFIDENTIAL_CLIENT = { clientId: 'tenant-api-service', clientSecret: 'sandbox-service-secret' } as const;
export const PASSWORD_CLIENT = { clientId: 'tenant-api-test', clientSecret: 'sandbox-test-secret' } as const;

/** The public client's registered redirect URIs (exact match), besides loopback on any port. */
export const PUBLIC_REDIRECT_URIS = [
  'vscode://tenant-api.tenant-api-workbench/auth-callback',
  'vscode-insiders://tenant-api.tenant-api-workbench/auth-callback',
  'code-oss://tenant-api.tenant-api-workbench/auth-callback',
] as const;
/** Registered once; accepted on any port (RFC 8252 section 7.3). */
export const LOOPBACK_REDIRECT_URI = 'http://127.0.0.1/auth-callback';

export interface SeedOrganization { id: string; name: string; weeklyLimit: number }
export interface SeedModule { id: string; description: string; pathPrefixes: string[] }
export interface SeedLicenceKey { key: string; module: string; organizationId: string; label: string }
export interface SeedTenant {
  id: string;
  codiceAmbienteDati: string;
  descrizioneAmbienteDati: string;
  organizationId: string;
  /** Index into the sandbox's cluster hosts. */
  cluster: number;
  /** How many rows /efat/api/v1/ditte has for this tenant. */
  ditte: number;
}
export interface SeedUser {
  username: string;
  password: string;
  sub: string;
  name: string;
  given_name: string;
  family_name: string;
  role: string[];
  tenantIds: string[];
}

export const ORGANIZATIONS: readonly SeedOrganization[] = [
  { id: 'org-rossi', name: 'Rossi Costruzioni S.r.l.', weeklyLimit: 10000 },
  { id: 'org-bianchi', name: 'Bianchi Alimentari S.p.A.', weeklyLimit: 5000 },
];

export const MODULES: readonly SeedModule[] = [
  { id: 'core', description: 'Configurazione (servizi di base)', pathPrefixes: ['/api/'] },
  { id: 'efat', description: 'Fatturazione elettronica', pathPrefixes: ['/efat/'] },
];

export const LICENCE_KEYS: readonly SeedLicenceKey[] = [
  { key: 'RSSCORE4F7K2M9Q1X8ZT', module: 'core', organizationId: 'org-rossi', label: 'Rossi - core' },
  { key: 'RSSEFAT8B3N6P2W5Y7QD', module: 'efat', organizationId: 'org-rossi', label: 'Rossi - efat' },
  { key: 'BNCCORE2H9J4L7T3V6XA', module: 'core', organizationId: 'org-bianchi', label: 'Bianchi - core' },
  { key: 'BNCEFAT5C8D1G4K7M2RS', module: 'efat', organizationId: 'org-bianchi', label: 'Bianchi - efat' },
];

export const TENANTS: readonly SeedTenant[] = [
  {
    id: '3f2b8c1e-5d4a-4e6b-9a7c-1b2d3e4f5a60', codiceAmbienteDati: 'RC-MI',
    descrizioneAmbienteDati: 'Rossi Costruzioni - Sede di Milano', organizationId: 'org-rossi', cluster: 0, ditte: 40000,
  },
  {
    id: '8a1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d41', codiceAmbienteDati: 'RC-TO',
    descrizioneAmbienteDati: 'Rossi Costruzioni - Filiale di Torino', organizationId: 'org-rossi', cluster: 1, ditte: 1250,
  },
  {
    id: 'c7d8e9f0-1a2b-4c3d-ae5f-6a7b8c9d0e12', codiceAmbienteDati: 'BA-PR',
    descrizioneAmbienteDati: 'Bianchi Alimentari - Produzione', organizationId: 'org-bianchi', cluster: 1, ditte: 320,
  },
  {
    id: '5e6f7a8b-9c0d-4e1f-b2a3-c4d5e6f7a803', codiceAmbienteDati: 'BA-CO',
    descrizioneAmbienteDati: 'Bianchi Alimentari - Commerciale', organizationId: 'org-bianchi', cluster: 0, ditte: 75,
  },
];

export const USERS: readonly SeedUser[] = [
  {
    username: 'mario.rossi', password: 'Sandbox!Mario1', sub: 'a1f0c9e2-7b3d-4c5e-8f61-0d2e3f4a5b6c',
    name: 'Mario Rossi', given_name: 'Mario', family_name: 'Rossi', role: ['amministratore', 'utente'],
    tenantIds: [TENANTS[0].id, TENANTS[1].id, TENANTS[2].id],
  },
  {
    username: 'laura.verdi', password: 'Sandbox!Laura1', sub: 'b2e1d0f3-8c4e-4d6f-9a72-1e3f4a5b6c7d',
    name: 'Laura Verdi', given_name: 'Laura', family_name: 'Verdi', role: ['utente'],
    tenantIds: [TENANTS[3].id],
  },
  {
    username: 'giulia.neri', password: 'Sandbox!Giulia1', sub: 'c3d2e1f4-9d5f-4e7a-ab83-2f4a5b6c7d8e',
    name: 'Giulia Neri', given_name: 'Giulia', family_name: 'Neri', role: ['ospite'],
    tenantIds: [],
  },
];

/** Fixed loopback ports of `npm run sandbox` and `npm start`. */
export const CLI_PORTS = { auth: 4401, api: 4402, clusters: [4403, 4404] } as const;
