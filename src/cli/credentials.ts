/**
 * The runner's secrets: from environment variables, or NAME=VALUE lines on standard input
 * (`--secret-stdin`), never from the command line or a file in the repository. Every value is
 * registered for redaction as soon as it is read, so no output, report or error can carry it.
 */
import { registerSecret } from '../common/redact';
import * as l10n from '../common/l10n';
import { splitTenants } from '../engine/tenantList';
import { UsageError } from './options';

export const SECRET_VARIABLES = {
  clientId: 'TENANT_API_CLIENT_ID',
  clientSecret: 'TENANT_API_CLIENT_SECRET',
  username: 'TENANT_API_USERNAME',
  password: 'TENANT_API_PASSWORD',
} as const;

import { LICENCE_KEY_PREFIX } from '../common/secretVariables';

/** `TENANT_API_KEY_CORE` holds the licence key of the module `core`; `TENANT_API_KEY_CORE_ROSSI` the key of the organization ROSSI. */
export { LICENCE_KEY_PREFIX };
/** `TENANT_API_TENANTS_ROSSI=RC-MI,RC-TO`: the tenants of the organization ROSSI (codes, descriptions or ids; not a secret). */
export const ORGANIZATION_TENANTS_PREFIX = 'TENANT_API_TENANTS_';

export interface Credentials {
  clientId?: string;
  clientSecret?: string;
  username?: string;
  password?: string;
  /** Licence keys by what follows TENANT_API_KEY_ (lower case): a module, or a module and an organization (licenceVariables.ts). */
  licenceKeys: Map<string, string>;
  /** The tenants of each organization (TENANT_API_TENANTS_<ORG>), by the organization as written (upper case). */
  organizationTenants: Map<string, string[]>;
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
  const organizationTenants = new Map<string, string[]>();
  for (const name of new Set([...Object.keys(environment), ...Object.keys(stdin)])) {
    const tenants = name.startsWith(ORGANIZATION_TENANTS_PREFIX) ? splitTenants(value(name)) : [];
    if (tenants.length > 0) organizationTenants.set(name.slice(ORGANIZATION_TENANTS_PREFIX.length), tenants);
  }
  const credentials: Credentials = {
    clientId: value(SECRET_VARIABLES.clientId),
    clientSecret: value(SECRET_VARIABLES.clientSecret),
    username: value(SECRET_VARIABLES.username),
    password: value(SECRET_VARIABLES.password),
    licenceKeys,
    organizationTenants,
  };
  for (const secret of [credentials.clientSecret, credentials.password, ...licenceKeys.values()]) registerSecret(secret);
  return credentials;
}
