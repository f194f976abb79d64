import * as l10n from '../common/l10n';
import type { Logger } from '../common/logger';
import { apiErrors } from './errors';
import { checkAddressShape } from './hostValidation';
import type { ApiErrorDetails } from './types';

export const MAX_REDIRECTS = 5;

/** Where one attempt goes and with what. */
export interface Hop {
  method: string;
  url: URL;
  body?: string;
  /** false once a redirect left the origin: the token, key, tenant and the user's own headers are not sent from then on. */
  withCredentials: boolean;
}

/**
 * The hop a redirect leads to, or an ApiError saying why it is not followed. 303, and 301/302 after a
 * POST, become a GET without a body (RFC 9110 15.4); other statuses keep the method and body, which
 * is never sent on to another origin (the error says where it would have gone).
 */
export function nextHop(current: Hop, status: number, location: string, count: number, details: ApiErrorDetails, logger: Logger): Hop {
  if (count > MAX_REDIRECTS) throw apiErrors.redirectNotFollowed(l10n.t('more than {0} redirects.', MAX_REDIRECTS), details);
  let next: URL;
  try {
    next = new URL(location, current.url);
  } catch {
    throw apiErrors.redirectNotFollowed(l10n.t('the new address is not valid.'), details);
  }
  const shape = checkAddressShape(next.href);
  if (!shape.ok) throw apiErrors.redirectNotFollowed(shape.reason, { ...details, host: next.host });
  const sameOrigin = next.origin === current.url.origin;
  const becomesGet = status === 303 || ((status === 301 || status === 302) && current.method === 'POST');
  if (!sameOrigin && !becomesGet && current.body !== undefined) {
    // A 307/308 keeps the method and the body: what the user wrote for one host would go to another.
    throw apiErrors.redirectNotFollowed(
      l10n.t('a {0} request with a body is not sent on to another host ({1}). Send it there yourself if you trust that host.', current.method, next.href),
      { ...details, host: next.host, location: next.href },
    );
  }
  if (!sameOrigin) logger.warn(`Redirect from ${current.url.origin} to ${next.origin}: credentials and the request's own headers dropped`);
  return {
    method: becomesGet ? 'GET' : current.method,
    url: next,
    body: becomesGet ? undefined : current.body,
    withCredentials: current.withCredentials && sameOrigin,
  };
}
