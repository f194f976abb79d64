import * as vscode from 'vscode';
import { isLoopbackHost } from '../common/loopbackHost';
import type { EnvironmentSettings } from './environments';
import { authConfigurationFrom, type AuthConfiguration } from './settingValues';

/**
 * The tenantApi.* settings sign-in reads, repaired where a value is unusable. An environment's
 * authUrl, clientId and scopes (already overlaid on the top-level ones) replace the top-level values.
 */
export function readAuthConfiguration(environment?: Pick<EnvironmentSettings, 'authUrl' | 'clientId' | 'scopes'> & { name?: string }): AuthConfiguration {
  const config = vscode.workspace.getConfiguration('tenantApi');
  return authConfigurationFrom((key, fallback) => config.get(key, fallback), environment);
}

/** Whether an authorization server address can be used: https, or http on this computer. */
function authUrlShape(authUrl: string): 'ok' | 'invalid' | 'insecure' {
  try {
    const url = new URL(authUrl);
    // The loopback rule of the API's hosts (127.0.0.0/8, ::1, localhost): one rule for both.
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname)) ? 'ok' : 'insecure';
  } catch {
    return 'invalid';
  }
}

/** A clear error when the authorization server is not configured or not a usable URL, naming the setting to fix. */
export function checkAuthUrl(authUrl: string, environmentName?: string): string | undefined {
  if (environmentName !== undefined) return checkEnvironmentAuthUrl(authUrl, environmentName);
  if (!authUrl) return vscode.l10n.t('Set tenantApi.authUrl to the address of the authorization server first.');
  switch (authUrlShape(authUrl)) {
    case 'insecure':
      return vscode.l10n.t('tenantApi.authUrl must use https (plain http only for 127.0.0.1 or localhost): {0}', authUrl);
    case 'invalid':
      return vscode.l10n.t('tenantApi.authUrl is not a valid URL: {0}', authUrl);
    default:
      return undefined;
  }
}

function checkEnvironmentAuthUrl(authUrl: string, name: string): string | undefined {
  if (!authUrl) return vscode.l10n.t('Set "authUrl" of the environment "{0}" in tenantApi.environments (or tenantApi.authUrl) first.', name);
  switch (authUrlShape(authUrl)) {
    case 'insecure':
      return vscode.l10n.t('The "authUrl" of the environment "{0}" must use https (plain http only for 127.0.0.1 or localhost): {1}', name, authUrl);
    case 'invalid':
      return vscode.l10n.t('The "authUrl" of the environment "{0}" is not a valid URL: {1}', name, authUrl);
    default:
      return undefined;
  }
}
