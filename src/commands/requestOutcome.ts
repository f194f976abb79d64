/**
 * What the end of a request means for the user, as plain data: one summary line, whether to show it,
 * what they can do next, and what the resource shows in the Tenants view. No `vscode` here: the
 * request runner only shows what this decides, from the one map of error kind to action (src/api/errorActions.ts).
 */
import { ERROR_ACTIONS, type ErrorActionRow, type NextAction } from '../api/errorActions';
import { isApiError, type ApiError } from '../api/errors';
import type { ApiErrorKind, ApiResponse } from '../api/types';
import { INTERNAL_COMMAND } from '../common/commandIds';
import * as l10n from '../common/l10n';
import type { NodeAction, ResourceProblem } from '../views/tenantTreeModel';

export type { NextAction };

/** Runs the fix a resource's problem names, then opens the resource again (registered by the request commands). */
export const FIX_RESOURCE_COMMAND = INTERNAL_COMMAND.fixResource;

/** Arguments of FIX_RESOURCE_COMMAND: run the fix, then open the resource again. */
export interface FixResourceArgs {
  tenantId: string;
  method: string;
  path: string;
  fix: string;
  fixArgs: unknown[];
}

export interface RequestOutcome {
  ok: boolean;
  /** 'response' when the client returned an answer; otherwise the error's kind ('unknown' for any other error). */
  kind: 'response' | ApiErrorKind | 'unknown';
  /** One line for people: the status of an answer, or what went wrong. */
  summary: string;
  /** The notification's words when one of its buttons fixes the cause and then sends again (ApiError.notice). */
  notice?: string;
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
  const row = ERROR_ACTIONS[error.kind];
  const actions = row.actions(error.details);
  return {
    ok: false,
    kind: error.kind,
    summary,
    ...(error.notice !== undefined ? { notice: error.notice } : {}),
    notify: !row.silent?.({ shown: request.preview, answered: error.details.response !== undefined || error.details.bodyText !== undefined }),
    actions,
    treeProblem: treeProblemOf(row, error, actions, request),
  };
}

function treeProblemOf(row: ErrorActionRow, error: ApiError, actions: NextAction[], request: OutcomeRequest): RequestOutcome['treeProblem'] {
  const chosen = row.tree ? actions[row.tree.action] : undefined;
  if (!row.tree || !chosen || !('command' in chosen) || !request.tenantId) return 'keep';
  const command: NodeAction = { command: chosen.command, title: chosen.label, args: chosen.args };
  if (!row.tree.reopen) return { set: { message: row.tree.message(), action: command } };
  const fix: FixResourceArgs = { tenantId: request.tenantId, method: request.method, path: request.path, fix: chosen.command, fixArgs: chosen.args };
  return { set: { message: row.tree.message(), action: { command: FIX_RESOURCE_COMMAND, title: chosen.label, args: [fix] } } };
}

/**
 * The buttons of a failure's notification: the outcome's actions, then Re-run when none of them sends
 * the request again (a failed request is always one click from being sent again).
 */
export function notificationActions(outcome: RequestOutcome): NextAction[] {
  const resends = outcome.actions.some((next) => 'resend' in next || next.resendAfter === true);
  return resends ? outcome.actions : [...outcome.actions, { label: l10n.t('Re-run'), resend: {} }];
}
