/**
 * The command line that runs the bundled runner (dist/cli.js) on one request file, for a terminal of
 * the editor: the editor's own Node (Electron as Node on the desktop, so nothing else needs installing),
 * the file relative to its workspace folder, the active environment and tenant. No secrets: the
 * terminal's user supplies them as environment variables, or the runner asks for them. Pure.
 */
export interface RunnerCommand {
  /** process.execPath of the extension host. */
  execPath: string;
  cliPath: string;
  /** The file, relative to `cwd` when it is inside it. */
  file: string;
  /** The active environment ('default' for the top-level settings). */
  environment: string;
  /** The active tenant (its id), for the requests that name none. */
  tenant?: string;
  platform: NodeJS.Platform;
}

/** Double quotes, with what a POSIX shell or PowerShell would expand inside them escaped. */
export function quoteArgument(text: string, platform: NodeJS.Platform): string {
  if (/^[\w./:@=+-]+$/.test(text)) return text;
  return platform === 'win32' ? `"${text.replace(/[`"$]/g, '`$&')}"` : `"${text.replace(/[\\"$`]/g, '\\$&')}"`;
}

export function runnerCommandLine(command: RunnerCommand): string {
  const quote = (text: string) => quoteArgument(text, command.platform);
  const words = [quote(command.execPath), quote(command.cliPath), 'run', quote(command.file), '--env', quote(command.environment)];
  if (command.tenant) words.push('--tenant', quote(command.tenant));
  // PowerShell runs a quoted program only after the call operator.
  return command.platform === 'win32' ? `& ${words.join(' ')}` : words.join(' ');
}
