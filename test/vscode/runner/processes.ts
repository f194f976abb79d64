// Child processes the runner starts: run to completion with a log, and stop by pid.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';

export interface RunOptions {
  cwd: string;
  /** Appended to, with the command line and its output. */
  logFile: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/**
 * The environment for child tools: without the npm_* variables `npm run` sets (a nested
 * `npm install` would read them as its own configuration) and without the variables of an
 * enclosing VS Code (code-server would try to talk to that editor instead of starting its own).
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) || /^VSCODE_/.test(key) || key === 'ELECTRON_RUN_AS_NODE') continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

/** Runs a command; resolves with its exit code (never rejects on a non-zero code). */
export function run(command: string, args: string[], options: RunOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    const log = fs.openSync(options.logFile, 'a');
    fs.writeSync(log, `\n$ (cd ${options.cwd} && ${command} ${args.join(' ')})\n`);
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? cleanEnv(),
      stdio: ['ignore', log, log],
    });
    const timer = options.timeoutMs
      ? setTimeout(() => {
          fs.writeSync(log, `\n[runner] timed out after ${options.timeoutMs} ms, stopping pid ${child.pid}\n`);
          child.kill('SIGKILL');
        }, options.timeoutMs)
      : undefined;
    child.on('error', (error) => {
      if (timer) clearTimeout(timer);
      fs.closeSync(log);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      fs.writeSync(log, `[exit ${code ?? signal}]\n`);
      fs.closeSync(log);
      resolve(code ?? 1);
    });
  });
}

/** Stops a process we started (and, when it leads a process group, its group) by pid. */
export async function stopProcess(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const pid = child.pid;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (sig: NodeJS.Signals) => {
    try {
      // Negative pid: the whole group (the server's extension host and watchers), started detached by us.
      process.kill(-pid, sig);
    } catch {
      try {
        process.kill(pid, sig);
      } catch {
        /* already gone */
      }
    }
  };
  signal('SIGTERM');
  const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs));
  if ((await Promise.race([exited, timer])) === 'timeout') {
    signal('SIGKILL');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
  }
}

export function tail(file: string, lines = 80): string {
  try {
    const text = fs.readFileSync(file, 'utf8');
    return text.split('\n').slice(-lines).join('\n');
  } catch {
    return `(no log at ${file})`;
  }
}
