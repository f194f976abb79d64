// The built runner (dist/cli.js) as a bench starts it: in a workspace, with only PATH, HOME and the
// given variables, quiet, its JSON report read back once it exits.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const REPO = resolve(__dirname, '..', '..');
let reports = 0;

export function runRunnerJson<T>(workspace: string, args: readonly string[], env: Record<string, string>): Promise<T> {
  const report = join(workspace, `report-${process.pid}-${reports++}.json`);
  const child = spawn(process.execPath, [join(REPO, 'dist', 'cli.js'), 'run', ...args, '--env', 'Sandbox', '--quiet', '--reporter', `json=${report}`], {
    cwd: workspace,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return new Promise((resolveRun, reject) => {
    child.on('error', reject);
    child.on('close', () => resolveRun(JSON.parse(readFileSync(report, 'utf8')) as T));
  });
}
