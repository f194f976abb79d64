/**
 * What the end of a request means for the user, as plain data: one summary line, whether to show it,
 * what they can do next, and what the resource shows in the Tenants view. No `vscode` here: the
 * request runner only shows what this decides. OUTCOMES is the one map from error kind to action.
 */
import { isApiError, type ApiError } from '../api/errors';
import type { ApiErrorKind, ApiResponse } from '../api/types';
import * as l10n from '../common/l10n';
import type { NodeAction, ResourceProblem } from '../views/tenantTreeModel';

/** Runs the fix a resource's problem names, then opens the resource again (registered by the request commands). */
export const FIX_RESOURCE_COMMAND = 'tenantApi.internal.fixResource';

/** Arguments of FIX_RESOURCE_COMMAND: run the fix, then open the resource again. */
export interface FixResourceArgs {
  tenantId: string;
  method: string;
  path: string;
  fix: string;
  fixArgs: unknown[];
}

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

export interface RequestOutcome {
  ok: boolean;
  /** 'response' when the client returned an answer; otherwise the error's kind ('unknown' for any other error). */
  kind: 'response' | ApiErrorKind | 'unknown';
  /** One line for people: the status of an answer, or what went wrong. */
  summary: string;
  /** Show the summary as an error notification, with the actions as its buttons. */
  notify: boolean;
  actions: NextAction[];
  /** For a resource opened from the Tenants view: mark it with this problem, clear its mark, or leave it. */
  treeProblem: { set: ResourceProblem } | 'clear' | 'keep';
}

/** The request as far as the outcome depends on it. */
export interface OutcomeRequest {
  method: string;
  path: string;
  tenantId?: string;
  /** The response opens in a tab (false for scripted calls that only want the summary). */
  preview: boolean;
}

const action = {
  signIn: (): NextAction => ({ label: l10n.t('Sign In'), command: 'tenantApi.signIn', args: [], resendAfter: true }),
  setLicenceKey: (module: string | undefined): NextAction => ({
    label: l10n.t('Set Licence Key'),
    command: 'tenantApi.setLicenceKey',
    args: module ? [module] : [],
    resendAfter: true,
  }),
  resumeCalls: (organization: string | undefined): NextAction => ({
    label: l10n.t('Resume Calls'),
    command: 'tenantApi.resumeOrganization',
    args: organization ? [organization] : [],
    resendAfter: true,
  }),
  showUsage: (): NextAction => ({ label: l10n.t('Show API Usage'), command: 'tenantApi.showQuota', args: [] }),
  sendAnyway: (): NextAction => ({ label: l10n.t('Send Anyway'), resend: { sendOverQuota: true } }),
  retry: (): NextAction => ({ label: l10n.t('Retry'), resend: {} }),
  openSettings: (query: string): NextAction => ({ label: l10n.t('Open Settings'), command: 'workbench.action.openSettings', args: [query] }),
};

interface OutcomeRow {
  why: string;
  /** The notification's buttons, in order. */
  actions(error: ApiError): NextAction[];
  /** Shown on the resource in the Tenants view; `action` is the index of the button the item runs. */
  tree?: { message(error: ApiError): string; action: number; reopen: boolean };
  /** No notification at all. */
  silent?(error: ApiError, request: OutcomeRequest): boolean;
}

const licenceRow = (why: string, message: () => string): OutcomeRow => ({
  why,
  actions: (error) => [action.setLicenceKey(error.details.module)],
  tree: { message, action: 0, reopen: true },
});

/** Every error kind, what it offers and why. */
export const OUTCOMES: { readonly [K in ApiErrorKind]: OutcomeRow } = {
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
    actions: (error) => [action.resumeCalls(error.details.organization), action.showUsage()],
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
  rateLimit: { why: 'the limit frees up within a minute', actions: () => [action.retry()] },
  network: { why: 'the server may be back in a moment', actions: () => [action.retry()] },
  timeout: { why: 'a slow answer may come quicker next time', actions: () => [action.retry()] },
  queueFull: { why: 'the queue drains at the rate limit', actions: () => [action.retry()] },
  tenant: { why: 'the tenant must be chosen again; the message says how', actions: () => [] },
  cancelled: { why: 'the user cancelled: nothing to say', actions: () => [], silent: () => true },
  http: {
    why: 'the server answered: its answer says what went wrong, and the response tab shows it when one opens',
    actions: () => [],
    silent: (error, request) => request.preview && (error.details.response !== undefined || error.details.bodyText !== undefined),
  },
};

export function outcomeOfResponse(response: ApiResponse): RequestOutcome {
  return {
    ok: response.status < 400,
    kind: 'response',
    summary: `${response.status} ${response.statusText}`.trim(),
    notify: false,
    actions: [],
    treeProblem: 'clear',
  };
}

export function outcomeOfError(error: unknown, request: OutcomeRequest): RequestOutcome {
  const summary = error instanceof Error ? error.message : String(error);
  if (!isApiError(error)) return { ok: false, kind: 'unknown', summary, notify: true, actions: [], treeProblem: 'keep' };
  const row = OUTCOMES[error.kind];
  const actions = row.actions(error);
  return {
    ok: false,
    kind: error.kind,
    summary,
    notify: !row.silent?.(error, request),
    actions,
    treeProblem: treeProblemOf(row, error, actions, request),
  };
}

function treeProblemOf(row: OutcomeRow, error: ApiError, actions: NextAction[], request: OutcomeRequest): RequestOutcome['treeProblem'] {
  const chosen = row.tree ? actions[row.tree.action] : undefined;
  if (!row.tree || !chosen || !('command' in chosen) || !request.tenantId) return 'keep';
  const command: NodeAction = { command: chosen.command, title: chosen.label, args: chosen.args };
  if (!row.tree.reopen) return { set: { message: row.tree.message(error), action: command } };
  const fix: FixResourceArgs = { tenantId: request.tenantId, method: request.method, path: request.path, fix: chosen.command, fixArgs: chosen.args };
  return { set: { message: row.tree.message(error), action: { command: FIX_RESOURCE_COMMAND, title: chosen.label, args: [fix] } } };
}

/**
 * The buttons of a failure's notification: the outcome's actions, then Re-run when none of them sends
 * the request again (a failed request is always one click from being sent again).
 */
export function notificationActions(outcome: RequestOutcome): NextAction[] {
  const resends = outcome.actions.some((next) => 'resend' in next || next.resendAfter === true);
  return resends ? outcome.actions : [...outcome.actions, { label: l10n.t('Re-run'), resend: {} }];
}
