import * as vscode from 'vscode';
import { readApiSettings, type ApiSettings } from '../api';

/**
 * The API client's settings as a snapshot, re-read only when the `tenantApi` section changes:
 * the client asks for them at every call, so reading the configuration each time would be waste.
 */
export function watchApiSettings(context: vscode.ExtensionContext): () => ApiSettings {
  const read = () => {
    const section = vscode.workspace.getConfiguration('tenantApi');
    return readApiSettings((key, fallback) => section.get(key, fallback));
  };
  let snapshot = read();
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('tenantApi')) snapshot = read();
    }),
  );
  return () => snapshot;
}
