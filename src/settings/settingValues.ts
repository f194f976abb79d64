/**
 * The tenantApi.* values as the layers above take them, from any reader of the settings: the editor's
 * configuration (environmentSettings.ts, authSettings.ts) or a workspace's `.vscode/settings.json` read
 * by the command line. Plain Node: one reading of the values for both front ends.
 */
import type { SettingReader } from '../api';
import { parseEnvironments, type EnvironmentList, type EnvironmentSettings } from './environments';

/** The ways a sign-in can reach the browser and come back (src/auth/flows.ts chooses among them). */
export type FlowKind = 'uriHandler' | 'loopback' | 'deviceCode';
export type FlowSetting = 'auto' | FlowKind;

export interface AuthConfiguration {
  authUrl: string;
  clientId: string;
  scopes: string[];
  signInFlow: FlowSetting;
  timeoutSeconds: number;
  refreshSkewSeconds: number;
  /** The named environment these values come from; undefined for the top-level settings. */
  environmentName?: string;
}

export const DEFAULT_CLIENT_ID = 'tenant-api-workbench';
export const DEFAULT_SCOPES = ['openid', 'profile', 'offline_access', 'api'];
const FLOWS: FlowSetting[] = ['auto', 'uriHandler', 'loopback', 'deviceCode'];

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
}

/** The top-level settings (the default environment) and tenantApi.environments. */
export function environmentListFrom(get: SettingReader): EnvironmentList {
  const scopes = strings(get<unknown>('scopes', undefined));
  const defaults: EnvironmentSettings = {
    authUrl: String(get<unknown>('authUrl', undefined) ?? ''),
    baseUrl: String(get<unknown>('baseUrl', undefined) ?? ''),
    clientId: String(get<unknown>('clientId', undefined) ?? '').trim() || DEFAULT_CLIENT_ID,
    scopes: scopes && scopes.length > 0 ? scopes : DEFAULT_SCOPES,
    allowedHosts: strings(get<unknown>('allowedHosts', undefined)) ?? [],
    routes: get<unknown>('routes', undefined) ?? [],
    endpoints: get<unknown>('endpoints', undefined) ?? [],
    catalogues: get<unknown>('catalogues', undefined) ?? [],
    variables: {},
  };
  return parseEnvironments(get<unknown>('environments', undefined), defaults);
}

/**
 * The settings sign-in reads, repaired where a value is unusable. An environment's authUrl, clientId
 * and scopes (already overlaid on the top-level ones) replace the top-level values.
 */
export function authConfigurationFrom(
  get: SettingReader,
  environment?: Pick<EnvironmentSettings, 'authUrl' | 'clientId' | 'scopes'> & { name?: string },
): AuthConfiguration {
  const scopes = get<unknown>('scopes', undefined);
  const flow = get<unknown>('signInFlow', 'auto') as FlowSetting;
  const number = (name: string, fallback: number, minimum: number) => {
    const value = get<unknown>(name, fallback);
    return typeof value === 'number' && Number.isFinite(value) && value >= minimum ? value : fallback;
  };
  const own: AuthConfiguration = {
    authUrl: String(get<unknown>('authUrl', '') ?? '').trim().replace(/\/+$/, ''),
    clientId: String(get<unknown>('clientId', '') ?? '').trim() || DEFAULT_CLIENT_ID,
    scopes: Array.isArray(scopes) && scopes.every((scope) => typeof scope === 'string') && scopes.length > 0 ? scopes : DEFAULT_SCOPES,
    signInFlow: FLOWS.includes(flow) ? flow : 'auto',
    timeoutSeconds: number('signInTimeoutSeconds', 300, 1),
    refreshSkewSeconds: number('refreshSkewSeconds', 60, 0),
  };
  if (!environment) return own;
  return { ...own, authUrl: environment.authUrl, clientId: environment.clientId, scopes: [...environment.scopes], environmentName: environment.name };
}
