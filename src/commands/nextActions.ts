/**
 * A failure's notification with its next actions (requestOutcome.ts decides them), for every front end
 * that sends: Send Request and request files offer the same buttons and send again the same way.
 */
import * as vscode from 'vscode';
import { notificationActions, type NextAction, type RequestOutcome } from './requestOutcome';

/** Shows the failure; a chosen fix that succeeds (signed in, key set, calls resumed), or Re-run, sends again through `resend`. */
export async function offerNextActions(outcome: RequestOutcome, resend: (overrides: { sendOverQuota?: boolean }) => Promise<unknown>): Promise<void> {
  const actions = notificationActions(outcome);
  // A button that fixes the cause sends again by itself: its notice says so instead of "try again".
  const fixesAndSends = actions.some((next) => 'command' in next && next.resendAfter === true);
  const chosen = await vscode.window.showErrorMessage(fixesAndSends ? (outcome.notice ?? outcome.summary) : outcome.summary, ...actions.map((next) => next.label));
  const next: NextAction | undefined = actions.find((candidate) => candidate.label === chosen);
  if (!next) return;
  if ('resend' in next) {
    await resend(next.resend);
    return;
  }
  const done = await vscode.commands.executeCommand(next.command, ...next.args);
  // Signed in, key set, calls resumed: the request that stopped goes now, without asking again.
  if (next.resendAfter && done) await resend({});
}
