// The sandbox in a child process (test/bench/sandboxProcess.ts), driven over Node's IPC channel.
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export interface SandboxInfo {
  baseUrl: string;
  authUrl: string;
  clients: { password: { clientId: string; clientSecret: string } };
  users: Array<{ username: string; password: string }>;
  licenceKeys: Array<{ key: string; module: string; organizationId: string }>;
}

export class SandboxProcess {
  private nextId = 1;
  private readonly waiting = new Map<number, (value: unknown) => void>();

  private constructor(private readonly child: ChildProcess, readonly info: SandboxInfo) {
    child.on('message', (message: { id?: number; result?: unknown }) => {
      if (message.id !== undefined) {
        this.waiting.get(message.id)?.(message.result);
        this.waiting.delete(message.id);
      }
    });
  }

  static start(options: Record<string, unknown>): Promise<SandboxProcess> {
    const child = fork(join(__dirname, 'sandboxProcess.ts'), [JSON.stringify(options)], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the sandbox did not start within 30 s')), 30_000);
      child.once('exit', (code) => reject(new Error(`the sandbox process exited (${code})`)));
      child.once('message', (message: { ready?: SandboxInfo }) => {
        clearTimeout(timer);
        if (message.ready) resolve(new SandboxProcess(child, message.ready));
      });
    });
  }

  call<T>(cmd: 'reset' | 'token' | 'stats' | 'calls' | 'close'): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve) => {
      this.waiting.set(id, resolve as (value: unknown) => void);
      this.child.send({ id, cmd });
    });
  }

  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    await Promise.race([this.call('close'), exited]);
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
    if (this.child.exitCode === null) this.child.kill();
  }
}

