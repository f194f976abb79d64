/**
 * Run Request File in Terminal: the bundled runner (dist/cli.js, `tenant-api`) on the current request
 * file, in a terminal of the editor, with what the editor uses: the active environment, the settings
 * as the editor resolves them (user, workspace, folder) and the active tenant. They go through the
 * terminal's environment and the command line, and hold no secret: the runner signs in and finds the
 * licence keys from the terminal's own variables, or asks there (the device code, a hidden key).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMAND, type CommandHandlers } from '../../common/commandIds';
import { EDITOR_SETTINGS_VARIABLE } from '../../common/editorHandOver';
import { LEDGER_URL_VARIABLE } from '../../coordination/redis/ledgerUrl';
import { readLedgerUrl } from '../../settings/ledgerSettings';
import { contributedSettings, settingsForRunner } from '../../settings/runnerSettings';
import { runnerCommandLine } from '../runnerCommandLine';
import { isRequestDocument } from './documents';

export const RUNNER_TERMINAL_NAME = 'tenant-api';

/** An environment variable longer than this may be refused (Windows allows 32,767 characters). */
const MAX_SETTINGS_CHARS = 30_000;

export interface RunInTerminalDeps {
  extensionPath: string;
  /** The extension's manifest: its settings are the ones handed over. */
  packageJSON: unknown;
  /** The active environment's name as the runner's --env takes it ('default' for the top-level settings). */
  environmentName(): string;
  /** The active tenant's id, for the requests that name none. */
  activeTenantId(): string | undefined;
}

function targetUri(uri: unknown): vscode.Uri | undefined {
  if (uri instanceof vscode.Uri) return uri;
  const editor = vscode.window.activeTextEditor;
  return editor && isRequestDocument(editor.document) ? editor.document.uri : undefined;
}

/** The terminal's variables: the editor's settings (when they fit) and the shared ledger the editor uses. */
function handOver(target: vscode.Uri, deps: RunInTerminalDeps): Record<string, string> {
  const env: Record<string, string> = { ELECTRON_RUN_AS_NODE: '1' };
  const settings = JSON.stringify(settingsForRunner(target, contributedSettings(deps.packageJSON)));
  if (settings.length <= MAX_SETTINGS_CHARS) env[EDITOR_SETTINGS_VARIABLE] = settings;
  else void vscode.window.showWarningMessage(vscode.l10n.t('The settings are too long to hand to the runner ({0} characters): it reads .vscode/settings.json instead.', settings.length));
  const ledger = readLedgerUrl();
  if (ledger) env[LEDGER_URL_VARIABLE] = ledger;
  return env;
}

export function runInTerminalCommands(deps: RunInTerminalDeps): CommandHandlers {
  return {
    [COMMAND.runRequestFileInTerminal]: async (uri?: unknown) => {
      const target = targetUri(uri);
      if (!target || target.scheme !== 'file') {
        void vscode.window.showWarningMessage(vscode.l10n.t('Open a saved request file (.http or .rest) first.'));
        return undefined;
      }
      const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === target.toString());
      if (document?.isDirty) await document.save();
      const folder = vscode.workspace.getWorkspaceFolder(target)?.uri.fsPath ?? path.dirname(target.fsPath);
      const environment = deps.environmentName();
      const terminal = vscode.window.createTerminal({ name: `${RUNNER_TERMINAL_NAME} · ${environment}`, cwd: folder, env: handOver(target, deps) });
      terminal.show();
      terminal.sendText(
        runnerCommandLine({
          execPath: process.execPath,
          cliPath: path.join(deps.extensionPath, 'dist', 'cli.js'),
          file: path.relative(folder, target.fsPath),
          environment,
          tenant: deps.activeTenantId(),
          platform: process.platform,
        }),
      );
      return terminal;
    },
  };
}
