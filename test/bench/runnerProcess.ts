// The built runner (dist/cli.js) as a bench starts it: in a workspace, with only PATH, HOME and the
// given variables, its JSON report read back once it exits, with when its first request left
// (test/helpers/cliTimings: measured from outside, the runner measures nothing for the benches).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CLI_TIMINGS_PRELOAD, readCliTimings, type CliTimings } from '../helpers/cliTimings';

const REPO = resolve(__dirname, '..', '..');
let reports = 0;

export function runRunnerJson<T>(workspace: string, args: readonly string[], env: Record<string, string>): Promise<T & CliTimings> {
  const id = `${process.pid}-${reports++}`;
  const report = join(workspace, `report-${id}.json`);
  const timings = join(workspace, `timings-${id}.json`);
  // Not --quiet: the line that opens its first file (stdout) marks its first request handed to the client.
  const child = spawn(process.execPath, ['--require', CLI_TIMINGS_PRELOAD, join(REPO, 'dist', 'cli.js'), 'run', ...args, '--env', 'Sandbox', '--reporter', `json=${report}`], {
    cwd: workspace,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TENANT_API_TIMINGS_FILE: timings, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return new Promise((resolveRun, reject) => {
    child.on('error', reject);
    child.on('close', () => resolveRun({ ...(JSON.parse(readFileSync(report, 'utf8')) as T), ...readCliTimings(timings) }));
  });
}
