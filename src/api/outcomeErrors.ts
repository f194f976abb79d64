import * as l10n from '../common/l10n';
import { ApiError, apiErrors } from './errors';
import type { GiveUpReason } from './retryPolicy';
import type { ServerError } from './serverError';
import type { ApiErrorDetails, ApiResponse, RateLimitUnit } from './types';

/** What the error of a call that gives up is made of. */
export interface GiveUpContext {
  details: ApiErrorDetails;
  method: string;
  timeoutMs: number;
  /** The transport's description of a failed exchange ("the connection was reset (ECONNRESET)"). */
  failureMessage?: string;
  response?: ApiResponse;
  server: ServerError;
  /** The licence module of the route. */
  module?: string;
  organization?: string;
  unit?: RateLimitUnit;
}

/** The ApiError for each reason the retry policy gives up: one constructor each (wording in errors.ts). */
export function giveUpError(reason: GiveUpReason, c: GiveUpContext): ApiError {
  const d = c.details;
  const http = () => apiErrors.http(c.response?.status ?? 0, c.response?.statusText ?? '', c.server.message, d);
  switch (reason) {
    case 'cancelled':
      return apiErrors.cancelled(d);
    case 'timeout':
      return apiErrors.timeout(c.timeoutMs / 1000, d);
    case 'timeoutNotRetried':
      return apiErrors.timeoutNotRetried(c.timeoutMs / 1000, c.method, d);
    case 'network':
      return apiErrors.network(c.failureMessage ?? '', d);
    case 'networkNotRetried':
      return apiErrors.network(
        l10n.t('{0}. A {1} request is not sent again automatically: check whether it took effect.', c.failureMessage ?? '', c.method),
        d,
      );
    case 'proxy':
      return apiErrors.proxy(c.failureMessage ?? '', d);
    case 'certificate':
      return apiErrors.certificate(c.failureMessage ?? '', d);
    case 'foreignAskedForCredentials':
      return apiErrors.redirectNotFollowed(l10n.t('the new host asked for credentials, which are not sent to it.'), d);
    case 'licenceMissing':
      return apiErrors.licenceMissing(c.module ?? '', d);
    case 'unauthorizedAfterRefresh':
      return apiErrors.unauthorizedAfterRefresh(d);
    case 'licenceWrongModule':
      return apiErrors.licenceWrongModule(c.server.module ?? c.module ?? '', d);
    case 'licenceUnknown':
      return apiErrors.licenceUnknown(c.module, d);
    case 'tenantRefused':
      return apiErrors.tenantRefused(c.server.message ?? c.server.error ?? '', d);
    case 'weeklyQuota':
      return apiErrors.weeklyQuota(c.organization ?? l10n.t('(unknown)'), d);
    case 'rateLimit':
      return apiErrors.rateLimit(c.unit ?? 'minute', d);
    case 'rateLimitNotRetried':
      return apiErrors.notRetriedAfterRateLimit(c.unit ?? 'minute', d);
    case 'http':
      return http();
  }
}
