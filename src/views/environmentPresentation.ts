/**
 * What the environment status bar item and the Switch Environment quick pick show. No `vscode` here;
 * the status bar and the command map it.
 */
import * as path from 'node:path';
import * as l10n from '../common/l10n';
import { isConfigured, type Environment } from '../settings/environments';
import type { FileEnvironment } from '../settings/environmentFileSources';
import { looksSecret } from '../engine/variables';

export interface EnvironmentStatus {
  /** Shown only once the user has named environments: nothing changes for those who never add one. */
  visible: boolean;
  text: string;
  /** Markdown paragraphs. */
  tooltip: string[];
  /** A protected environment stands out (the warning background). */
  warning: boolean;
  accessibilityLabel: string;
}

export interface EnvironmentPickItem {
  /** Environment id. */
  id: string;
  label: string;
  description: string;
  detail: string;
  active: boolean;
}

const ICON = '$(server-environment)';
const PROTECTED_ICON = '$(shield)';

/** Escapes Markdown and theme-icon syntax in text the user wrote (names, addresses). */
export function markdownText(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>$~]/g, '\\$&');
}

/** `$(…)` in a label would be read as an icon: names are shown as written. */
function labelText(text: string): string {
  return text.replace(/\$\(/g, '$\u200b(');
}

function where(environment: Environment): string {
  const { baseUrl, authUrl } = environment.settings;
  return isConfigured(environment) ? baseUrl || authUrl : l10n.t('not configured');
}

export function presentEnvironment(active: Environment, environmentCount: number): EnvironmentStatus {
  const name = labelText(active.name);
  const { authUrl, baseUrl, clientId } = active.settings;
  const tooltip = [
    active.protected ? l10n.t('**Environment: {0}** (protected)', markdownText(active.name)) : l10n.t('**Environment: {0}**', markdownText(active.name)),
  ];
  if (active.protected) tooltip.push(l10n.t('Every call that is not a GET asks first.'));
  if (isConfigured(active)) {
    tooltip.push(l10n.t('API: {0}', markdownText(baseUrl || '—')), l10n.t('Sign-in: {0}, client {1}', markdownText(authUrl || '—'), markdownText(clientId)));
  } else {
    tooltip.push(l10n.t('Not configured: set tenantApi.authUrl and tenantApi.baseUrl, or pick another environment.'));
  }
  tooltip.push(l10n.t('Click to switch environment.'));
  return {
    visible: environmentCount > 1,
    text: `${active.protected ? PROTECTED_ICON : ICON} ${name}`,
    tooltip,
    warning: active.protected,
    accessibilityLabel: active.protected
      ? l10n.t('Tenant API environment: {0}, protected', active.name)
      : l10n.t('Tenant API environment: {0}', active.name),
  };
}

/** One variable of an environment for a request file's folder: where its value comes from, the value unless it is a secret. */
export interface VariableOriginItem {
  label: string;
  description: string;
  detail: string;
  secret: boolean;
}

const MASK = '••••••';

/**
 * The variables an environment gives request files in one folder, each with where it comes from: the
 * settings (tenantApi.environments), or an environment file (the private one and `.env` are secret).
 * `show` names a file (relative to the workspace).
 */
export function variableOriginItems(environment: Environment, files: FileEnvironment, show: (file: string) => string): VariableOriginItem[] {
  const items: VariableOriginItem[] = [];
  const value = (text: string, secret: boolean) => (secret ? l10n.t('{0} (secret, masked)', MASK) : text.length > 120 ? `${text.slice(0, 120)}…` : text || l10n.t('(empty)'));
  for (const [name, text] of Object.entries(environment.settings.variables)) {
    if (name in files.variables) continue;
    const secret = looksSecret(name);
    items.push({ label: name, description: l10n.t('settings: tenantApi.environments'), detail: value(text, secret), secret });
  }
  for (const [name, origin] of Object.entries(files.origins)) {
    const text = name.startsWith('$dotenv ') ? files.dotenv[name.slice('$dotenv '.length)] : files.variables[name];
    const secret = origin.secret || looksSecret(name);
    const overrides = !name.startsWith('$dotenv ') && name in environment.settings.variables ? ` · ${l10n.t('wins over the settings')}` : '';
    items.push({ label: name, description: `${show(origin.file)}${origin.secret ? ` · ${l10n.t('secret')}` : ''}${overrides}`, detail: value(text ?? '', secret), secret });
  }
  return items.sort((a, b) => a.label.localeCompare(b.label));
}

/** How many of an environment's variables come from where: `3 variables: 1 from settings, 2 from http-client.env.json`. */
export function variableSummary(items: readonly VariableOriginItem[]): string {
  if (items.length === 0) return l10n.t('no variables');
  const counts = new Map<string, number>();
  for (const item of items) {
    const where = item.description.startsWith(l10n.t('settings: tenantApi.environments')) ? l10n.t('settings') : path.basename(item.description.split(' · ')[0]);
    counts.set(where, (counts.get(where) ?? 0) + 1);
  }
  const parts = [...counts].map(([where, count]) => l10n.t('{0} from {1}', count, where));
  return l10n.byCount(items.length, l10n.t('1 variable: {0}', parts.join(', ')), l10n.t('{0} variables: {1}', items.length, parts.join(', ')));
}

export function environmentPickItems(environments: readonly Environment[], activeId: string, variables?: (environment: Environment) => readonly VariableOriginItem[]): EnvironmentPickItem[] {
  return environments.map((environment) => {
    const notes = [
      ...(environment.id === activeId ? [l10n.t('active')] : []),
      ...(environment.protected ? [l10n.t('protected')] : []),
      ...(environment.isDefault ? [l10n.t('top-level settings')] : []),
    ];
    return {
      id: environment.id,
      label: `${environment.protected ? PROTECTED_ICON : ICON} ${labelText(environment.name)}`,
      description: notes.join(' · '),
      detail: variables ? `${where(environment)} · ${variableSummary(variables(environment))}` : where(environment),
      active: environment.id === activeId,
    };
  });
}
