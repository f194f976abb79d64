import type { Clock } from '../common/clock';
import * as l10n from '../common/l10n';
import { isSignInRequired } from '../common/signInRequired';
import { ApiError, apiErrors } from './errors';
import type { AccessTokenSource, ApiErrorDetails } from './types';

/** A call that waited this long for its slot takes the token again (it may have been refreshed meanwhile). */
const LONG_WAIT_MS = 30_000;

/** The access token one call sends, refreshed at most as the retry policy says. */
export class CallToken {
  private value = '';
  private takenAt = 0;

  constructor(
    private readonly source: AccessTokenSource,
    private readonly clock: Clock,
  ) {}

  async take(details: ApiErrorDetails): Promise<void> {
    this.value = await accessToken(this.source, false, details);
    this.takenAt = this.clock.monotonic();
  }

  /** The token to send now. */
  async forSend(details: ApiErrorDetails): Promise<string> {
    if (this.clock.monotonic() - this.takenAt > LONG_WAIT_MS) await this.take(details);
    return this.value;
  }

  async refresh(details: ApiErrorDetails): Promise<void> {
    this.value = await accessToken(this.source, true, details);
    this.takenAt = this.clock.monotonic();
  }
}

/** The token from the source, or an ApiError a person understands (sign in, or sign in again). */
export async function accessToken(source: AccessTokenSource, forceRefresh: boolean, details: ApiErrorDetails): Promise<string> {
  try {
    return await source.getAccessToken(forceRefresh ? { forceRefresh: true } : undefined);
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
