import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the hostile server does with a request, chosen by the path's last segment:
 * - silent: reads the request and never answers (no headers at all);
 * - stall: sends the headers and `{"slow":`, then nothing;
 * - trickle: sends the headers, then one byte of a JSON body per second;
 * - ok: a small JSON answer at once.
 */
export type HostileBehaviour = 'silent' | 'stall' | 'trickle' | 'ok';

export interface HostileServer {
  url: string;
  /** Requests received so far, by behaviour. */
  received: Record<HostileBehaviour, number>;
  /** Every request received: method and X-Call-Id header. */
  requests: Array<{ method: string; callId?: string }>;
  /** Connections the server still holds open. */
  openConnections(): number;
  close(): Promise<void>;
}

/** A server on 127.0.0.1 that answers slowly or never, to prove that every call settles. */
export async function startHostileServer(): Promise<HostileServer> {
  const received: Record<HostileBehaviour, number> = { silent: 0, stall: 0, trickle: 0, ok: 0 };
  const timers = new Set<NodeJS.Timeout>();
  const requests: HostileServer['requests'] = [];
  const server: Server = createServer((request, response) => {
    const behaviour = (request.url ?? '').split('?')[0].split('/').pop() as HostileBehaviour;
    requests.push({ method: request.method ?? '', callId: request.headers['x-call-id'] as string | undefined });
    request.resume();
    request.on('end', () => {
      if (behaviour in received) received[behaviour]++;
      answer(behaviour, response, timers);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  let open = 0;
  server.on('connection', (socket) => {
    open++;
    socket.on('close', () => open--);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    requests,
    openConnections: () => open,
    async close() {
      for (const timer of timers) clearInterval(timer);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function answer(behaviour: HostileBehaviour, response: ServerResponse, timers: Set<NodeJS.Timeout>): void {
  if (behaviour === 'silent') return;
  if (behaviour === 'ok') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"ok":true}');
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json' });
  if (behaviour === 'stall') {
    response.write('{"slow":');
    return;
  }
  const body = '{"trickle":"' + 'x'.repeat(600) + '"}';
  let sent = 0;
  const timer = setInterval(() => {
    if (response.destroyed || sent >= body.length) {
      clearInterval(timer);
      timers.delete(timer);
      if (!response.destroyed) response.end();
      return;
    }
    response.write(body[sent++]);
  }, 1000);
  response.write(body[sent++]);
  timers.add(timer);
}
