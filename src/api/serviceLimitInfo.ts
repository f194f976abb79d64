import type { Logger } from '../common/logger';

export const SERVICE_LIMIT_INFO_HEADER = 'service-limit-info';

export interface ApiUsage {
  used: number;
  limit: number;
}

const USAGE = /^api-usage\s*=\s*(\d{1,15})\s*\/\s*(\d{1,15})$/i;

/**
 * Parses `Service-Limit-Info: api-usage=<used>/<limit>` (spec 8). Tolerates spaces, letter case and
 * other `;`/`,`-separated parameters; returns undefined (and logs) for anything else, a limit of 0
 * included. Never throws.
 */
export function parseServiceLimitInfo(value: string | null | undefined, logger?: Logger): ApiUsage | undefined {
  if (value === null || value === undefined) return undefined;
  try {
    for (const part of value.split(/[;,]/)) {
      const match = USAGE.exec(part.trim());
      if (match) {
        const used = Number(match[1]);
        const limit = Number(match[2]);
        // A limit of 0 is not a limit ("5/0" is garbage): unknown, never "quota reached".
        if (Number.isSafeInteger(used) && Number.isSafeInteger(limit) && limit > 0) return { used, limit };
      }
    }
  } catch {
    // fall through to the warning
  }
  logger?.warn(`Ignored a malformed Service-Limit-Info header: ${JSON.stringify(value.slice(0, 200))}`);
  return undefined;
}
