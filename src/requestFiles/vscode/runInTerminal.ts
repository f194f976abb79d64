/**
 * Run Request File in Terminal: the bundled runner (dist/cli.js, `tenant-api`) on the current request
 * file with the active environment, in a terminal of the editor, as CI would run it. The runner signs
 * in from the terminal's environment variables; the command says which, and passes no secret itself.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMAND, type CommandHandlers } from '../../common/commandIds';
import { runnerCommandLine } from '../runnerCommandLine';
import { isRequestDocument } from './documents';

export const RUNNER_TERMINAL_NAME = 'tenant-api';

export interface RunInTerminalDeps {
  extensionPath: string;
  /** The active environment's name as the runner's --env takes it ('default' for the top-level settings). */
  environmentName(): string;
}

function targetUri(uri: unknown): vscode.Uri | undefined {
  if (uri instanceof vscode.Uri) return uri;
  const editor = vscode.window.activeTextEditor;
  return editor && isRequestDocument(editor.document) ? editor.document.uri : undefined;
}

export function runInTerminalCommands(deps: RunInTerminalDeps): CommandHandlers {
  return {
    [COMMAND.runRequestFileInTerminal]: async (uri?: unknown) => {
      const target = targetUri(uri);
      if (!target || target.scheme !== 'file') {
        void vscode.window.showWarningMessage(vscode.l10n.t('Open a saved request file (.http or .rest) first.'));
        return;
      }
      const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === target.toString());
      if (document?.isDirty) await document.save();
      const folder = vscode.workspace.getWorkspaceFolder(target)?.uri.fsPath ?? path.dirname(target.fsPath);
      const terminal = vscode.window.createTerminal({ name: RUNNER_TERMINAL_NAME, cwd: folder, env: { ELECTRON_RUN_AS_NODE: '1' } });
      terminal.show();
      terminal.sendText(
        runnerCommandLine({
          execPath: process.execPath,
          cliPath: path.join(deps.extensionPath, 'dist', 'cli.js'),
          file: path.relative(folder, target.fsPath),
          environment: deps.environmentName(),
          platform: process.platform,
        }),
      );
      void vscode.window.showInformationMessage(
        vscode.l10n.t('The runner signs in from this terminal\'s environment: set TENANT_API_CLIENT_SECRET (client credentials) or TENANT_API_USERNAME and TENANT_API_PASSWORD (password grant), and TENANT_API_KEY_<MODULE> for licence keys, then run the command again.'),
      );
    },
  };
}
