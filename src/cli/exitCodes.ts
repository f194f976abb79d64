import * as l10n from '../common/l10n';

/**
 * The runner's exit codes, as data: CI configurations rely on them (the README's table is this one).
 * When several apply, the first in this table wins: a run that could not start says why before a
 * run that ran and failed.
 */
export type ExitReason = 'usage' | 'ledger' | 'signIn' | 'quotaGuard' | 'requestFailed' | 'assertionFailed' | 'passed';

export const EXIT_CODES: ReadonlyArray<{ reason: ExitReason; code: number; meaning: () => string }> = [
  { reason: 'usage', code: 2, meaning: () => l10n.t('bad usage (unknown option, missing value, no file), a file that does not exist or does not parse, an unknown environment') },
  { reason: 'ledger', code: 6, meaning: () => l10n.t('the shared rate-limit ledger in Redis (--ledger, TENANT_API_LEDGER) cannot be reached at start (with --ledger-fallback local the run goes on with the local ledger instead)') },
  { reason: 'signIn', code: 4, meaning: () => l10n.t('sign-in failed (wrong or missing client secret or password, authorization server unreachable)') },
  { reason: 'quotaGuard', code: 5, meaning: () => l10n.t('stopped by the quota guard (--keep-quota, --max-calls) or by the weekly limit') },
  { reason: 'requestFailed', code: 3, meaning: () => l10n.t('a request without assertions failed (network error, 4xx or 5xx), or was not sent') },
  { reason: 'assertionFailed', code: 1, meaning: () => l10n.t('an assertion failed') },
  { reason: 'passed', code: 0, meaning: () => l10n.t('every request passed') },
];

/** An error the runner did not expect (a bug): not one of the documented outcomes. */
export const INTERNAL_ERROR_CODE = 70;

export function exitCode(reason: ExitReason): number {
  return EXIT_CODES.find((entry) => entry.reason === reason)!.code;
}

/** The reason that wins among those that occurred ('passed' when none did). */
export function worstReason(reasons: Iterable<ExitReason>): ExitReason {
  const seen = new Set(reasons);
  return EXIT_CODES.find((entry) => seen.has(entry.reason))?.reason ?? 'passed';
}
