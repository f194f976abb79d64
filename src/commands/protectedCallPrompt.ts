import { AsyncLocalStorage } from 'node:async_hooks';
import * as vscode from 'vscode';
import { apiErrors } from '../api/errors';
import { confirmationFor, confirms, type CallConfirmation } from '../api/protectedCalls';
import * as l10n from '../common/l10n';
import type { Environment } from '../settings/environments';

/**
 * The environment whose calls a run confirmed once (a test run asks before its first call that is not
 * a GET, not before each): carried along the run's own calls only, so a Send from elsewhere meanwhile
 * still asks.
 */
const confirmedRun = new AsyncLocalStorage<string>();

/** Runs `run` with every call to the environment `environmentId` already confirmed. */
export function withConfirmedCalls<T>(environmentId: string, run: () => Promise<T>): Promise<T> {
  return confirmedRun.run(environmentId, run);
}

/** The input box where the user types the environment's name to send; true when they did. */
async function askToSend(question: CallConfirmation, prompt = question.detail.replace(/\n+/g, ' ')): Promise<boolean> {
  const typed = await vscode.window.showInputBox({
    title: question.message,
    prompt,
    placeHolder: question.expected,
    ignoreFocusOut: true,
    validateInput: (value) => (confirms(question, value) ? undefined : question.typeToSend),
  });
  return confirms(question, typed);
}

/**
 * The API client's beforeSend for one environment: when it is protected, before every call that is
 * not a GET, an input box (the environment named in its title) where the user types the
 * environment's name to send. Enter on anything else does nothing; Escape (or closing it) cancels,
 * the call fails and nothing is sent. See confirmationFor for why a typed name and not a button.
 */
export function protectedCallPrompt(environment: () => Environment): (call: { method: string; url: string }) => Promise<void> {
  return async ({ method, url }) => {
    const question = confirmationFor(environment(), method, url);
    if (!question || confirmedRun.getStore() === environment().id) return;
    if (!(await askToSend(question))) throw apiErrors.notConfirmed(environment().name, { method, url });
  };
}

/**
 * Once for a whole run (a test run): the same question about the run's first call that is not a GET,
 * saying how many such calls the run makes. True to run them (inside withConfirmedCalls); true without
 * asking when the environment is not protected or the run makes none.
 */
export async function confirmProtectedRun(environment: Environment, writes: ReadonlyArray<{ method: string; url: string }>): Promise<boolean> {
  const first = writes[0];
  const question = first && confirmationFor(environment, first.method, first.url);
  if (!question) return true;
  const prompt = l10n.byCount(
    writes.length,
    l10n.t('This run makes one call that is not a GET, {0} {1}: you are asked once for the whole run.', first.method, first.url),
    l10n.t('This run makes {0} calls that are not a GET, the first {1} {2}: you are asked once for all of them.', writes.length, first.method, first.url),
  );
  return askToSend(question, prompt);
}
