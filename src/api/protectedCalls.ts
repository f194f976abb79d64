import * as l10n from '../common/l10n';

/** What the protected-environment rule needs to know of an environment. */
export interface CallTarget {
  name: string;
  protected: boolean;
}

/** The modal question before a call: its text names the environment, its one button sends. */
export interface CallConfirmation {
  message: string;
  detail: string;
  send: string;
}

/**
 * A protected environment (production) asks before every call that is not a GET: writes there are
 * real, and one confirmation per call is the price. GETs read only, so they never ask (the tree would
 * otherwise ask at every refresh). HEAD and OPTIONS ask too: the rule is "not a GET", kept literal so
 * nobody has to remember a list of exceptions. Undefined: send without asking.
 */
export function confirmationFor(target: CallTarget, method: string, url: string): CallConfirmation | undefined {
  const verb = method.trim().toUpperCase();
  if (!target.protected || verb === 'GET') return undefined;
  return {
    message: l10n.t('Send {0} to the protected environment "{1}"?', verb, target.name),
    detail: l10n.t('{0} {1}\n\n"{2}" is marked protected: every call that is not a GET is confirmed first.', verb, url, target.name),
    send: l10n.t('Send to {0}', target.name),
  };
}
