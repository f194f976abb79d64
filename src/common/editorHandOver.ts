/**
 * What the editor hands a runner it starts in its terminal (Run Request File in Terminal), through
 * the terminal's environment: never a secret, never on the command line or in a file.
 */

/**
 * The `tenantApi.*` settings the user set, as the editor resolves them for the file (user, workspace,
 * folder), as a JSON object of flat keys (`{"tenantApi.baseUrl": "..."}`). Settings hold no secret:
 * sign-in and licence keys come from the terminal's own variables, or the runner asks for them.
 */
export const EDITOR_SETTINGS_VARIABLE = 'TENANT_API_EDITOR_SETTINGS';
