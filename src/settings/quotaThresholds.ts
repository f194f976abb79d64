/** The quota thresholds of the status bar (tenantApi.quota.*), kept in range. No `vscode` here. */

export interface QuotaThresholds {
  /** Percent of the limit from which the item shows a warning background. */
  warningPercent: number;
  /** Percent of the limit from which the item shows an error background. */
  errorPercent: number;
}

export const DEFAULT_THRESHOLDS: QuotaThresholds = { warningPercent: 80, errorPercent: 95 };

/** Settings can hold anything: keep the thresholds numeric, within 1..100 and warning <= error. */
export function sanitizeThresholds(thresholds: Partial<QuotaThresholds> | undefined): QuotaThresholds {
  const clamp = (value: unknown, fallback: number) =>
    typeof value === 'number' && Number.isFinite(value) ? Math.min(100, Math.max(1, value)) : fallback;
  const errorPercent = clamp(thresholds?.errorPercent, DEFAULT_THRESHOLDS.errorPercent);
  const warningPercent = Math.min(clamp(thresholds?.warningPercent, DEFAULT_THRESHOLDS.warningPercent), errorPercent);
  return { warningPercent, errorPercent };
}
