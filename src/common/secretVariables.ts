/**
 * The environment variables the runner and the generated code read secrets from: one name for each,
 * so a snippet copied from the editor runs with the variables a CI job already sets for tenant-api.
 */
export const TOKEN_VARIABLE = 'TENANT_API_TOKEN';

/** `TENANT_API_KEY_CORE` holds the licence key of the module `core`. */
export const LICENCE_KEY_PREFIX = 'TENANT_API_KEY_';

export function licenceKeyVariable(module: string): string {
  return `${LICENCE_KEY_PREFIX}${module.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
}
