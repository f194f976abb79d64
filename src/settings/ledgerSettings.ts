import * as vscode from 'vscode';
import { SETTINGS_SECTION } from './editorSettings';

/**
 * tenantApi.ledger.url: the Redis the editor shares the application's limits through instead of the
 * local broker (empty: the local broker). Never a password: src/coordination/redis refuses a URL with
 * one. Read when an application's scheduler is made (a change applies after a reload).
 */
export function readLedgerUrl(): string {
  return (vscode.workspace.getConfiguration(SETTINGS_SECTION).get<string>('ledger.url') ?? '').trim();
}
