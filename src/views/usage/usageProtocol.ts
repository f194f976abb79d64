/**
 * The messages between the usage webview and the extension. Every message from the webview goes
 * through `parseUsageRequest`; anything else is dropped. No `vscode` and no DOM here.
 */
import type { UsageStrings, UsageView } from './usageView';

export type { UsageStrings, UsageView };

export type UsageUpdate = { type: 'view'; view: UsageView };

export type UsageRequest = { type: 'ready' } | { type: 'resume'; organization: string } | { type: 'showList' };

export function parseUsageRequest(message: unknown): UsageRequest | undefined {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return undefined;
  const record = message as Record<string, unknown>;
  const keys = Object.keys(record);
  if ((record.type === 'showList' || record.type === 'ready') && keys.length === 1) return { type: record.type };
  if (record.type === 'resume' && keys.length === 2 && typeof record.organization === 'string' && record.organization.length > 0 && record.organization.length <= 500) {
    return { type: 'resume', organization: record.organization };
  }
  return undefined;
}
