/** What the rest of the extension sees of sign-in: the signed-in accounts and their tokens (src/auth implements it). */
import type { Event } from './event';

/** A signed-in user, as the rest of the extension sees it (no secrets here). */
export interface AccountInfo {
  /** The id_token / userinfo `sub`. */
  id: string;
  /** Display name: userinfo `name`, else the id_token's name, else `sub`. */
  label: string;
  /** userinfo `role` claim, kept for display. */
  roles: string[];
}

/** Used by the API client (src/api) to put `Authorization: Bearer <token>` on every call. */
export interface AccessTokenSource {
  /**
   * A valid access token for the active account (or `accountId`), refreshed first when it expires
   * within the configured skew. Pass `forceRefresh` after a 401. Concurrent callers share one refresh.
   * Throws SignInRequiredError (src/auth/errors.ts) when there is no session or the refresh was refused;
   * a network failure during refresh throws TokenRefreshError (the session is kept).
   */
  getAccessToken(options?: { forceRefresh?: boolean; accountId?: string }): Promise<string>;
}

/** Used by the sidebar and the status bar. */
export interface SessionState {
  /** Fires after sign-in, sign-out, a refused refresh, or a change made by another window. */
  readonly onDidChangeSessions: Event<void>;
  getAccounts(): Promise<AccountInfo[]>;
  /** The account API calls use: the one the user picked, else the first one; undefined when signed out. */
  activeAccount(): AccountInfo | undefined;
  /** Make `accountId` the account API calls use. */
  setActiveAccount(accountId: string): void;
}
