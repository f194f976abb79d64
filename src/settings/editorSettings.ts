import * as vscode from 'vscode';
import { readEnvironmentList } from './environmentSettings';
import { sanitizeThresholds, type QuotaThresholds } from './quotaThresholds';
import { parseWeeklyReset, type WeeklyResetSetting } from '../api/quotaForecast';
import { readApiSettings } from '../api';

/** The section every setting of the extension is under. */
export const SETTINGS_SECTION = 'tenantApi';

/** Whether a change touched `tenantApi.<key>` (or anything below it, e.g. 'quota'). */
export type SettingsChange = (key: string) => boolean;

/** Calls `listener` after any `tenantApi.*` setting changed, with a test for which ones. */
export function onSettingsChange(listener: (affects: SettingsChange) => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((event) => {
    if (!event.affectsConfiguration(SETTINGS_SECTION)) return;
    listener((key) => event.affectsConfiguration(`${SETTINGS_SECTION}.${key}`));
  });
}

/** tenantApi.requestTimeoutSeconds as the client reads it (brought back in range), in ms. */
export function readRequestTimeoutMs(): number {
  const section = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  return readApiSettings((key, fallback) => section.get(key, fallback)).requestTimeoutSeconds * 1000;
}

/** tenantApi.quota.warningPercent and errorPercent, brought back in range. */
export function readQuotaThresholds(): QuotaThresholds {
  const configuration = vscode.workspace.getConfiguration(`${SETTINGS_SECTION}.quota`);
  return sanitizeThresholds({
    warningPercent: configuration.get<number>('warningPercent'),
    errorPercent: configuration.get<number>('errorPercent'),
  });
}

/** tenantApi.quota.weekReset: the week's reset as a day and time in UTC ("Mon 00:00"), read; `invalid` holds a value that is not one. */
export function readWeeklyReset(): { setting?: WeeklyResetSetting; invalid?: string } {
  const text = vscode.workspace.getConfiguration(`${SETTINGS_SECTION}.quota`).get<string>('weekReset', '').trim();
  if (text === '') return {};
  const setting = parseWeeklyReset(text);
  return setting ? { setting } : { invalid: text };
}

/** tenantApi.quota.confirmRunPercent: Send All asks first from this share (percent) of a remaining weekly quota. */
export function readConfirmRunPercent(): number {
  const value = vscode.workspace.getConfiguration(`${SETTINGS_SECTION}.quota`).get<number>('confirmRunPercent', 1);
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(100, Math.max(0, value)) : 1;
}

/** tenantApi.requestFiles.codeLens: whether request files show our CodeLenses. */
export function readRequestFilesCodeLens(): boolean {
  return vscode.workspace.getConfiguration(SETTINGS_SECTION).get<boolean>('requestFiles.codeLens', true);
}

/** Whether both addresses (authUrl and baseUrl) are written, at the top level or for an environment. */
export function readAddressesSet(): boolean {
  return readEnvironmentList().environments.some(({ settings }) => settings.authUrl !== '' && settings.baseUrl !== '');
}

/** tenantApi.responses.tabPerRequest: a response tab per different request (else one tab for all). */
export function readResponseTabPerRequest(): boolean {
  return vscode.workspace.getConfiguration(SETTINGS_SECTION).get<boolean>('responses.tabPerRequest', true);
}

/** tenantApi.watch.intervalSeconds as written (the watch clamps it: never under 60 s, src/engine/watchSchedule.ts). */
export function readWatchIntervalSeconds(): unknown {
  return vscode.workspace.getConfiguration(SETTINGS_SECTION).get<unknown>('watch.intervalSeconds', 60);
}
