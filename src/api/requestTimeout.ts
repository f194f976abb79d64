/**
 * The time limit of one attempt of a call (tenantApi.requestTimeoutSeconds, the runner's --timeout):
 * the one range, enforced where a value comes in (the settings are brought into it, the command line
 * refuses a value outside it), so the client takes its settings as they are.
 */
export const REQUEST_TIMEOUT_SECONDS = { fallback: 30, min: 1, max: 3600 } as const;

/** A setting's value as a time limit in range; the fallback when it is no number. */
export function requestTimeoutSeconds(value: unknown): number {
  const seconds = typeof value === 'number' && Number.isFinite(value) ? value : REQUEST_TIMEOUT_SECONDS.fallback;
  return Math.min(REQUEST_TIMEOUT_SECONDS.max, Math.max(REQUEST_TIMEOUT_SECONDS.min, seconds));
}

/** The limit in milliseconds, for the client's attempts and a plain fetch to another host alike. */
export function requestTimeoutMs(settings: { requestTimeoutSeconds: number }): number {
  return settings.requestTimeoutSeconds * 1000;
}
