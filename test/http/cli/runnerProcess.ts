// Starts the built runner (dist/cli.js) as a child process, as CI would, in a workspace made for the
// sandbox: `.vscode/settings.json` with a "Sandbox" environment, secrets only in the environment.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Sandbox } from '../../sandbox';

export const REPO = path.resolve(__dirname, '..', '..', '..');
export const CLI = path.join(REPO, 'dist', 'cli.js');

/** Set by mocha's global setup once it has built: test files running in parallel then never rebuild a bundle another one runs. */
export const BUILT_FOR_THIS_RUN = 'TENANT_API_TEST_BUILT';

/** Builds dist/cli.js (and the extension) as `npm run build` does, unless this test run built them already. */
export function buildRunner(): void {
  if (process.env[BUILT_FOR_THIS_RUN] === '1') return;
  const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: REPO, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`esbuild failed: ${build.stderr}`);
}

export function sandboxWorkspace(sandbox: Sandbox, clientId: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-cli-'));
  fs.mkdirSync(path.join(folder, '.vscode'));
  const settings = {
    'tenantApi.environments': [{ name: 'Sandbox', authUrl: sandbox.authUrl, baseUrl: sandbox.baseUrl, clientId, allowedHosts: ['127.0.0.1'] }],
  };
  fs.writeFileSync(path.join(folder, '.vscode', 'settings.json'), `// made by the runner's tests\n${JSON.stringify(settings, null, 2)}\n`);
  return folder;
}

/** The password grant's variables for mario.rossi, with org-rossi's licence keys: what a CI job sets for the runner. */
export function passwordGrantEnv(sandbox: Sandbox): Record<string, string> {
  const key = (module: string) => sandbox.licenceKeys.find((k) => k.organizationId === 'org-rossi' && k.module === module)!.key;
  return {
    TENANT_API_CLIENT_SECRET: sandbox.clients.password.clientSecret,
    TENANT_API_USERNAME: 'mario.rossi',
    TENANT_API_PASSWORD: sandbox.users.find((user) => user.username === 'mario.rossi')!.password,
    TENANT_API_KEY_CORE: key('core'),
    TENANT_API_KEY_EFAT: key('efat'),
  };
}

export interface RunnerResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command args` in `cwd` with only PATH, HOME and the given variables in its environment; `preload` is `node --require`d first. */
export function runRunner(command: string[], cwd: string, env: Record<string, string>, stdin = '', bin = CLI, preload?: string): Promise<RunnerResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(preload ? ['--require', preload] : []), bin, ...command], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.homedir(), ...(process.env.XDG_RUNTIME_DIR ? { XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR } : {}), ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

export interface LoginRun {
  /** The verification address and the user code, once printed. */
  prompt: Promise<{ address: string; code: string }>;
  /** The exit code, with stdout and stderr together. */
  exited: Promise<{ code: number | null; output: string }>;
}

/** Starts `tenant-api login --env Sandbox` in `cwd` with only PATH and `env`, as a person at a terminal would. */
export function startLogin(cwd: string, env: Record<string, string> = {}): LoginRun {
  const child = spawn(process.execPath, [CLI, 'login', '--env', 'Sandbox'], { cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; output: string }>((resolve) => child.on('close', (code) => resolve({ code, output })));
  const prompt = new Promise<{ address: string; code: string }>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /open (\S+) and enter the code (\S+)/.exec(output);
      if (match) resolve({ address: match[1], code: match[2] });
    });
    child.on('close', () => reject(new Error(`exited before the prompt: ${output}`)));
  });
  prompt.catch(() => undefined);
  return { prompt, exited };
}
