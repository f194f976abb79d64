/**
 * What activate() hands to every other extension through `getExtension(id).exports`.
 *
 * The test hooks (the authentication API with getAccessToken and the raw secret store, the licence
 * key store, the workbench's state) would let any installed extension read tokens and keys without
 * the consent `vscode.authentication.getSession` asks for. They are exported only when the editor
 * runs the extension for development or tests (ExtensionMode.Development / Test); in production the
 * exports are empty, and other extensions go through the `tenant-api` authentication provider.
 */
export function activationExports<Hooks extends object>(testHooksAllowed: boolean, hooks: () => Hooks): Hooks | Record<string, never> {
  return testHooksAllowed ? hooks() : {};
}
