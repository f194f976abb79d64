import * as l10n from '../common/l10n';
import { redact } from '../common/redact';
import type { ApiErrorDetails, ApiErrorKind, RateLimitUnit } from './types';

/**
 * The one error every API call ends with when it does not return a response.
 * `message` is for people (localized, never a secret); `details` is for developers and logs.
 * A server may echo a token or key in its message: the message and the server's words in `details`
 * are redacted here, the one place every error passes, before any notification or log sees them.
 * (`details.response` stays as received: the response tab shows its body, and redacts its header block.)
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly details: ApiErrorDetails;
  /**
   * What a notification says when its button fixes the cause and the request then goes by itself (Sign
   * In, Set Licence Key, Resume Calls): the message names the command to run and asks to try again,
   * which the button makes needless.
   */
  readonly notice?: string;

  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    details: ApiErrorDetails = {},
    notice?: string,
  ) {
    super(redact(message));
    this.details = redactDetails(details);
    if (notice !== undefined) this.notice = redact(notice);
  }

  /** One line for the log: kind, status, method and URL (URLs we build carry no secrets). */
  describe(): string {
    const d = this.details;
    const parts = [`[${this.kind}]`, this.message];
    if (d.method || d.url) parts.push(`(${d.method ?? ''} ${d.url ?? ''})`.replace('( ', '('));
    if (d.status !== undefined) parts.push(`status ${d.status}`);
    if (d.serverError) parts.push(`server error ${d.serverError}`);
    if (d.attempts !== undefined) parts.push(`attempts ${d.attempts}`);
    return parts.join(' ');
  }
}

function redactDetails(details: ApiErrorDetails): ApiErrorDetails {
  const result = { ...details };
  for (const field of ['serverMessage', 'serverError', 'bodyText', 'host', 'module'] as const) {
    const value = result[field];
    if (typeof value === 'string') result[field] = redact(value);
  }
  return result;
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

function unitName(unit: RateLimitUnit): string {
  switch (unit) {
    case 'second':
      return l10n.t('per-second');
    case 'minute':
      return l10n.t('per-minute');
    case 'week':
      return l10n.t('weekly');
  }
}

/** Constructors for every kind, so the wording lives in one place. */
export const apiErrors = {
  signInRequired: (details: ApiErrorDetails = {}) =>
    new ApiError(
      'auth',
      l10n.t('You are not signed in to the Tenant API. Sign in and try again.'),
      details,
      l10n.t('You are not signed in to the Tenant API. Sign in: the request goes as soon as you are.'),
    ),

  unauthorizedAfterRefresh: (details: ApiErrorDetails) =>
    new ApiError(
      'auth',
      l10n.t('The server still refused your sign-in after it was refreshed. Sign in again.'),
      details,
      l10n.t('The server still refused your sign-in after it was refreshed. Sign in again: the request goes as soon as you are.'),
    ),

  /** `message`: the front end's own sentence (the runner names the variable to set; a tenant no key covers is named). */
  licenceMissing: (module: string, details: ApiErrorDetails = {}, message?: string) =>
    new ApiError(
      'licenceMissing',
      message ?? l10n.t('No licence key is set for the module "{0}". Set one with "Tenant API: Set Licence Key".', module),
      { ...details, module },
      l10n.t('No licence key is set for the module "{0}". Set one: the request goes as soon as it is set.', module),
    ),

  licenceWrongModule: (expectedModule: string, details: ApiErrorDetails) =>
    new ApiError(
      'licenceWrongModule',
      l10n.t(
        'The server refused the licence key: it belongs to another module, and this path needs a key of the module "{0}". Set the right key with "Tenant API: Set Licence Key".',
        expectedModule,
      ),
      { ...details, module: expectedModule },
      l10n.t('The server refused the licence key: it belongs to another module, and this path needs a key of the module "{0}". Set the right key: the request goes again as soon as it is set.', expectedModule),
    ),

  licenceUnknown: (module: string | undefined, details: ApiErrorDetails) =>
    new ApiError(
      'licenceUnknown',
      module
        ? l10n.t('The server does not know the licence key set for the module "{0}". Check it and set it again.', module)
        : l10n.t('The server does not know the licence key. Check it and set it again.'),
      { ...details, module },
      module
        ? l10n.t('The server does not know the licence key set for the module "{0}". Set the right one: the request goes again as soon as it is set.', module)
        : l10n.t('The server does not know the licence key. Set the right one: the request goes again as soon as it is set.'),
    ),

  rateLimit: (unit: RateLimitUnit, details: ApiErrorDetails) =>
    new ApiError(
      'rateLimit',
      l10n.t('The {0} request limit of the application was exceeded, and retrying did not help. Try again shortly.', unitName(unit)),
      { ...details, unit },
    ),

  notRetriedAfterRateLimit: (unit: RateLimitUnit, details: ApiErrorDetails) =>
    new ApiError(
      'rateLimit',
      l10n.t(
        'The {0} request limit was exceeded. A {1} request is not sent again automatically, because sending it twice could repeat its effect; send it again when you are sure.',
        unitName(unit),
        details.method ?? '',
      ),
      { ...details, unit },
    ),

  weeklyQuota: (organization: string, details: ApiErrorDetails) =>
    new ApiError(
      'weeklyQuota',
      l10n.t(
        'The weekly request limit of the organization "{0}" is used up. Its calls are stopped until you resume them ("Tenant API: Resume Calls for an Organization").',
        organization,
      ),
      { ...details, organization, unit: 'week' },
    ),

  organizationStopped: (organization: string, details: ApiErrorDetails = {}) =>
    new ApiError(
      'weeklyQuota',
      l10n.t(
        'Calls for the organization "{0}" are stopped because its weekly limit was reached. Resume them with "Tenant API: Resume Calls for an Organization".',
        organization,
      ),
      { ...details, organization, unit: 'week' },
      l10n.t('Calls for the organization "{0}" are stopped because its weekly limit was reached. Resume them: the request goes as soon as they are.', organization),
    ),

  quotaReached: (organization: string, used: number, limit: number, details: ApiErrorDetails = {}) =>
    new ApiError(
      'quotaReached',
      l10n.t(
        'Not sent: the organization "{0}" has used {1} of its {2} weekly requests. You can choose to send it anyway.',
        organization,
        used,
        limit,
      ),
      { ...details, organization },
    ),

  tenantRequired: (path: string, details: ApiErrorDetails = {}) =>
    new ApiError('tenant', l10n.t('The path {0} belongs to a tenant: choose a tenant first.', path), details),

  tenantUnusable: (tenantName: string, reason: string, details: ApiErrorDetails = {}) =>
    new ApiError('tenant', l10n.t('The tenant "{0}" cannot be called: {1}', tenantName, reason), details),

  tenantRefused: (serverMessage: string, details: ApiErrorDetails) =>
    new ApiError('tenant', l10n.t('The server refused the tenant: {0}', serverMessage), details),

  hostNotAllowed: (reason: string, details: ApiErrorDetails) =>
    new ApiError(
      'hostValidation',
      l10n.t('Not sent: {0} Your sign-in and licence keys are only sent to allowed hosts (setting tenantApi.allowedHosts).', reason),
      details,
    ),

  redirectNotFollowed: (reason: string, details: ApiErrorDetails) =>
    new ApiError('hostValidation', l10n.t('The server redirected the call elsewhere and it was not followed: {0}', reason), details),

  /** `sentence` is connectionProblems' problemSentence: it names the proxy and what to do. */
  proxy: (sentence: string, details: ApiErrorDetails) => new ApiError('proxy', sentence, details),

  certificate: (sentence: string, details: ApiErrorDetails) => new ApiError('certificate', sentence, details),

  network: (reason: string, details: ApiErrorDetails) =>
    new ApiError('network', l10n.t('The server could not be reached: {0}', reason), details),

  timeout: (seconds: number, details: ApiErrorDetails) =>
    new ApiError(
      'timeout',
      l10n.byCount(
        seconds,
        l10n.t('The call took longer than {0} second and was stopped.', seconds),
        l10n.t('The call took longer than {0} seconds and was stopped.', seconds),
      ),
      details,
    ),

  timeoutNotRetried: (seconds: number, method: string, details: ApiErrorDetails) =>
    new ApiError(
      'timeout',
      l10n.byCount(
        seconds,
        l10n.t('The call took longer than {0} second and was stopped. A {1} request is not sent again automatically: check whether it took effect.', seconds, method),
        l10n.t('The call took longer than {0} seconds and was stopped. A {1} request is not sent again automatically: check whether it took effect.', seconds, method),
      ),
      details,
    ),

  cancelled: (details: ApiErrorDetails = {}) => new ApiError('cancelled', l10n.t('The call was cancelled.'), details),

  notConfirmed: (environment: string, details: ApiErrorDetails = {}) =>
    new ApiError('cancelled', l10n.t('Not sent: the call to the protected environment "{0}" was not confirmed.', environment), details),

  queueFull: (maxLength: number, details: ApiErrorDetails = {}) =>
    new ApiError(
      'queueFull',
      l10n.t('Too many calls are already waiting for the request limit ({0}). Wait for some to finish and try again.', maxLength),
      details,
    ),

  http: (status: number, statusText: string, serverMessage: string | undefined, details: ApiErrorDetails) =>
    new ApiError(
      'http',
      serverMessage
        ? l10n.t('The server answered {0} {1}: {2}', status, statusText, serverMessage)
        : l10n.t('The server answered {0} {1}.', status, statusText),
      { ...details, status },
    ),

  invalidRequest: (reason: string, details: ApiErrorDetails = {}) =>
    new ApiError('invalidRequest', l10n.t('The request is not valid: {0}', reason), details),
};
