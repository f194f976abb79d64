import type { Clock } from '../common/clock';
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
    // A source that still hands out the refused token (its refresh not stored yet): use the refresh's.
    return (await this.replacement(token, details)) ?? token;
  }

  /** The refresh of `token` when it was refused (by any call), else undefined. */
  async replacement(token: string, details: ApiErrorDetails): Promise<string | undefined> {
    const known = this.lastRefresh;
    return known && token === known.refused ? mapTokenErrors(known.result, true, details) : undefined;
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

/** A call that waited this long since it took its token takes it again (it may have been refreshed meanwhile). */
const LONG_WAIT_MS = 30_000;

/**
 * The token one call sends: taken when it first leaves the queue; its later attempts (retries,
 * redirects) send the same one, unless it was refused meanwhile (then its refresh) or it was taken
 * long ago.
 */
export class CallToken {
  private sent: string | undefined;
  private takenAt = 0;
  private afterRefresh: string | undefined;

  constructor(
    private readonly shared: SharedAccessToken,
    private readonly clock: Clock,
  ) {}

  async forSend(details: ApiErrorDetails): Promise<string> {
    let token = this.afterRefresh;
    this.afterRefresh = undefined;
    if (token === undefined && this.sent !== undefined && this.clock.monotonic() - this.takenAt <= LONG_WAIT_MS) {
      token = (await this.shared.replacement(this.sent, details)) ?? this.sent;
    }
    if (token === undefined) {
      token = await this.shared.current(details);
      this.takenAt = this.clock.monotonic();
    }
    this.sent = token;
    return token;
  }

  async refresh(details: ApiErrorDetails): Promise<void> {
    this.afterRefresh = await this.shared.refreshed(this.sent ?? '', details);
    this.takenAt = this.clock.monotonic();
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
