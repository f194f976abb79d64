import type { Logger } from '../common/logger';

export const SERVICE_LIMIT_INFO_HEADER = 'service-limit-info';

export interface ApiUsage {
  used: number;
  limit: number;
}

const USAGE = /^api-usage\s*=\s*(\d{1,15})\s*\/\s*(\d{1,15})$/i;

/**
 * Parses `Service-Limit-Info: api-usage=<used>/<limit>` (spec 8). Tolerates spaces, letter case and
 * other `;`/`,`-separated parameters; returns undefined (and logs) for anything else. Never throws.
 */
export function parseServiceLimitInfo(value: string | null | undefined, logger?: Logger): ApiUsage | undefined {
  if (value === null || value === undefined) return undefined;
  try {
    for (const part of value.split(/[;,]/)) {
      const match = USAGE.exec(part.trim());
      if (match) {
        const used = Number(match[1]);
        const limit = Number(match[2]);
        if (Number.isSafeInteger(used) && Number.isSafeInteger(limit)) return { used, limit };
      }
    }
  } catch {
    // fall through to the warning
  }
  logger?.warn(`Ignored a malformed Service-Limit-Info header: ${JSON.stringify(value.slice(0, 200))}`);
  return undefined;
}
