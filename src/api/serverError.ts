import type { ApiResponse } from './types';

/** What the platform's JSON error body says (spec: `{ error, message }` plus fields per code). */
export interface ServerError {
  error?: string;
  message?: string;
  module?: string;
  limit?: string;
  retryAfterMs?: number;
}

/** The error fields of a response body; {} when the body is not a JSON object. */
export function serverError(response: Pick<ApiResponse, 'json'>): ServerError {
  const json = response.json as ServerError | undefined;
  if (!json || typeof json !== 'object' || Array.isArray(json)) return {};
  const pick = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const retryAfterMs = (json as { retryAfterMs?: unknown }).retryAfterMs;
  return {
    error: pick(json.error),
    message: pick(json.message),
    module: pick(json.module),
    limit: pick(json.limit),
    retryAfterMs: typeof retryAfterMs === 'number' && Number.isFinite(retryAfterMs) && retryAfterMs >= 0 ? retryAfterMs : undefined,
  };
}
