import type { Disposable } from '../common/event';
import type { SessionState } from '../common/sessions';

/** What a change of who is signed in acts on, in one environment. */
export interface SignInEffects {
  /** Forgets the static answers kept (ApiClient.clearCache). */
  clearCache(): void;
  /** Stops the watches (they send as the signed-in user). */
  stopWatches(): void;
  /** Resumes the environment's paused watches and starts its pinned ones. */
  resumeWatches(): void;
}

/**
 * The policy of sign-in and sign-out for the rest of an environment. Static answers are the signed-in
 * user's: another account, or none, starts with an empty cache (a switch of environment builds a new
 * client). A sign-out stops the watches; signed in (at start, again, or switched back), the paused ones go on and the pinned ones start.
 */
export function followSignIn(sessions: Pick<SessionState, 'activeAccount' | 'onDidChangeSessions' | 'getAccounts'>, effects: SignInEffects): Disposable {
  let signedInAs = sessions.activeAccount()?.id;
  const subscription = sessions.onDidChangeSessions(() => {
    const now = sessions.activeAccount()?.id;
    if (now !== signedInAs) effects.clearCache();
    if (signedInAs !== undefined && now === undefined) effects.stopWatches();
    if (signedInAs === undefined && now !== undefined) effects.resumeWatches();
    signedInAs = now;
  });
  void sessions.getAccounts().then((accounts) => accounts.length > 0 && effects.resumeWatches(), () => undefined);
  return subscription;
}
