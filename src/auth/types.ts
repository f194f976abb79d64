// Below src/api and src/auth both (the client takes tokens, the tenant directory watches sessions): src/common/sessions.ts.
import type { AccessTokenSource, AccountInfo, SessionState } from '../common/sessions';
export type { AccessTokenSource, AccountInfo, SessionState };

/** Options of one sign-in (command tenantApi.signIn takes the same object as its argument). */
export interface SignInOptions {
  /** Sends acr_values=tenant:<tenantId>. */
  tenantId?: string;
  /** Pre-fills the sign-in form (login_hint). */
  loginHint?: string;
  /** Sends prompt=login (show the sign-in form even when the browser has a session). */
  forceLogin?: boolean;
}

/** What src/auth gives the rest of the extension (returned by registerAuthentication). */
export interface AuthenticationApi extends AccessTokenSource, SessionState {
  signIn(options?: SignInOptions): Promise<AccountInfo | undefined>;
  /** Signs out `accountId` (default: the active account): secrets deleted, refresh token revoked. */
  signOut(accountId?: string): Promise<void>;
}
