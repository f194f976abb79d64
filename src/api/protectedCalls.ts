import * as l10n from '../common/l10n';

/** What the protected-environment rule needs to know of an environment. */
export interface CallTarget {
  name: string;
  protected: boolean;
}

/**
 * The question before a call: its title and detail name the environment and the call; the call goes
 * only once the user has typed the environment's name (`expected`).
 */
export interface CallConfirmation {
  message: string;
  detail: string;
  /** What the user types to send: the environment's name. */
  expected: string;
  /** Shown under the box while what is typed is not the name. */
  typeToSend: string;
}

/**
 * A protected environment (production) asks before every call that is not a GET: writes there are
 * real, and one confirmation per call is the price. GETs read only, so they never ask (the tree would
 * otherwise ask at every refresh). HEAD and OPTIONS ask too: the rule is "not a GET", kept literal so
 * nobody has to remember a list of exceptions. Undefined: send without asking.
 *
 * The answer is the environment's name typed, not a button. A dialog's focused default is the
 * confirming button on every platform VS Code runs on (the API cannot make Cancel the default), so an
 * Enter too many from the step before sent the write. Typing the name is what GitHub (deleting a
 * repository), the Azure portal (deleting a resource group) and Terraform ("yes" before apply) ask
 * for an action that cannot be undone: an Enter that falls through lands in an empty box and sends
 * nothing, and the name typed is the moment the user reads which environment this is.
 */
export function confirmationFor(target: CallTarget, method: string, url: string): CallConfirmation | undefined {
  const verb = method.trim().toUpperCase();
  if (!target.protected || verb === 'GET') return undefined;
  return {
    message: l10n.t('Send {0} to the protected environment "{1}"?', verb, target.name),
    detail: l10n.t('{0} {1}\n\n"{2}" is marked protected: every call that is not a GET is confirmed first.', verb, url, target.name),
    expected: target.name,
    typeToSend: l10n.t('Type "{0}" to send the {1}, or press Escape to cancel it.', target.name, verb),
  };
}

/** Whether what the user typed confirms the call: the environment's name, spaces around and case aside. */
export function confirms(confirmation: Pick<CallConfirmation, 'expected'>, typed: string | undefined): boolean {
  return typed !== undefined && typed.trim().toLocaleLowerCase() === confirmation.expected.trim().toLocaleLowerCase();
}
