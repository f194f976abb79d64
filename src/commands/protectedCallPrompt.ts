import * as vscode from 'vscode';
import { apiErrors } from '../api/errors';
import { confirmationFor } from '../api/protectedCalls';
import type { Environment } from '../settings/environments';

/**
 * The API client's beforeSend for one environment: when it is protected, a modal question (its name
 * in the dialog) before every call that is not a GET; declined, the call fails and nothing is sent.
 */
export function protectedCallPrompt(environment: () => Environment): (call: { method: string; url: string }) => Promise<void> {
  return async ({ method, url }) => {
    const question = confirmationFor(environment(), method, url);
    if (!question) return;
    const choice = await vscode.window.showWarningMessage(question.message, { modal: true, detail: question.detail }, question.send);
    if (choice !== question.send) throw apiErrors.notConfirmed(environment().name, { method, url });
  };
}
