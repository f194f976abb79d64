import * as l10n from '../../common/l10n';
import { ledgerErrors } from './ledgerErrors';

/** Where the shared ledger lives: a redis:// or rediss:// URL and the password to use, if any. */
export interface LedgerEndpoint {
  url: string;
  password?: string;
  /** The URL without user name or password, for messages and logs. */
  display: string;
  /** rediss:// only: the certificate authorities to trust (default: Node's, with NODE_EXTRA_CA_CERTS). */
  tls?: { ca?: string[]; rejectUnauthorized: true };
}

/** The environment variables the command line and the editor read (a password is never a setting). */
export const LEDGER_URL_VARIABLE = 'TENANT_API_LEDGER';
export const LEDGER_PASSWORD_VARIABLE = 'TENANT_API_LEDGER_PASSWORD';

/**
 * Checks a ledger URL. From the environment (`source: 'environment'`) its userinfo may carry the
 * password; from a setting or a command-line flag it may not (they are seen, stored or logged).
 * The password of TENANT_API_LEDGER_PASSWORD, when given, wins over the URL's.
 */
export function parseLedgerUrl(text: string, source: 'environment' | 'setting' | 'flag', password?: string): LedgerEndpoint {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw ledgerErrors.badUrl(l10n.t('it is not a URL'));
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw ledgerErrors.badUrl(l10n.t('the scheme must be redis or rediss'));
  if (!url.hostname) throw ledgerErrors.badUrl(l10n.t('it names no host'));
  if (url.pathname !== '' && url.pathname !== '/' && !/^\/\d{1,2}$/.test(url.pathname)) throw ledgerErrors.badUrl(l10n.t('the path must be a database number'));
  if (url.search || url.hash) throw ledgerErrors.badUrl(l10n.t('it must have no query or fragment'));
  if ((url.username || url.password) && source !== 'environment') throw ledgerErrors.passwordInSetting();
  const display = `${url.protocol}//${url.host}${url.pathname}`;
  const fromUrl = url.password ? decodeURIComponent(url.password) : undefined;
  return { url: url.toString(), password: password || fromUrl, display };
}

/** The ledger named by TENANT_API_LEDGER (with TENANT_API_LEDGER_PASSWORD), or undefined when unset. */
export function ledgerFromEnvironment(env: NodeJS.ProcessEnv = process.env): LedgerEndpoint | undefined {
  const url = env[LEDGER_URL_VARIABLE]?.trim();
  if (!url) return undefined;
  return parseLedgerUrl(url, 'environment', env[LEDGER_PASSWORD_VARIABLE] || undefined);
}

/** A URL from a flag or a setting, with the password from the environment. */
export function ledgerFromUrl(url: string, source: 'setting' | 'flag', env: NodeJS.ProcessEnv = process.env): LedgerEndpoint {
  return parseLedgerUrl(url, source, env[LEDGER_PASSWORD_VARIABLE] || undefined);
}
