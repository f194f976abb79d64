export { SignInRequiredError, isSignInRequired } from '../common/signInRequired';

/** A refresh failed for a reason that does not end the session (network, server error): try again later. */
export class TokenRefreshError extends Error {
  override readonly name = 'TokenRefreshError';
  constructor(message: string, override readonly cause?: unknown) {
    super(message);
  }
}
