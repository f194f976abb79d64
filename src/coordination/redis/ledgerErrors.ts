import * as l10n from '../../common/l10n';

/** Why a ledger URL is refused, or why Redis could not be used: `message` is a sentence for people, never a secret. */
export class LedgerError extends Error {
  override readonly name = 'LedgerError';

  constructor(
    readonly kind: 'badUrl' | 'passwordInSetting' | 'unreachable',
    message: string,
  ) {
    super(message);
  }
}

export const ledgerErrors = {
  badUrl: (why: string) =>
    new LedgerError('badUrl', l10n.t('The rate-limit ledger URL is not valid: {0}. Use redis://host:port/db or rediss://host:port/db.', why)),
  passwordInSetting: () =>
    new LedgerError(
      'passwordInSetting',
      l10n.t(
        'The setting tenantApi.ledger.url must not hold a user name or password: settings are not secret. Remove them from the URL and set the password in the environment variable TENANT_API_LEDGER_PASSWORD.',
      ),
    ),
  unreachable: (where: string, reason: string) =>
    new LedgerError(
      'unreachable',
      l10n.t(
        'The shared rate-limit ledger at {0} cannot be reached ({1}). Start Redis or correct the URL, or choose the local fallback to go on with this machine\'s ledger.',
        where,
        reason,
      ),
    ),
};
