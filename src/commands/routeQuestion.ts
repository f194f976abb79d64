import * as vscode from 'vscode';
import type { RouteRule } from '../api/types';

/**
 * The question for a path no route rule serves, as Send Request and the request files' quick fix both
 * ask it: which host serves it, which module's licence key it needs, and saving the answer.
 */
export type RouteHostItem = vscode.QuickPickItem & { host?: RouteRule['host'] };
export type RouteModuleItem = vscode.QuickPickItem & { module?: string | null };

export function routeHostItems(baseUrl?: string): RouteHostItem[] {
  return [
    { label: vscode.l10n.t('Base URL'), description: baseUrl, detail: vscode.l10n.t('Like /api/: one host for everyone'), host: 'base' },
    {
      label: vscode.l10n.t('The tenant\'s cluster'),
      detail: vscode.l10n.t('Like /efat/: each tenant\'s own host, with its User-Tenant header'),
      host: 'cluster',
    },
  ];
}

export function routeModuleItems(modules: readonly string[]): RouteModuleItem[] {
  return [
    ...modules.map((module) => ({ label: module, module })),
    { label: vscode.l10n.t('No licence key'), detail: vscode.l10n.t('The bearer token alone'), module: null },
  ];
}

/**
 * Adds the rule to tenantApi.routes and waits for the client's table to have it (it follows the
 * settings change); says why when it could not. True once the rule is in force.
 */
export async function saveRouteAndWait(
  rule: RouteRule,
  path: string,
  deps: { saveRoute(rule: RouteRule): Promise<void>; routeFor(path: string): RouteRule | undefined },
): Promise<boolean> {
  try {
    await deps.saveRoute(rule);
    const deadline = Date.now() + 5000;
    while (!deps.routeFor(path) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    if (!deps.routeFor(path)) throw new Error(vscode.l10n.t('the setting did not take effect'));
    return true;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    void vscode.window.showErrorMessage(vscode.l10n.t('The route for {0} could not be saved in tenantApi.routes: {1}', rule.prefix, reason));
    return false;
  }
}
