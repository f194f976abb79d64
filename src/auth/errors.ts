import * as l10n from '../common/l10n';

/** No usable session: the user must sign in (again). The API client turns this into "sign in" actions. */
export class SignInRequiredError extends Error {
  override readonly name = 'SignInRequiredError';
  constructor(message = l10n.t('You are not signed in to Tenant API. Sign in and try again.')) {
    super(message);
  }
}

/** A refresh failed for a reason that does not end the session (network, server error): try again later. */
export class TokenRefreshError extends Error {
  override readonly name = 'TokenRefreshError';
  constructor(message: string, override readonly cause?: unknown) {
    super(message);
  }
}
