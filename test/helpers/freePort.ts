import { createServer } from 'node:net';

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

/** A server could not take its port: another process took it between freePort() and the server's bind. */
export class PortTaken extends Error {}

/**
 * Starts a server of another program on a free port, and on a new one when the port was taken
 * meanwhile: the system also hands a released port to the next outgoing connection, and with test
 * files running in parallel one is always being opened.
 */
export async function onFreePort<T>(start: (port: number) => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt >= attempts) throw error;
    }
  }
}
