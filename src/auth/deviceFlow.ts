import type { Clock } from '../common/clock';
import * as l10n from '../common/l10n';
import type { Logger } from '../common/logger';
import { AuthNetworkError, OAuthError } from './oauthErrors';
import type { DeviceAuthorization, TokenClient, TokenResponse } from './tokenClient';

/** Waits `ms` on the clock; rejects with the signal's reason when it aborts. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clock.clearTimeout(handle);
      reject(signal?.reason);
    };
    const handle = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Polls the token endpoint for the device grant (RFC 8628 3.4/3.5): at the server's interval
 * (default 5 s), 5 s slower after each slow_down, until the code expires. A network failure is
 * retried at the next tick; any other error ends the attempt.
 */
export async function pollDeviceToken(
  client: TokenClient,
  authorization: DeviceAuthorization,
  context: { clock: Clock; logger: Logger; signal?: AbortSignal },
): Promise<TokenResponse> {
  const { clock, logger, signal } = context;
  let intervalMs = Math.max(1, authorization.interval ?? 5) * 1000;
  const deadline = clock.now() + authorization.expires_in * 1000;
  for (;;) {
    await sleep(clock, intervalMs, signal);
    if (clock.now() >= deadline) {
      throw new OAuthError('expired_token', l10n.t('The device code expired before sign-in was completed. Start again.'));
    }
    try {
      return await client.pollDeviceToken(authorization.device_code, signal);
    } catch (error) {
      if (error instanceof OAuthError && error.error === 'authorization_pending') continue;
      if (error instanceof OAuthError && error.error === 'slow_down') {
        intervalMs += 5000;
        logger.debug(`Device flow: slow_down, polling every ${intervalMs / 1000} s now.`);
        continue;
      }
      if (error instanceof AuthNetworkError) {
        logger.warn(`Device flow: polling failed, trying again: ${error.message}`);
        continue;
      }
      throw error;
    }
  }
}
