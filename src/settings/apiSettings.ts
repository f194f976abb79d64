import * as vscode from 'vscode';
import { readApiSettings, type ApiSettings } from '../api';
import type { EnvironmentSettings } from './environments';

/**
 * The API client's settings as a snapshot, re-read only when the `tenantApi` section changes:
 * the client asks for them at every call, so reading the configuration each time would be waste.
 * An environment's baseUrl, allowedHosts, routes and endpoints (already overlaid on the top-level
 * ones) replace the top-level values; the other settings are the same in every environment.
 */
export function watchApiSettings(subscriptions: vscode.Disposable[], environment?: () => EnvironmentSettings): () => ApiSettings {
  const read = (): ApiSettings => {
    const section = vscode.workspace.getConfiguration('tenantApi');
    return readApiSettings((key, fallback) => section.get(key, fallback));
  };
  let snapshot = read();
  subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('tenantApi')) snapshot = read();
    }),
  );
  if (!environment) return () => snapshot;
  // The environment's values are replaced (not changed) when the settings change, so the client's
  // tables, cached by identity, are rebuilt only then.
  return () => {
    const { baseUrl, allowedHosts, routes, endpoints } = environment();
    return { ...snapshot, baseUrl, allowedHosts, routes, endpoints };
  };
}
