/**
 * The runner's secrets: from environment variables, or NAME=VALUE lines on standard input
 * (`--secret-stdin`), never from the command line or a file in the repository. Every value is
 * registered for redaction as soon as it is read, so no output, report or error can carry it.
 */
import { registerSecret } from '../common/redact';
import * as l10n from '../common/l10n';
import { UsageError } from './options';

export const SECRET_VARIABLES = {
  clientId: 'TENANT_API_CLIENT_ID',
  clientSecret: 'TENANT_API_CLIENT_SECRET',
  username: 'TENANT_API_USERNAME',
  password: 'TENANT_API_PASSWORD',
} as const;

import { LICENCE_KEY_PREFIX } from '../common/secretVariables';

export { LICENCE_KEY_PREFIX };

export interface Credentials {
  clientId?: string;
  clientSecret?: string;
  username?: string;
  password?: string;
  /** Licence keys by module (lower case). */
  licenceKeys: Map<string, string>;
}

const NAME = /^TENANT_API_[A-Z0-9_]+$/;

/** NAME=VALUE lines (blank lines and `#` comments skipped); only TENANT_API_* names. */
export function parseSecretLines(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '' || line.trim().startsWith('#')) return;
    const equals = line.indexOf('=');
    const name = equals < 0 ? line.trim() : line.slice(0, equals).trim();
    if (equals < 0 || !NAME.test(name)) throw new UsageError(l10n.t('Line {0} of standard input is not TENANT_API_NAME=VALUE.', index + 1));
    values[name] = line.slice(equals + 1);
  });
  return values;
}

/** Standard input's lines win over the environment's variables of the same name. */
export function readCredentials(environment: NodeJS.ProcessEnv, stdin: Record<string, string> = {}): Credentials {
  const value = (name: string) => {
    const text = (stdin[name] ?? environment[name])?.trim();
    return text ? text : undefined;
  };
  const licenceKeys = new Map<string, string>();
  for (const name of new Set([...Object.keys(environment), ...Object.keys(stdin)])) {
    if (!name.startsWith(LICENCE_KEY_PREFIX)) continue;
    const key = value(name);
    if (key) licenceKeys.set(name.slice(LICENCE_KEY_PREFIX.length).toLowerCase(), key);
  }
  const credentials: Credentials = {
    clientId: value(SECRET_VARIABLES.clientId),
    clientSecret: value(SECRET_VARIABLES.clientSecret),
    username: value(SECRET_VARIABLES.username),
    password: value(SECRET_VARIABLES.password),
    licenceKeys,
  };
  for (const secret of [credentials.clientSecret, credentials.password, ...licenceKeys.values()]) registerSecret(secret);
  return credentials;
}
