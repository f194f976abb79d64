import * as l10n from '../common/l10n';
import { isSignInRequired } from '../common/signInRequired';
import { ApiError, apiErrors } from './errors';
import type { AccessTokenSource, ApiErrorDetails } from './types';

/**
 * The access token every call sends. A call takes it when it leaves the queue, not when it enters
 * (a call that waited behind a refused token would otherwise still send it), and a refused token is
 * refreshed once: every call that sent it gets the same refresh, and calls leaving while it runs wait
 * for it.
 */
export class SharedAccessToken {
  private lastRefresh: { refused: string; result: Promise<string> } | undefined;
  private refreshing: Promise<void> | undefined;

  constructor(private readonly source: AccessTokenSource) {}

  /** The token for a call that leaves the queue now. */
  async current(details: ApiErrorDetails): Promise<string> {
    if (this.refreshing) await this.refreshing;
    const token = await accessToken(this.source, false, details);
    const known = this.lastRefresh;
    // A source that still hands out the refused token (its refresh not stored yet): use the refresh's.
    return known && token === known.refused ? mapTokenErrors(known.result, true, details) : token;
  }

  /** After a 401 for `refused`: the one refresh of that token, shared by every call that sent it. */
  refreshed(refused: string, details: ApiErrorDetails): Promise<string> {
    if (this.lastRefresh?.refused !== refused) {
      const result = this.source.getAccessToken({ forceRefresh: true });
      const refresh = { refused, result };
      this.lastRefresh = refresh;
      const done = result.then(
        () => undefined,
        () => {
          // A failed refresh is not remembered: the next 401 may try again (after a new sign-in, say).
          if (this.lastRefresh === refresh) this.lastRefresh = undefined;
        },
      );
      this.refreshing = done;
      void done.then(() => {
        if (this.refreshing === done) this.refreshing = undefined;
      });
    }
    return mapTokenErrors(this.lastRefresh!.result, true, details);
  }
}

/** The token one call sends: taken as it leaves the queue, or the refresh after its 401. */
export class CallToken {
  private sent = '';
  private afterRefresh: string | undefined;

  constructor(private readonly shared: SharedAccessToken) {}

  async forSend(details: ApiErrorDetails): Promise<string> {
    const token = this.afterRefresh ?? (await this.shared.current(details));
    this.afterRefresh = undefined;
    this.sent = token;
    return token;
  }

  async refresh(details: ApiErrorDetails): Promise<void> {
    this.afterRefresh = await this.shared.refreshed(this.sent, details);
  }
}

/** The token from the source, or an ApiError a person understands (sign in, or sign in again). */
export function accessToken(source: AccessTokenSource, forceRefresh: boolean, details: ApiErrorDetails): Promise<string> {
  return mapTokenErrors(source.getAccessToken(forceRefresh ? { forceRefresh: true } : undefined), forceRefresh, details);
}

async function mapTokenErrors(token: Promise<string>, forceRefresh: boolean, details: ApiErrorDetails): Promise<string> {
  try {
    return await token;
  } catch (error) {
    if (isSignInRequired(error)) {
      throw forceRefresh ? apiErrors.unauthorizedAfterRefresh({ ...details, cause: error }) : apiErrors.signInRequired({ ...details, cause: error });
    }
    throw new ApiError('auth', l10n.t('Your sign-in could not be refreshed: {0}', (error as Error)?.message ?? String(error)), {
      ...details,
      cause: error,
    });
  }
}
