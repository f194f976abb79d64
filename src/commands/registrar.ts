import * as vscode from 'vscode';
import { commandTableProblems, REGISTERED_COMMAND_IDS, type CommandHandler, type CommandHandlers } from '../common/commandIds';

/**
 * The one place that registers commands, for the extension's lifetime: each id of the table
 * (src/common/commandIds.ts) once. `global` are the commands of the extension as a whole (environments,
 * request files); `active()` those of the active environment (sign-in, licence keys, requests, tenants),
 * looked up when the command runs, so a switch of environment needs no registration.
 * Throws when an id has no handler, or one in both groups.
 */
export function registerCommands(subscriptions: vscode.Disposable[], global: CommandHandlers, active: () => CommandHandlers): void {
  const problems = commandTableProblems(global, active());
  if (problems.length > 0) throw new Error(`The command handlers do not match the table of command ids: ${problems.join('; ')}`);
  for (const id of REGISTERED_COMMAND_IDS) {
    const run: CommandHandler = global[id] ?? ((...args: unknown[]) => (active()[id] as CommandHandler)(...args));
    subscriptions.push(vscode.commands.registerCommand(id, run));
  }
}
