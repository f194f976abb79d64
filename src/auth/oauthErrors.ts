import * as l10n from '../common/l10n';
import { redact } from '../common/redact';

/**
 * An OAuth error response (RFC 6749 5.2 / 4.1.2.1): `error` and the server's `error_description`.
 * Both come from the server, which may echo a code or token: they are redacted before use.
 */
export class OAuthError extends Error {
  override readonly name = 'OAuthError';
  readonly error: string;
  readonly description: string | undefined;
  constructor(
    error: string,
    description: string | undefined,
    readonly status?: number,
  ) {
    const safeError = redact(error);
    const safeDescription = description === undefined ? undefined : redact(description);
    super(safeDescription ? l10n.t('Sign-in failed: {0} ({1})', safeDescription, safeError) : l10n.t('Sign-in failed: {0}', safeError));
    this.error = safeError;
    this.description = safeDescription;
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
    super(
      l10n.byCount(
        seconds,
        l10n.t('Sign-in timed out after {0} second without an answer from the browser.', seconds),
        l10n.t('Sign-in timed out after {0} seconds without an answer from the browser.', seconds),
      ),
    );
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
