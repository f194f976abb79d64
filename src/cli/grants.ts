/**
 * Sign-in without a browser: the client credentials grant (a connected app, no user), the password
 * grant (a test user) and the device code flow (a person at a terminal). Tokens stay in memory for the
 * run; a token about to expire, or refused with a 401, is replaced by signing in again the same way.
 */
import { pollDeviceToken } from '../auth/deviceFlow';
import { OAuthError } from '../auth/oauthErrors';
import type { TokenClient, TokenResponse } from '../auth/tokenClient';
import type { Clock } from '../common/clock';
import * as l10n from '../common/l10n';
import type { Logger } from '../common/logger';
import type { AccessTokenSource } from '../common/sessions';
import { SECRET_VARIABLES, type Credentials } from './credentials';
import type { GrantChoice } from './options';

export class SignInFailedError extends Error {}

/** Scopes a grant with no user cannot have (OpenID Connect's are about a user). */
const USER_SCOPES = new Set(['openid', 'profile', 'offline_access', 'email']);
const EXPIRY_SKEW_MS = 30_000;

/**
 * The grant asked for, else the password grant when a user name is set, else client credentials when
 * a client secret is set, else (a person at the terminal, nothing set) the device code flow: the
 * runner asks rather than fails. With nobody to ask, client credentials (whose error names the variable).
 */
export function chooseGrant(explicit: GrantChoice | undefined, credentials: Credentials, interactive = false): GrantChoice {
  if (explicit) return explicit;
  if (credentials.username) return 'password';
  return credentials.clientSecret || !interactive ? 'client_credentials' : 'device';
}

/** Whether a grant gives a user (and therefore tenants). */
export function grantHasUser(grant: GrantChoice): boolean {
  return grant !== 'client_credentials';
}

/** What is missing for the grant, as a sentence naming the variables; undefined when nothing is. */
export function missingCredentials(grant: GrantChoice, credentials: Credentials): string | undefined {
  const missing: string[] = [];
  if (grant === 'client_credentials' && !credentials.clientSecret) missing.push(SECRET_VARIABLES.clientSecret);
  if (grant === 'password') {
    if (!credentials.username) missing.push(SECRET_VARIABLES.username);
    if (!credentials.password) missing.push(SECRET_VARIABLES.password);
  }
  if (missing.length === 0) return undefined;
  return l10n.t('The {0} grant needs {1} (in the environment, or on standard input with --secret-stdin).', grant, missing.join(', '));
}

export interface GrantDeps {
  tokens: TokenClient;
  clock: Clock;
  logger: Logger;
  scopes: readonly string[];
  /** The device flow's instructions for the person at the terminal. */
  prompt(text: string): void;
}

function requestToken(grant: GrantChoice, credentials: Credentials, deps: GrantDeps): Promise<TokenResponse> {
  switch (grant) {
    case 'client_credentials':
      return deps.tokens.clientCredentials(deps.scopes.filter((scope) => !USER_SCOPES.has(scope)));
    case 'password':
      return deps.tokens.passwordGrant(credentials.username!, credentials.password!, deps.scopes);
    case 'device':
      return deviceToken(deps);
  }
}

async function deviceToken(deps: GrantDeps): Promise<TokenResponse> {
  const authorization = await deps.tokens.startDeviceAuthorization(deps.scopes);
  // Only the address and the code: the complete address carries the code as a parameter, which the output masks.
  deps.prompt(l10n.t('To sign in, open {0} and enter the code {1}', authorization.verification_uri, authorization.user_code));
  return pollDeviceToken(deps.tokens, authorization, { clock: deps.clock, logger: deps.logger });
}

/** What to check for the server's usual refusals. */
const HINTS: Record<string, () => string> = {
  invalid_client: () => l10n.t('Check {0} and {1}.', SECRET_VARIABLES.clientId, SECRET_VARIABLES.clientSecret),
  invalid_grant: () => l10n.t('Check {0} and {1}.', SECRET_VARIABLES.username, SECRET_VARIABLES.password),
  unauthorized_client: () => l10n.t('The client may not use this grant: check {0} and --grant.', SECRET_VARIABLES.clientId),
};

function failureText(grant: GrantChoice, error: unknown): string {
  if (error instanceof OAuthError) {
    const reason = error.description ? `${error.description} (${error.error})` : error.error;
    const hint = HINTS[error.error]?.();
    return l10n.t('Sign-in with the {0} grant failed: {1}', grant, hint ? `${reason}. ${hint}` : reason);
  }
  return l10n.t('Sign-in with the {0} grant failed: {1}', grant, error instanceof Error ? error.message : String(error));
}

/** Signs in once (throws SignInFailedError with the reason), then serves the token, signing in again when it runs out. */
export async function signIn(grant: GrantChoice, credentials: Credentials, deps: GrantDeps): Promise<AccessTokenSource & { readonly grant: GrantChoice }> {
  const missing = missingCredentials(grant, credentials);
  if (missing) throw new SignInFailedError(missing);
  const obtain = async () => {
    try {
      const response = await requestToken(grant, credentials, deps);
      return { token: response.access_token, expiresAt: deps.clock.now() + (response.expires_in ?? 300) * 1000 };
    } catch (error) {
      throw new SignInFailedError(failureText(grant, error), { cause: error });
    }
  };
  let current = await obtain();
  let renewing: Promise<typeof current> | undefined;
  // The device flow needs a person: it is not started again in the middle of a run.
  const renewable = grant !== 'device';
  return {
    grant,
    async getAccessToken(options?: { forceRefresh?: boolean }) {
      const stale = options?.forceRefresh || deps.clock.now() >= current.expiresAt - EXPIRY_SKEW_MS;
      if (stale && renewable) {
        renewing ??= obtain().finally(() => (renewing = undefined));
        current = await renewing;
      }
      return current.token;
    },
  };
}
