import { promises as fs } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { lock } from 'proper-lockfile';

export type Elected =
  | { role: 'client'; socket: Socket }
  | {
      role: 'broker';
      server: Server;
      /** Hands over the connections accepted so far and every later one. */
      accept(handler: (socket: Socket) => void): void;
    };

const CONNECT_TIMEOUT_MS = 1000;

function tryConnect(endpoint: string): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const socket = createConnection(endpoint);
    const timer = setTimeout(() => done(undefined), CONNECT_TIMEOUT_MS);
    const done = (value: Socket | undefined) => {
      clearTimeout(timer);
      socket.removeAllListeners('connect');
      socket.removeAllListeners('error');
      // Until the channel takes the socket over, an error must not go unhandled (it would end the process).
      socket.on('error', () => undefined);
      if (!value) socket.destroy();
      resolve(value);
    };
    socket.once('connect', () => done(socket));
    socket.once('error', () => done(undefined));
  });
}

function listen(endpoint: string): Promise<Extract<Elected, { role: 'broker' }>> {
  return new Promise((resolve, reject) => {
    const early: Socket[] = [];
    let handler: ((socket: Socket) => void) | undefined;
    const server = createServer((socket) => (handler ? handler(socket) : early.push(socket)));
    server.once('error', reject);
    server.listen(endpoint, () => {
      server.removeListener('error', reject);
      // Later errors (a failed accept) must not end the process; the windows re-elect if the broker stops answering.
      server.on('error', () => undefined);
      resolve({
        role: 'broker',
        server,
        accept(next) {
          handler = next;
          for (const socket of early.splice(0)) next(socket);
        },
      });
    });
  });
}

/**
 * Connects to the application's broker, or becomes it. Who may remove a socket file that nobody
 * listens on (left by a window killed with kill -9) and listen in its place is decided under a lock
 * held for a few milliseconds, and only after a second connection attempt under that lock failed:
 * two windows never both listen (one of them with nobody able to reach it). A Windows pipe
 * disappears with its process, so there is nothing to remove there.
 */
export async function electBroker(endpoint: string, lockFile: string): Promise<Elected> {
  for (let attempt = 0; ; attempt++) {
    const socket = await tryConnect(endpoint);
    if (socket) return { role: 'client', socket };
    const release = await lock(lockFile, {
      realpath: false,
      stale: 2000,
      retries: { retries: 400, minTimeout: 2, maxTimeout: 10, factor: 1.2 },
      onCompromised: () => undefined,
    });
    try {
      const again = await tryConnect(endpoint);
      if (again) return { role: 'client', socket: again };
      if (process.platform !== 'win32') {
        await fs.unlink(endpoint).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
        });
      }
      try {
        const elected = await listen(endpoint);
        if (process.platform !== 'win32') await fs.chmod(endpoint, 0o600);
        return elected;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 20) throw error;
      }
    } finally {
      await release().catch(() => undefined);
    }
  }
}
