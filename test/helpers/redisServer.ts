import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createConnection, createServer, type Server } from 'node:net';
import { onFreePort, PortTaken } from './freePort';

const BINARY = process.env.REDIS_SERVER ?? 'redis-server';

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

/** Files of a TLS-only server: its certificate and key, and the authority of its clients' certificates. */
export interface RedisTls {
  cert: string;
  key: string;
  ca: string;
}

/**
 * A real redis-server of our own on 127.0.0.1 and a free port, with nothing saved to disk: the tests
 * never use an instance the system may run on the default port. Fails with a clear message when
 * redis-server is not installed (Debian package redis-server).
 */
export class RedisServer {
  private child: ChildProcess | undefined;
  /** While killed: the port, held so that no other test's server takes it before run() again. */
  private holder: Server | undefined;

  private constructor(
    readonly port: number,
    private readonly tls?: RedisTls,
  ) {}

  get url(): string {
    return `${this.tls ? 'rediss' : 'redis'}://127.0.0.1:${this.port}/0`;
  }

  static async start(port?: number, tls?: RedisTls): Promise<RedisServer> {
    if (spawnSync(BINARY, ['--version']).error) {
      throw new Error(`redis-server was not found (${BINARY}): install the Debian package redis-server (apt-get install redis-server) to run the Redis ledger's tests and bench`);
    }
    const on = async (chosen: number) => {
      const server = new RedisServer(chosen, tls);
      await server.run();
      return server;
    };
    return port === undefined ? onFreePort(on) : on(port);
  }

  /** Starts it (again, on the same port: empty, as a restarted Redis without persistence). */
  async run(): Promise<void> {
    await this.release();
    const ports = this.tls
      ? ['--port', '0', '--tls-port', String(this.port), '--tls-cert-file', this.tls.cert, '--tls-key-file', this.tls.key, '--tls-ca-cert-file', this.tls.ca, '--tls-auth-clients', 'no']
      : ['--port', String(this.port)];
    const child = spawn(BINARY, [...ports, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    let output = '';
    for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) {
        await new Promise((resolve) => setImmediate(resolve)); // its last output
        const message = `redis-server exited with code ${child.exitCode} on port ${this.port}: ${output.trim().split('\n').slice(-2).join(' ')}`;
        throw /Address already in use/.test(output) ? new PortTaken(message) : new Error(message);
      }
      // Its own line first: another process's server may answer on a port taken meanwhile.
      if (output.includes('Ready to accept connections') && (this.tls || (await ping(this.port)))) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    child.kill('SIGKILL');
    throw new Error(`redis-server did not answer on port ${this.port} within 10 s`);
  }

  /**
   * Kills it at once (SIGKILL: no goodbye to the clients) and waits for the process to end. Until
   * run() starts it again its port closes every connection at once: a killed Redis, never another
   * test's server that took the freed port (a client reconnecting there would find a Redis again).
   */
  async kill(): Promise<void> {
    await this.end();
    const holder = createServer((socket) => socket.destroy());
    holder.unref();
    this.holder = await new Promise<Server | undefined>((resolve) => {
      holder.once('error', () => resolve(undefined)); // taken in between: nothing to hold
      holder.listen(this.port, '127.0.0.1', () => resolve(holder));
    });
  }

  async stop(): Promise<void> {
    await this.end();
    await this.release();
  }

  private async end(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  private async release(): Promise<void> {
    const holder = this.holder;
    this.holder = undefined;
    if (holder) await new Promise<void>((resolve) => holder.close(() => resolve()));
  }
}
