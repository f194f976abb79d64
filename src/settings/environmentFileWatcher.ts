import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../common/logger';
import { EnvironmentFiles, fileEnvironmentName, readFileIfExists, type FileEnvironment } from './environmentFileSources';
import { DOTENV_FILE, PRIVATE_ENVIRONMENT_FILE, PUBLIC_ENVIRONMENT_FILE } from './environmentFiles';
import type { Environment } from './environments';

export interface WatchedEnvironmentFiles {
  /** The files' variables for the request file with this key (its URI), in `environment`. */
  forDocument(key: string, environment: Environment): FileEnvironment;
  /** The environments the files name, for request files in the folder of `key` (else the workspace's first folder). */
  environmentNames(key?: string): string[];
  /** Fires when an environment file is saved, added or removed. */
  readonly onDidChange: vscode.Event<void>;
}

/** The folder whose files count for a document: its own, or the workspace's first for an untitled one. */
function folderOf(key: string | undefined): string | undefined {
  const uri = key === undefined ? undefined : vscode.Uri.parse(key);
  if (uri?.scheme === 'file') return path.dirname(uri.fsPath);
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

/**
 * The environment files of the workspace, following their edits (on save): read once and again after
 * a change. A file that cannot be read is said once, with a button that opens it at the place.
 */
export function watchEnvironmentFiles(subscriptions: vscode.Disposable[], logger: Logger): WatchedEnvironmentFiles {
  const files = new EnvironmentFiles({
    read: readFileIfExists,
    rootOf: (folder) => vscode.workspace.getWorkspaceFolder(vscode.Uri.file(folder))?.uri.fsPath,
    show: (file) => vscode.workspace.asRelativePath(file, false),
  });
  const changed = new vscode.EventEmitter<void>();
  const said = new Set<string>();
  const watcher = vscode.workspace.createFileSystemWatcher(`**/{${PUBLIC_ENVIRONMENT_FILE},${PRIVATE_ENVIRONMENT_FILE},${DOTENV_FILE}}`);
  const reread = () => {
    files.invalidate();
    said.clear();
    changed.fire();
  };
  subscriptions.push(changed, watcher, watcher.onDidChange(reread), watcher.onDidCreate(reread), watcher.onDidDelete(reread));

  const say = (environment: FileEnvironment) => {
    for (const problem of environment.problems) {
      if (said.has(problem.message)) continue;
      said.add(problem.message);
      logger.warn(`Environment file not used: ${problem.message}`);
      void openProblem(problem.file, problem.message);
    }
  };
  return {
    forDocument(key, environment) {
      const folder = folderOf(key);
      if (!folder) return { variables: {}, secrets: new Set(), dotenv: {}, origins: {}, problems: [] };
      const found = files.forFolder(folder, fileEnvironmentName(environment));
      say(found);
      return found;
    },
    environmentNames(key) {
      const folder = folderOf(key);
      return folder ? files.environmentNames(folder) : [];
    },
    onDidChange: changed.event,
  };
}

async function openProblem(file: string, message: string): Promise<void> {
  const open = vscode.l10n.t('Open File');
  const answer = await vscode.window.showWarningMessage(vscode.l10n.t('An environment file cannot be read, its variables are not used until it is fixed: {0}', message), open);
  if (answer !== open) return;
  const place = /:(\d+):(\d+):/.exec(message);
  const at = place ? new vscode.Position(Number(place[1]) - 1, Number(place[2]) - 1) : new vscode.Position(0, 0);
  await vscode.window.showTextDocument(vscode.Uri.file(file), { selection: new vscode.Range(at, at) });
}
