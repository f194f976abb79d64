import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../../../src/common/logger';

/** One request a hostile server received: which host the client meant, and what it carried. */
export interface Received {
  host: string;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface HostileServer {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** A server on 127.0.0.1 that answers as `handler` says and records every request. */
export async function hostileServer(handler: (request: Received, response: ServerResponse, raw: IncomingMessage) => void): Promise<HostileServer> {
  const received: Received[] = [];
  const server = createServer((raw, response) => {
    const chunks: Buffer[] = [];
    raw.on('data', (chunk: Buffer) => chunks.push(chunk));
    raw.on('end', () => {
      const request: Received = {
        host: String(raw.headers['x-intended-host'] ?? raw.headers.host ?? ''),
        method: raw.method ?? '',
        path: raw.url ?? '',
        headers: raw.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(request);
      handler(request, response, raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A fetch that plays DNS: whatever host an https URL names, the request goes to `target` over plain
 * HTTP on 127.0.0.1, with the intended host in X-Intended-Host. So the client can be pointed at
 * https://acme.azurewebsites.net and attacker.azurewebsites.net without leaving this computer.
 */
export function resolvingFetch(target: string): (input: Request | URL | string, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const intended = new URL(request.url);
    const local = new URL(`${intended.pathname}${intended.search}`, target);
    const headers = new Headers(request.headers);
    headers.set('X-Intended-Host', intended.host);
    const body = request.body ? await request.arrayBuffer() : undefined;
    return fetch(local, { method: request.method, headers, body, redirect: 'manual', signal: request.signal });
  };
}

/** A logger that keeps every line (to search it for secrets). */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (message: string | Error, ...args: unknown[]) => void lines.push([String(message), ...args.map(String)].join(' '));
  return { lines, trace: log, debug: log, info: log, warn: log, error: log };
}

/** The secrets among `secrets` that occur in `text`. */
export function leaked(text: string, secrets: readonly string[]): string[] {
  return secrets.filter((secret) => text.includes(secret));
}
