// Loopback HTTP servers that never crash on bad input: malformed requests and oversized headers
// get a JSON error from Node's parser stage, and handler failures become a 500 with a JSON body.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createSecureServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

export interface LoopbackServer {
  server: Server;
  url: string;
  port: number;
  setHandler(handler: Handler): void;
  close(): Promise<void>;
}

/** How a server is reached: HTTPS with this certificate (and, with `clientCa`, only by clients it signed), and the host name in its URL. */
export interface ServerAddress {
  tls?: { cert: string; key: string; clientCa?: string };
  /** The name in the server's URL (default 127.0.0.1); the server binds 127.0.0.1 whatever it is. */
  hostName?: string;
}

/** Node's default limit of all request headers together (16 KiB); bigger headers get 431. */
export const MAX_HEADER_BYTES = 16 * 1024;

export async function listenLoopback(port: number, limitHeader: () => string | undefined, address: ServerAddress = {}): Promise<LoopbackServer> {
  let handler: Handler = (_req, res) => {
    res.statusCode = 503;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Retry-After', '1');
    res.end(JSON.stringify({ error: 'starting', message: 'The sandbox is still starting; try again in a moment.' }));
  };
  const sockets = new Set<Socket>();
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    Promise.resolve()
      .then(() => handler(req, res))
      .catch((err: unknown) => {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        const body = JSON.stringify({ error: 'server_error', message: `The sandbox failed to handle this request: ${(err as Error)?.message ?? err}` });
        res.statusCode = 500;
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
        const header = limitHeader();
        if (header) res.setHeader('Service-Limit-Info', header);
        res.end(body);
      });
  };
  const { tls } = address;
  const server: Server = tls
    ? createSecureServer({ maxHeaderSize: MAX_HEADER_BYTES, cert: tls.cert, key: tls.key, ...(tls.clientCa ? { requestCert: true, rejectUnauthorized: true, ca: tls.clientCa } : {}) }, listener)
    : createServer({ maxHeaderSize: MAX_HEADER_BYTES }, listener);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const body = JSON.stringify(tooLarge
      ? { error: 'headers_too_large', message: `The request headers are larger than ${MAX_HEADER_BYTES} bytes.` }
      : { error: 'bad_request', message: `The request could not be parsed as HTTP (${err.code ?? 'parse error'}).` });
    const header = limitHeader();
    socket.end([
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}`,
      'Content-Type: application/json; charset=utf-8',
      ...(header ? [`Service-Limit-Info: ${header}`] : []),
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
      '',
      body,
    ].join('\r\n'));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    server,
    port: actual,
    url: `${tls ? 'https' : 'http'}://${address.hostName ?? '127.0.0.1'}:${actual}`,
    setHandler(h) {
      handler = h;
    },
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    }),
  };
}
