import type { EnvironmentSettings } from '../../../src/settings/environments';

/** The top-level settings the environment tests parse their `tenantApi.environments` entries against. */
export const devEnvironmentDefaults: EnvironmentSettings = {
  authUrl: 'https://auth.dev.example.com',
  baseUrl: 'https://api.dev.example.com',
  clientId: 'dev-app',
  scopes: ['openid'],
  allowedHosts: [],
  routes: [],
  endpoints: [],
  variables: {},
};
