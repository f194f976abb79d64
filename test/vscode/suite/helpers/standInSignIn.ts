// A stand-in for an OAuth sign-in page (login form, then consent, then a redirect), served from the
// extension host, to check the runner's sign-in robot without the sandbox. Not an OAuth server.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInSignIn {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  /** The credentials the form received, in order. */
  logins: Array<{ username: string; password: string }>;
  consents: number;
  /** The query of each /connect/authorize request, as received. */
  authorizeQueries: URLSearchParams[];
  /** Paths requested, in order (query strings dropped). */
  paths: string[];
  /** Resolves when the final redirect target (/done) was loaded, with its query. */
  done: Promise<URLSearchParams>;
  close(): Promise<void>;
}

const page = (body: string) => `<!doctype html><html><head><title>Stand-in sign-in</title></head><body>${body}</body></html>`;

export async function startStandInSignIn(): Promise<StandInSignIn> {
  let finish: (query: URLSearchParams) => void = () => undefined;
  const state: StandInSignIn = {
    url: '',
    port: 0,
    logins: [],
    consents: 0,
    authorizeQueries: [],
    paths: [],
    done: new Promise((resolve) => (finish = resolve)),
    close: async () => undefined,
  };
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    state.paths.push(`${request.method} ${url.pathname}`);
    const html = (body: string) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(page(body));
    };
    const redirect = (location: string) => {
      response.writeHead(303, { location });
      response.end();
    };
    const readForm = (then: (form: URLSearchParams) => void) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => then(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    };
    if (url.pathname === '/connect/authorize') {
      state.authorizeQueries.push(url.searchParams);
    }
    if (url.pathname === '/connect/authorize') return redirect(`/interaction/abc?state=${encodeURIComponent(url.searchParams.get('state') ?? '')}`);
    if (url.pathname === '/interaction/abc' && request.method === 'GET') {
      return html(`<form method="post" action="/interaction/abc/login?${url.searchParams}"><input name="username"><input type="password" name="password"><button type="submit">Sign in</button></form>`);
    }
    if (url.pathname === '/interaction/abc/login' && request.method === 'POST') {
      return readForm((form) => {
        state.logins.push({ username: form.get('username') ?? '', password: form.get('password') ?? '' });
        redirect(`/interaction/abc/consent?${url.searchParams}`);
      });
    }
    if (url.pathname === '/interaction/abc/consent' && request.method === 'GET') {
      return html(`<p>Allow the app?</p><form method="post" action="/interaction/abc/confirm?${url.searchParams}"><button type="submit">Continue</button></form><a href="/abort">Cancel</a>`);
    }
    if (url.pathname === '/interaction/abc/confirm' && request.method === 'POST') {
      state.consents++;
      return redirect(`/done?code=stand-in-code&state=${encodeURIComponent(url.searchParams.get('state') ?? '')}`);
    }
    if (url.pathname === '/done') {
      finish(url.searchParams);
      return html('<p>Done. You can close this tab.</p>');
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  state.url = `http://127.0.0.1:${state.port}`;
  state.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
