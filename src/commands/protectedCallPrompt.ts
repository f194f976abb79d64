import * as vscode from 'vscode';
import { apiErrors } from '../api/errors';
import { confirmationFor, confirms } from '../api/protectedCalls';
import type { Environment } from '../settings/environments';

/**
 * The API client's beforeSend for one environment: when it is protected, before every call that is
 * not a GET, an input box (the environment named in its title) where the user types the
 * environment's name to send. Enter on anything else does nothing; Escape (or closing it) cancels,
 * the call fails and nothing is sent. See confirmationFor for why a typed name and not a button.
 */
export function protectedCallPrompt(environment: () => Environment): (call: { method: string; url: string }) => Promise<void> {
  return async ({ method, url }) => {
    const question = confirmationFor(environment(), method, url);
    if (!question) return;
    const typed = await vscode.window.showInputBox({
      title: question.message,
      prompt: question.detail.replace(/\n+/g, ' '),
      placeHolder: question.expected,
      ignoreFocusOut: true,
      validateInput: (value) => (confirms(question, value) ? undefined : question.typeToSend),
    });
    if (!confirms(question, typed)) throw apiErrors.notConfirmed(environment().name, { method, url });
  };
}
