/**
 * The workspace's settings as the extension reads them: `.vscode/settings.json` (JSONC) of the given
 * folder, or of the nearest folder up from the current one that has it, read through src/settings.
 * Only the workspace file: user settings belong to one person, CI has none. A runner the editor starts
 * takes the editor's settings instead (user, workspace, folder: EDITOR_SETTINGS_VARIABLE), unless
 * --workspace names a folder.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readApiSettings, type ApiSettings, type SettingReader } from '../api';
import * as l10n from '../common/l10n';
import type { AuthConfiguration } from '../settings/settingValues';
import { chooseActiveEnvironment, environmentId, type Environment } from '../settings/environments';
import { authConfigurationFrom, environmentListFrom } from '../settings/settingValues';
import { parseCatalogueEntries } from '../catalog/entries';
import type { CatalogueEntry } from '../catalog/types';
import { parseJsonc } from './jsonc';
import { UsageError } from './options';
import { EDITOR_SETTINGS_VARIABLE } from '../common/editorHandOver';

export interface WorkspaceSettings {
  /** The settings file read, or undefined when there is none (every value is then its default) or the editor's were given. */
  file?: string;
  /** Where the settings came from, as the run says it: the editor's, the file, or none. */
  source: string;
  /** Where a missing setting is to be set: the editor's settings, else the file (.vscode/settings.json when there is none). */
  place: string;
  environment: Environment;
  api: ApiSettings;
  auth: AuthConfiguration;
  /** The environment's catalogues (tenantApi.catalogues), relative files read from `folder`. */
  catalogues: CatalogueEntry[];
  /** The workspace folder: the one holding .vscode/settings.json, else the current one. */
  folder: string;
  /** Parts of the settings that were ignored, one sentence each. */
  problems: string[];
}

export function findSettingsFile(start: string, explicit: boolean): string | undefined {
  let folder = path.resolve(start);
  for (;;) {
    const candidate = path.join(folder, '.vscode', 'settings.json');
    if (fs.existsSync(candidate)) return candidate;
    const parent = path.dirname(folder);
    if (explicit || parent === folder) return undefined;
    folder = parent;
  }
}

/** A reader of the `tenantApi` section from the file's flat keys (`"tenantApi.baseUrl": ...`). */
export function settingReader(values: Record<string, unknown>): SettingReader {
  return <T>(key: string, fallback: T): T => {
    const full = `tenantApi.${key}`;
    return Object.prototype.hasOwnProperty.call(values, full) ? (values[full] as T) : fallback;
  };
}

function readValues(file: string | undefined): Record<string, unknown> {
  if (!file) return {};
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(l10n.t('{0} cannot be read: {1}', file, error instanceof Error ? error.message : String(error)));
  }
  return objectOf(text, file);
}

function objectOf(text: string, where: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = parseJsonc(text);
  } catch (error) {
    throw new UsageError(l10n.t('{0} cannot be read: {1}', where, error instanceof Error ? error.message : String(error)));
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(l10n.t('{0} is not a JSON object.', where));
  return parsed as Record<string, unknown>;
}

/**
 * The environment by name (any case), else the one the extension would make active in a new workspace.
 * `editorSettings`: the value of EDITOR_SETTINGS_VARIABLE, when the editor started the run.
 * A name only the environment files know (`fileEnvironments`, given the workspace's root) runs with the
 * top-level settings and that file environment's variables.
 */
export function readWorkspaceSettings(options: { workspace?: string; env?: string; cwd: string; editorSettings?: string; fileEnvironments?: (root: string) => string[] }): WorkspaceSettings {
  const fromEditor = options.workspace === undefined && options.editorSettings?.trim() ? options.editorSettings : undefined;
  const file = fromEditor === undefined ? findSettingsFile(options.workspace ?? options.cwd, options.workspace !== undefined) : undefined;
  const get = settingReader(fromEditor === undefined ? readValues(file) : objectOf(fromEditor, EDITOR_SETTINGS_VARIABLE));
  const source = fromEditor !== undefined ? l10n.t("the editor's settings (user, workspace and folder)") : file ?? l10n.t('no settings file (every setting its default)');
  const place = fromEditor !== undefined ? source : file ?? '.vscode/settings.json';
  const list = environmentListFrom(get);
  const wanted = options.env?.trim().toLowerCase();
  let environment = wanted === undefined ? chooseActiveEnvironment(list.environments, undefined) : list.environments.find((candidate) => candidate.name.toLowerCase() === wanted || (candidate.isDefault && wanted === 'default'));
  const fileNames = wanted === undefined || environment ? [] : (options.fileEnvironments?.(file ? path.dirname(path.dirname(file)) : path.resolve(options.cwd)) ?? []);
  const fromFiles = fileNames.find((name) => name.toLowerCase() === wanted);
  if (!environment && fromFiles) environment = { ...list.environments[0], id: environmentId(fromFiles), name: fromFiles, isDefault: false, overrides: [] };
  if (!environment) {
    const names = [...list.environments.filter((candidate) => !candidate.isDefault).map((candidate) => candidate.name), ...fileNames];
    throw new UsageError(l10n.t('No environment "{0}" in {1} (known: {2}).', options.env!, place, ['default', ...names].join(', ')));
  }
  const { baseUrl, allowedHosts, routes, endpoints } = environment.settings;
  const api = { ...readApiSettings(get), baseUrl, allowedHosts, routes, endpoints };
  const auth = authConfigurationFrom(get, environment.isDefault ? environment.settings : { ...environment.settings, name: environment.name });
  const catalogues = parseCatalogueEntries(environment.settings.catalogues);
  const folder = file ? path.dirname(path.dirname(file)) : path.resolve(options.cwd);
  return { file, source, place, environment, api, auth, catalogues: catalogues.entries, folder, problems: [...list.problems, ...catalogues.problems] };
}
