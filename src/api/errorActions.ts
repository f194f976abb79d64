/**
 * The one map from error kind to what the user can do about it, as data: the buttons of a failed
 * request's notification, the one a tree item runs (a resource's problem, or the tenant listing that
 * failed), and why. No `vscode`: the request commands and the Tenants view both read it (views never
 * import src/commands, so it sits here, next to the error kinds).
 */
import { COMMAND, EDITOR_COMMAND } from '../common/commandIds';
import * as l10n from '../common/l10n';
import { connectionProblemOf } from './connectionProblems';
import type { ApiErrorDetails, ApiErrorKind } from './types';

/** What the user can do next: run a command, or send the same request again. */
export type NextAction =
  | {
      label: string;
      command: string;
      args: unknown[];
      /** The command fixes what stopped the request: when it reports success (a truthy result), send the same request again. */
      resendAfter?: boolean;
    }
  | { label: string; resend: { sendOverQuota?: boolean } };

/** The parts of an error's details that its actions name. */
export type ActionDetails = Pick<ApiErrorDetails, 'module' | 'organization'>;

const action = {
  signIn: (): NextAction => ({ label: l10n.t('Sign In'), command: COMMAND.signIn, args: [], resendAfter: true }),
  setLicenceKey: (module: string | undefined): NextAction => ({
    label: l10n.t('Set Licence Key'),
    command: COMMAND.setLicenceKey,
    args: module ? [module] : [],
    resendAfter: true,
  }),
  resumeCalls: (organization: string | undefined): NextAction => ({
    label: l10n.t('Resume Calls'),
    command: COMMAND.resumeOrganization,
    args: organization ? [organization] : [],
    resendAfter: true,
  }),
  showUsage: (): NextAction => ({ label: l10n.t('Show API Usage'), command: COMMAND.showQuota, args: [] }),
  sendAnyway: (): NextAction => ({ label: l10n.t('Send Anyway'), resend: { sendOverQuota: true } }),
  retry: (): NextAction => ({ label: l10n.t('Retry'), resend: {} }),
  openSettings: (query: string): NextAction => ({ label: l10n.t('Open Settings'), command: EDITOR_COMMAND.openSettings, args: [query] }),
};

export interface ErrorActionRow {
  why: string;
  /** The notification's buttons, in order. */
  actions(details: ActionDetails): NextAction[];
  /**
   * What a tree item shows and runs: `message` on a resource opened from the Tenants view, `action`
   * the index of the button the item runs (also for a tenant listing that failed with this kind),
   * `reopen` to open the resource again once that command succeeds.
   */
  tree?: { message(): string; action: number; reopen: boolean };
  /** No notification at all (`shown`: the response opens in a tab, `answered`: the server's answer came with it). */
  silent?(request: { shown: boolean; answered: boolean }): boolean;
}

const licenceRow = (why: string, message: () => string): ErrorActionRow => ({
  why,
  actions: (details) => [action.setLicenceKey(details.module)],
  tree: { message, action: 0, reopen: true },
});

/** Every error kind, what it offers and why. */
export const ERROR_ACTIONS: { readonly [K in ApiErrorKind]: ErrorActionRow } = {
  auth: {
    why: 'no session, or the server refused it after a refresh: only a new sign-in helps',
    actions: () => [action.signIn()],
    tree: { message: () => l10n.t('sign-in needed'), action: 0, reopen: true },
  },
  licenceMissing: licenceRow('the module has no key in this editor', () => l10n.t('licence key missing')),
  licenceWrongModule: licenceRow('the key set belongs to another module', () => l10n.t('licence key refused')),
  licenceUnknown: licenceRow('the server does not know the key set', () => l10n.t('licence key refused')),
  weeklyQuota: {
    why:
      'the organization is stopped until the user resumes it (the message says so); the tree item only shows the usage, ' +
      'whose list asks before resuming, so one click on a resource never lifts a stop',
    actions: (details) => [action.resumeCalls(details.organization), action.showUsage()],
    tree: { message: () => l10n.t('weekly quota reached'), action: 1, reopen: false },
  },
  quotaReached: {
    why: 'refused here from the last known usage: this one call can go anyway, which asks nothing of the organization',
    actions: () => [action.sendAnyway(), action.showUsage()],
    tree: { message: () => l10n.t('weekly quota reached'), action: 1, reopen: false },
  },
  hostValidation: {
    why: 'the host is outside tenantApi.allowedHosts: only the setting changes that',
    actions: () => [action.openSettings('tenantApi.allowedHosts')],
  },
  invalidRequest: {
    why: 'mostly a missing or malformed setting (no base URL, a bad route)',
    actions: () => [action.openSettings('tenantApi')],
  },
  proxy: {
    why: "the editor's fetch goes through the proxy of VS Code's network settings (http.proxy, else HTTPS_PROXY): only they change it",
    actions: () => [action.openSettings('http.proxy')],
  },
  certificate: {
    why: "the editor trusts the system's certificates (http.systemCertificates): a company's authority is added there, never by turning checks off",
    actions: () => [action.openSettings('http.systemCertificates')],
  },
  rateLimit: { why: 'the limit frees up within a minute', actions: () => [action.retry()] },
  network: { why: 'the server may be back in a moment', actions: () => [action.retry()] },
  timeout: { why: 'a slow answer may come quicker next time', actions: () => [action.retry()] },
  queueFull: { why: 'the queue drains at the rate limit', actions: () => [action.retry()] },
  tenant: { why: 'the tenant must be chosen again; the message says how', actions: () => [] },
  cancelled: { why: 'the user cancelled: nothing to say', actions: () => [], silent: () => true },
  http: {
    why: 'the server answered: its answer says what went wrong, and the response tab shows it when one opens',
    actions: () => [],
    silent: ({ shown, answered }) => shown && answered,
  },
};

/** The settings a sign-in that failed for a proxy or a certificate points to (the Open Settings of its kind's row). */
export function connectionSettingsQuery(error: unknown): string | undefined {
  const problem = connectionProblemOf(error);
  const open = problem && ERROR_ACTIONS[problem.errorKind].actions({}).find((next) => 'command' in next && next.command === EDITOR_COMMAND.openSettings);
  return open && 'args' in open ? String(open.args[0]) : undefined;
}

/** The row of a kind, or undefined for a kind this map does not know (an error from outside the client). */
export function errorActionRow(kind: string | undefined): ErrorActionRow | undefined {
  return kind !== undefined && Object.prototype.hasOwnProperty.call(ERROR_ACTIONS, kind) ? ERROR_ACTIONS[kind as ApiErrorKind] : undefined;
}

/** The command a tree item runs for an error of this kind (the row's tree action, else its first command), if any. */
export function treeCommandOf(kind: string | undefined, details: ActionDetails): Extract<NextAction, { command: string }> | undefined {
  const row = errorActionRow(kind);
  if (!row) return undefined;
  const actions = row.actions(details);
  const chosen = row.tree ? actions[row.tree.action] : actions.find((next) => 'command' in next);
  return chosen && 'command' in chosen ? chosen : undefined;
}
