import * as l10n from '../common/l10n';

/** An OAuth error response (RFC 6749 5.2 / 4.1.2.1): `error` and the server's `error_description`. */
export class OAuthError extends Error {
  override readonly name = 'OAuthError';
  constructor(
    readonly error: string,
    readonly description: string | undefined,
    readonly status?: number,
  ) {
    super(description ? l10n.t('Sign-in failed: {0} ({1})', description, error) : l10n.t('Sign-in failed: {0}', error));
  }
}

/** The server could not be reached or answered with something that is not OAuth. Never ends a session. */
export class AuthNetworkError extends Error {
  override readonly name = 'AuthNetworkError';
  constructor(message: string, override readonly cause?: unknown) {
    super(message);
  }
}

/** The attempt was cancelled by the user. */
export class SignInCancelledError extends Error {
  override readonly name = 'SignInCancelledError';
  constructor() {
    super(l10n.t('Sign-in was cancelled.'));
  }
}

/**
 * The user pressed Cancel (or Deny) on the sign-in page: the server redirected with access_denied.
 * A deliberate cancel, so no other flow is offered for it.
 */
export class SignInDeniedError extends SignInCancelledError {
  constructor() {
    super();
    // `name` is a literal type on SignInCancelledError, so it cannot be redeclared here.
    Object.defineProperty(this, 'name', { value: 'SignInDeniedError', configurable: true, writable: true });
    this.message = l10n.t('Sign-in was cancelled in the browser.');
  }
}

/** An OAuth error that says the user refused (RFC 6749 4.1.2.1 access_denied) becomes SignInDeniedError. */
export function asUserRefusal(error: unknown): unknown {
  return error instanceof OAuthError && error.error === 'access_denied' ? new SignInDeniedError() : error;
}

/** The attempt waited longer than tenantApi.signInTimeoutSeconds. */
export class SignInTimeoutError extends Error {
  override readonly name = 'SignInTimeoutError';
  constructor(readonly seconds: number) {
    super(l10n.t('Sign-in timed out after {0} seconds without an answer from the browser.', seconds));
  }
}

/** The id_token failed one check; `claim` says which. */
export class IdTokenError extends Error {
  override readonly name = 'IdTokenError';
  constructor(
    readonly claim: 'format' | 'iss' | 'aud' | 'azp' | 'exp' | 'iat' | 'nonce' | 'sub',
    message: string,
  ) {
    super(message);
  }
}
