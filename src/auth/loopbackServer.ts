import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as l10n from '../common/l10n';
import type { Logger } from '../common/logger';
import { parseCallbackQuery } from './callbackParameters';

export const LOOPBACK_CALLBACK_PATH = '/auth-callback';

export interface LoopbackServerOptions {
  /** Hands the callback's parameters to the pending attempts; true when it matched one. */
  onCallback(parameters: URLSearchParams): boolean;
  logger: Logger;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

function page(title: string, message: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body style="font-family: system-ui, sans-serif; margin: 3em"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></body></html>`;
}

/**
 * One-shot redirect target on 127.0.0.1 with a random port (RFC 8252 7.3), for a local desktop
 * window. It closes after the first matching callback and when the attempt ends.
 */
export class LoopbackServer {
  private closed = false;

  private constructor(
    private readonly server: http.Server,
    readonly redirectUri: string,
    private readonly logger: Logger,
  ) {}

  static start(options: LoopbackServerOptions): Promise<LoopbackServer> {
    return new Promise((resolve, reject) => {
      let instance: LoopbackServer | undefined;
      const server = http.createServer((request, response) => {
        const url = new URL(request.url ?? '/', 'http://127.0.0.1');
        if (request.method !== 'GET' || url.pathname !== LOOPBACK_CALLBACK_PATH) {
          response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
          return;
        }
        const parameters = parseCallbackQuery(url.search, 'encoded');
        const matched = options.onCallback(parameters);
        const error = parameters.get('error');
        const headers = { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'close' };
        if (!matched) {
          response.writeHead(400, headers).end(page(l10n.t('Sign-in link not recognised'),
            l10n.t('This sign-in answer does not belong to a sign-in in progress. Start the sign-in again from the editor.')));
          return;
        }
        if (error) {
          response.writeHead(200, headers).end(page(l10n.t('Sign-in failed'),
            parameters.get('error_description') ?? error));
        } else {
          response.writeHead(200, headers).end(page(l10n.t('Signed in to Tenant API'),
            l10n.t('You can close this tab and return to the editor.')));
        }
        response.on('finish', () => void instance?.close());
      });
      server.on('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        instance = new LoopbackServer(server, `http://127.0.0.1:${port}${LOOPBACK_CALLBACK_PATH}`, options.logger);
        options.logger.debug(`Loopback sign-in server listening on 127.0.0.1:${port}.`);
        resolve(instance);
      });
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
      this.logger.debug('Loopback sign-in server closed.');
    });
  }
}
