/**
 * undici's dispatcher classes, read from their own files rather than from its index: the index also
 * loads undici's fetch, WebSocket, caches, cookies and mocks (a third of the runner's bundle), none of
 * which the runner uses: it sends with Node's fetch through these dispatchers.
 */
import type * as Undici from 'undici';

const Dispatcher = require('undici/lib/dispatcher/dispatcher') as typeof Undici.Dispatcher;
// What the index adds to every dispatcher (request, connect, ...): a ProxyAgent opens its tunnels with `connect`.
Object.assign(Dispatcher.prototype, require('undici/lib/api'));

export { Dispatcher };
export const Agent = require('undici/lib/dispatcher/agent') as typeof Undici.Agent;
export const ProxyAgent = require('undici/lib/dispatcher/proxy-agent') as typeof Undici.ProxyAgent;
