/**
 * The environment files (`http-client.env.json`, `http-client.private.env.json`, `.env`) as the runner
 * reads them: beside each request file and in each folder above it up to the workspace (the folder of
 * `.vscode/settings.json`, else the current folder). A file that cannot be read stops the run before
 * anything is sent, naming the file, line and column.
 */
import * as path from 'node:path';
import * as l10n from '../common/l10n';
import { EnvironmentFiles, readFileIfExists } from '../settings/environmentFileSources';
import { UsageError } from './options';

/** The workspace's root: the folder holding `.vscode/settings.json`, else the current folder. */
export function workspaceRoot(settingsFile: string | undefined, cwd: string): string {
  return settingsFile ? path.dirname(path.dirname(settingsFile)) : path.resolve(cwd);
}

export function runnerEnvironmentFiles(root: string, cwd: string): EnvironmentFiles {
  return new EnvironmentFiles({
    read: readFileIfExists,
    rootOf: () => root,
    show: (file) => path.relative(cwd, file) || file,
  });
}

/** Stops the run when an environment file of these folders cannot be read. */
export function checkEnvironmentFiles(files: EnvironmentFiles, folders: readonly string[], environment: string): void {
  const problems = [...new Set(folders.flatMap((folder) => files.forFolder(folder, environment).problems.map((problem) => problem.message)))];
  if (problems.length > 0) throw new UsageError(problems.map((problem) => l10n.t('Environment file {0}', problem)).join('\n'));
}
