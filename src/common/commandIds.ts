/**
 * Every command id of the extension, in one table: the contributed commands (package.json's
 * contributes.commands, checked both ways by test/unit/common/commandIds.test.ts), the internal ones
 * that only the extension runs, and the editor's own that it runs. No `vscode` here, so every layer
 * (views, request files, commands) names a command through this table.
 */

/** The commands in package.json's contributes.commands. */
export const COMMAND = {
  signIn: 'tenantApi.signIn',
  signOut: 'tenantApi.signOut',
  setClientSecret: 'tenantApi.setClientSecret',
  setLicenceKey: 'tenantApi.setLicenceKey',
  clearLicenceKey: 'tenantApi.clearLicenceKey',
  sendRequest: 'tenantApi.sendRequest',
  rerunFromHistory: 'tenantApi.rerunFromHistory',
  copyAsCurl: 'tenantApi.copyAsCurl',
  refreshTenants: 'tenantApi.refreshTenants',
  openResource: 'tenantApi.openResource',
  copyTenantId: 'tenantApi.copyTenantId',
  setActiveTenant: 'tenantApi.setActiveTenant',
  signInToTenant: 'tenantApi.signInToTenant',
  showQuota: 'tenantApi.showQuota',
  resumeOrganization: 'tenantApi.resumeOrganization',
  showLog: 'tenantApi.showLog',
  switchEnvironment: 'tenantApi.switchEnvironment',
  requestFileSend: 'tenantApi.requestFile.send',
  requestFileSendAll: 'tenantApi.requestFile.sendAll',
  requestFileCopyAsCurl: 'tenantApi.requestFile.copyAsCurl',
  saveRequest: 'tenantApi.requestFile.saveRequest',
  runRequestFileInTerminal: 'tenantApi.requestFile.runInTerminal',
  watch: 'tenantApi.watch',
  stopWatch: 'tenantApi.stopWatch',
  pinWatch: 'tenantApi.pinWatch',
  showWatches: 'tenantApi.showWatches',
  refreshResponse: 'tenantApi.refreshResponse',
  generateRequestFiles: 'tenantApi.generateRequestFiles',
  addOperationToRequestFile: 'tenantApi.addOperationToRequestFile',
  importPostmanCollection: 'tenantApi.importPostmanCollection',
  pasteCurlAsRequest: 'tenantApi.pasteCurlAsRequest',
  copyAsCode: 'tenantApi.copyAsCode',
  requestFileCopyAsCode: 'tenantApi.requestFile.copyAsCode',
  openAsTable: 'tenantApi.openAsTable',
  showUsage: 'tenantApi.showUsage',
} as const;

/** Commands the extension runs itself (tree items, links): registered, never contributed. */
export const INTERNAL_COMMAND = {
  /** Runs the fix a resource's problem names, then opens the resource again. */
  fixResource: 'tenantApi.internal.fixResource',
  useAccount: 'tenantApi.internal.useAccount',
  /** Opens the response of one request of a Send All summary. */
  openResponse: 'tenantApi.internal.openResponse',
  /** A request file's quick fixes that ask something first: pick a tenant, add a route rule. */
  quickFixPickTenant: 'tenantApi.requestFile.quickFix.pickTenant',
  quickFixAddRoute: 'tenantApi.requestFile.quickFix.addRoute',
  /** The CodeLens of a large response's preview: the whole response in a tab of its own. */
  openWholeResponse: 'tenantApi.openWholeResponse',
  /** A request file's Watch CodeLens: the request, its variables filled, watched as a path (arguments: uri, index). */
  requestFileWatch: 'tenantApi.requestFile.watch',
  /** A catalogue operation's item: sent at once, or after its required parameters are asked (argument: OperationTarget). */
  openOperation: 'tenantApi.internal.openOperation',
  /** What an import or a conversion (the quick fix on a `curl ...` line) left out or changed, said after it. */
  showImportNotes: 'tenantApi.internal.showImportNotes',
} as const;

/** The editor's own commands the extension runs. */
export const EDITOR_COMMAND = {
  openSettings: 'workbench.action.openSettings',
  setContext: 'setContext',
  markWalkthroughStepComplete: 'welcome.markStepComplete',
  revertAndCloseActiveEditor: 'workbench.action.revertAndCloseActiveEditor',
} as const;

export type CommandId = (typeof COMMAND)[keyof typeof COMMAND];
export type InternalCommandId = (typeof INTERNAL_COMMAND)[keyof typeof INTERNAL_COMMAND];
/** Every command the extension registers. */
export type RegisteredCommandId = CommandId | InternalCommandId;

export const REGISTERED_COMMAND_IDS: readonly RegisteredCommandId[] = [...Object.values(COMMAND), ...Object.values(INTERNAL_COMMAND)];

/** What runs a command (the arguments are whatever its caller passes). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CommandHandler = (...args: any[]) => unknown;

/** A group's commands: the registrar (src/commands/registrar.ts) registers them, once, from one place. */
export type CommandHandlers = Partial<Record<RegisteredCommandId, CommandHandler>>;

/** Ids without a handler, or with one in both groups. */
export function commandTableProblems(global: CommandHandlers, active: CommandHandlers): string[] {
  const problems: string[] = [];
  for (const id of REGISTERED_COMMAND_IDS) {
    if (global[id] && active[id]) problems.push(`${id} is handled twice`);
    if (!global[id] && !active[id]) problems.push(`${id} has no handler`);
  }
  const known = new Set<string>(REGISTERED_COMMAND_IDS);
  for (const id of [...Object.keys(global), ...Object.keys(active)]) if (!known.has(id)) problems.push(`${id} is not in the table`);
  return problems;
}
