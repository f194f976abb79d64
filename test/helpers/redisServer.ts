import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createConnection, createServer } from 'node:net';

const BINARY = process.env.REDIS_SERVER ?? 'redis-server';

/** A free TCP port on 127.0.0.1 (asked of the system, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.setTimeout(500);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/**
 * A real redis-server of our own on 127.0.0.1 and a free port, with nothing saved to disk: the tests
 * never use an instance the system may run on the default port. Fails with a clear message when
 * redis-server is not installed (Debian package redis-server).
 */
export class RedisServer {
  private child: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}/0`;
  }

  static async start(port?: number): Promise<RedisServer> {
    if (spawnSync(BINARY, ['--version']).error) {
      throw new Error(`redis-server was not found (${BINARY}): install the Debian package redis-server (apt-get install redis-server) to run the Redis ledger's tests and bench`);
    }
    const server = new RedisServer(port ?? (await freePort()));
    await server.run();
    return server;
  }

  /** Starts it (again, on the same port: empty, as a restarted Redis without persistence). */
  async run(): Promise<void> {
    const child = spawn(BINARY, ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.child = child;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode} on port ${this.port}`);
      if (await ping(this.port)) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    child.kill('SIGKILL');
    throw new Error(`redis-server did not answer on port ${this.port} within 10 s`);
  }

  /** Kills it at once (SIGKILL: no goodbye to the clients) and waits for the process to end. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  stop(): Promise<void> {
    return this.kill();
  }
}
