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

/** The discovery document failed a safety check (wrong issuer, unsafe endpoint): nothing is sent to it. */
export class DiscoveryRejectedError extends Error {
  override readonly name = 'DiscoveryRejectedError';
}

/** The attempt was cancelled by the user. */
export class SignInCancelledError extends Error {
  override readonly name = 'SignInCancelledError';
  constructor() {
    super(l10n.t('Sign-in was cancelled.'));
  }
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
