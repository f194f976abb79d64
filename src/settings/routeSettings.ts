import * as vscode from 'vscode';
import type { RouteRule } from '../api/types';
import { ENVIRONMENTS_SETTING, type Environment } from './environments';
import { environmentsWithRouteRule, withRouteRule } from './routeRules';

/** The most specific place the setting already has a value (a workspace value hides the user's). */
function targetOf(section: vscode.WorkspaceConfiguration, key: string): vscode.ConfigurationTarget {
  return section.inspect(key)?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
}

/**
 * Remembers a route rule in the table the client reads: the environment's own routes when it sets
 * them, else the top-level tenantApi.routes. The client's table follows on the settings change.
 */
export async function saveRouteRule(environment: Pick<Environment, 'name' | 'isDefault' | 'overrides'>, rule: RouteRule): Promise<void> {
  const section = vscode.workspace.getConfiguration('tenantApi');
  if (!environment.isDefault && environment.overrides.includes('routes')) {
    const key = ENVIRONMENTS_SETTING.slice('tenantApi.'.length);
    const updated = environmentsWithRouteRule(section.get<unknown>(key), environment.name, rule);
    if (!updated) throw new Error(vscode.l10n.t('The environment "{0}" is not in the setting {1}.', environment.name, ENVIRONMENTS_SETTING));
    await section.update(key, updated, targetOf(section, key));
    return;
  }
  await section.update('routes', withRouteRule(section.get<unknown>('routes'), rule), targetOf(section, 'routes'));
}
