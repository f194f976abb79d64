import { publicSuffixEntries, publicSuffixProblem } from '../api/hostValidation';
import * as l10n from '../common/l10n';

/*
 * Environments (tenantApi.environments): named sets of the settings that say which installation and
 * which connected app the extension talks to. The top-level settings are the default environment; a
 * named environment overlays only what it sets. Pure: the editor reads the raw values and hands them here.
 */

/** The settings an environment may set; everything else stays global (flows, timeouts, limits, quota colours). */
export interface EnvironmentSettings {
  authUrl: string;
  baseUrl: string;
  clientId: string;
  scopes: string[];
  allowedHosts: string[];
  /** Raw tenantApi.routes shape: parsed (and bad rules reported) by src/api/routes. */
  routes: unknown;
  /** Raw tenantApi.endpoints shape. */
  endpoints: unknown;
  /** Raw tenantApi.catalogues shape: parsed (and bad entries reported) by src/catalog/entries. */
  catalogues?: unknown;
  /** Values request files can use ({{name}}); no secrets belong here, they are plain settings. */
  variables: Record<string, string>;
}

export interface Environment {
  /** Stable id: `default`, or `@` + the URI-encoded lower-case name (so ids never clash, and `/` never occurs). */
  id: string;
  /** As the user wrote it; the default environment's name is localized. */
  name: string;
  isDefault: boolean;
  protected: boolean;
  /** The top-level settings overlaid by what this environment sets. */
  settings: EnvironmentSettings;
  /** The setting names this environment sets itself (for the tooltip and the quick pick). */
  overrides: ReadonlyArray<keyof EnvironmentSettings>;
}

export interface EnvironmentList {
  /** The default environment first, then the named ones in the order of the setting. */
  environments: Environment[];
  /** One sentence per entry or field that was ignored, for the log and a warning. */
  problems: string[];
}

export const DEFAULT_ENVIRONMENT_ID = 'default';
export const ENVIRONMENTS_SETTING = 'tenantApi.environments';
const MAX_NAME_LENGTH = 40;

/** The fields an entry of tenantApi.environments may have, each with the check its value must pass. */
const FIELD_CHECKS: Record<string, (value: unknown) => boolean> = {
  name: (value) => typeof value === 'string',
  protected: (value) => typeof value === 'boolean',
  authUrl: (value) => typeof value === 'string',
  baseUrl: (value) => typeof value === 'string',
  clientId: (value) => typeof value === 'string' && value.trim() !== '',
  scopes: (value) => Array.isArray(value) && value.length > 0 && value.every((s) => typeof s === 'string' && s.trim() !== ''),
  allowedHosts: (value) => Array.isArray(value) && value.every((s) => typeof s === 'string'),
  routes: (value) => Array.isArray(value),
  endpoints: (value) => Array.isArray(value),
  catalogues: (value) => Array.isArray(value),
  variables: (value) =>
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => ['string', 'number', 'boolean'].includes(typeof v)),
};

const FIELD_EXPECTATION: Record<string, () => string> = {
  protected: () => l10n.t('true or false'),
  authUrl: () => l10n.t('an address'),
  baseUrl: () => l10n.t('an address'),
  clientId: () => l10n.t('a non-empty text'),
  scopes: () => l10n.t('a non-empty list of texts'),
  allowedHosts: () => l10n.t('a list of texts'),
  routes: () => l10n.t('a list of rules'),
  endpoints: () => l10n.t('a list of endpoints'),
  catalogues: () => l10n.t('a list of catalogues'),
  variables: () => l10n.t('an object of texts, numbers or true/false'),
};

export function environmentId(name: string): string {
  return `@${encodeURIComponent(name.trim().toLowerCase())}`;
}

/** Checks a name: a short single line, unique, not the default's. Returns a sentence or undefined. */
export function checkEnvironmentName(name: unknown, taken: ReadonlySet<string>): string | undefined {
  if (typeof name !== 'string' || !name.trim()) return l10n.t('it has no "name"');
  const text = name.trim();
  if (text.length > MAX_NAME_LENGTH) return l10n.t('the name "{0}…" is longer than {1} characters', text.slice(0, MAX_NAME_LENGTH), MAX_NAME_LENGTH);
  if (/[\u0000-\u001f\u007f]/.test(text)) return l10n.t('the name "{0}" has control characters', text.replace(/[\u0000-\u001f\u007f]/g, '?'));
  if (text.toLowerCase() === DEFAULT_ENVIRONMENT_ID) return l10n.t('"{0}" is the name of the top-level settings', text);
  if (taken.has(environmentId(text))) return l10n.t('another environment is already called "{0}"', text);
  return undefined;
}

/** Normalizes the overlayable fields the way sign-in and the client expect them. */
function cleanSettings(settings: EnvironmentSettings): EnvironmentSettings {
  return {
    ...settings,
    authUrl: settings.authUrl.trim().replace(/\/+$/, ''),
    baseUrl: settings.baseUrl.trim(),
    clientId: settings.clientId.trim(),
    scopes: settings.scopes.map((scope) => scope.trim()),
  };
}

function variablesOf(value: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, v]) => [key, String(v)]));
}

/**
 * An environment's effective settings: the defaults overlaid by what it sets. One exception, argued:
 * allowedHosts widens the base URL it was written for, so an environment with a baseUrl of its own
 * does not inherit the default's list (a sandbox's `127.0.0.1` must not let production's tokens go there);
 * it falls back to its own base URL's domain unless it names hosts itself.
 */
export function overlay(defaults: EnvironmentSettings, entry: Record<string, unknown>): EnvironmentSettings {
  const own = (key: keyof EnvironmentSettings) => Object.prototype.hasOwnProperty.call(entry, key) && FIELD_CHECKS[key](entry[key]);
  const ownBase = own('baseUrl');
  return cleanSettings({
    authUrl: own('authUrl') ? (entry.authUrl as string) : defaults.authUrl,
    baseUrl: ownBase ? (entry.baseUrl as string) : defaults.baseUrl,
    clientId: own('clientId') ? (entry.clientId as string) : defaults.clientId,
    scopes: own('scopes') ? [...(entry.scopes as string[])] : [...defaults.scopes],
    allowedHosts: own('allowedHosts') ? [...(entry.allowedHosts as string[])] : ownBase ? [] : [...defaults.allowedHosts],
    routes: own('routes') ? entry.routes : defaults.routes,
    endpoints: own('endpoints') ? entry.endpoints : defaults.endpoints,
    ...(own('catalogues') ? { catalogues: entry.catalogues } : defaults.catalogues !== undefined ? { catalogues: defaults.catalogues } : {}),
    variables: own('variables') ? variablesOf(entry.variables) : { ...defaults.variables },
  });
}

/** The allowed hosts without the entries that are a public suffix, each refused with a sentence naming it. */
function withoutPublicSuffixes(allowedHosts: string[], setting: string, problems: string[]): string[] {
  const refused = publicSuffixEntries(allowedHosts);
  for (const entry of refused) problems.push(publicSuffixProblem(entry, setting));
  return allowedHosts.filter((entry) => !refused.includes(entry));
}

/** Reads one entry; undefined (with the reason in problems) when it cannot be used at all. */
function parseEntry(raw: unknown, index: number, defaults: EnvironmentSettings, taken: Set<string>, problems: string[]): Environment | undefined {
  const where = `${ENVIRONMENTS_SETTING}[${index}]`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push(l10n.t('{0} is ignored: it is not an object.', where));
    return undefined;
  }
  const entry = raw as Record<string, unknown>;
  const nameProblem = checkEnvironmentName(entry.name, taken);
  if (nameProblem) {
    problems.push(l10n.t('{0} is ignored: {1}.', where, nameProblem));
    return undefined;
  }
  const name = (entry.name as string).trim();
  const usable: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) {
    const check = FIELD_CHECKS[key];
    if (!check) problems.push(l10n.t('Environment "{0}": the field "{1}" is unknown and ignored.', name, key));
    else if (!check(value)) problems.push(l10n.t('Environment "{0}": "{1}" must be {2}; the default is used.', name, key, FIELD_EXPECTATION[key]()));
    else usable[key] = value;
  }
  if (usable.allowedHosts) {
    usable.allowedHosts = withoutPublicSuffixes(usable.allowedHosts as string[], l10n.t('the allowedHosts of environment "{0}"', name), problems);
  }
  const id = environmentId(name);
  taken.add(id);
  const overrides = (Object.keys(usable) as Array<keyof EnvironmentSettings | 'name' | 'protected'>).filter(
    (key): key is keyof EnvironmentSettings => key !== 'name' && key !== 'protected',
  );
  return { id, name, isDefault: false, protected: usable.protected === true, settings: overlay(defaults, usable), overrides };
}

/**
 * The environments in force: the default (the top-level settings) and every usable entry of
 * tenantApi.environments. A bad entry or field, and an allowed host that is a public suffix (in the
 * top-level setting too), is reported and skipped; nothing here throws.
 */
export function parseEnvironments(raw: unknown, topLevel: EnvironmentSettings): EnvironmentList {
  const problems: string[] = [];
  const defaults = { ...topLevel, allowedHosts: withoutPublicSuffixes(topLevel.allowedHosts, 'tenantApi.allowedHosts', problems) };
  const defaultEnvironment: Environment = {
    id: DEFAULT_ENVIRONMENT_ID,
    name: l10n.t('Default'),
    isDefault: true,
    protected: false,
    settings: cleanSettings({ ...defaults, scopes: [...defaults.scopes], allowedHosts: [...defaults.allowedHosts], variables: { ...defaults.variables } }),
    overrides: [],
  };
  const environments = [defaultEnvironment];
  if (raw !== undefined && raw !== null && !Array.isArray(raw)) {
    problems.push(l10n.t('{0} must be a list of environments; it is ignored.', ENVIRONMENTS_SETTING));
  } else if (Array.isArray(raw)) {
    const taken = new Set<string>();
    raw.forEach((entry, index) => {
      const environment = parseEntry(entry, index, defaults, taken, problems);
      if (environment) environments.push(environment);
    });
  }
  return { environments, problems };
}

/** Whether the default environment points anywhere (it is empty when every installation is a named environment). */
export function isConfigured(environment: Environment): boolean {
  return environment.settings.authUrl !== '' || environment.settings.baseUrl !== '';
}

/**
 * Which environment is active: the one saved (if it still exists), else the default when it is
 * configured, else the first named one (`npm start` defines only "Sandbox"), else the default.
 */
export function chooseActiveEnvironment(environments: readonly Environment[], savedId: string | undefined): Environment {
  const saved = savedId === undefined ? undefined : environments.find((environment) => environment.id === savedId);
  if (saved) return saved;
  const fallback = environments[0];
  if (isConfigured(fallback)) return fallback;
  return environments.find((environment) => !environment.isDefault) ?? fallback;
}

/**
 * The application an environment's calls count against (spec 8: the limits are per application):
 * its authorization server and client id. Two environments with the same key share one scheduler.
 */
export function applicationKey(settings: Pick<EnvironmentSettings, 'authUrl' | 'clientId'>): string {
  let authUrl = settings.authUrl.trim().replace(/\/+$/, '');
  try {
    const url = new URL(authUrl);
    authUrl = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    authUrl = authUrl.toLowerCase();
  }
  return `${authUrl}\n${settings.clientId.trim()}`;
}

/** The authorization server and client id an applicationKey was made of. */
export function applicationOf(key: string): { authUrl: string; clientId: string } {
  const [authUrl = '', clientId = ''] = key.split('\n');
  return { authUrl, clientId };
}

/** Whether two environments' calls count against the same application (and share its rate limit). */
export function sameApplication(a: Environment, b: Environment): boolean {
  return applicationKey(a.settings) === applicationKey(b.settings);
}
