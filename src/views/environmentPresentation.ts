/**
 * What the environment status bar item and the Switch Environment quick pick show. No `vscode` here;
 * the status bar and the command map it.
 */
import * as l10n from '../common/l10n';
import { isConfigured, type Environment } from '../settings/environments';

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

export function environmentPickItems(environments: readonly Environment[], activeId: string): EnvironmentPickItem[] {
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
      detail: where(environment),
      active: environment.id === activeId,
    };
  });
}
