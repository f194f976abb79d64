import * as l10n from './l10n';

/**
 * Marks a SignInRequiredError across bundles: the extension and its in-editor tests are bundled
 * apart, so `instanceof` alone can fail for the same class; a registered symbol does not.
 */
const SIGN_IN_REQUIRED = Symbol.for('tenantApi.signInRequired');

/** No usable session: the user must sign in (again). The API client turns this into "sign in" actions. */
export class SignInRequiredError extends Error {
  override readonly name = 'SignInRequiredError';
  readonly [SIGN_IN_REQUIRED] = true;
  constructor(message = l10n.t('You are not signed in to Tenant API. Sign in and try again.')) {
    super(message);
  }
}

/** The typed test for "the user must sign in", for code that must not depend on src/auth. */
export function isSignInRequired(error: unknown): error is SignInRequiredError {
  return typeof error === 'object' && error !== null && (error as { [SIGN_IN_REQUIRED]?: unknown })[SIGN_IN_REQUIRED] === true;
}
