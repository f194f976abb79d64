/**
 * The runner's one way out: every call (sign-in, the device code, tenants, resources, a request
 * file's other addresses) goes through one undici dispatcher that sends each to its proxy or
 * straight to its server (proxyRules), with the run's certificate authorities and client
 * certificate, and fails with a ConnectionProblemError that names the proxy or the certificate
 * problem. Node's own fetch takes the dispatcher (undici 7 runs on Node 20.18 and later, as the
 * editor's own proxy support does). A plain http address goes to an http proxy as a forwarded
 * request (`GET http://host/path`), as curl sends it: proxies often refuse CONNECT to ports other
 * than 443. The dispatcher neither retries nor sends anything twice: the client decides that.
 */
import type * as Undici from 'undici';
import { Agent, Dispatcher, ProxyAgent } from './undiciDispatchers';
import { classifiedFetch, type NetworkWording } from '../api/connectionProblems';
import type { FetchFunction } from '../api/httpTransport';
import { displayProxy, proxyFor } from '../api/proxyRules';
import * as l10n from '../common/l10n';
import type { NetworkOptions } from './networkOptions';
import { NETWORK_VARIABLES } from './networkOptions';

export const CLI_NETWORK_WORDING: NetworkWording = {
  trustAuthority: () => l10n.t('To trust a company\'s certificate authority, name its PEM file in NODE_EXTRA_CA_CERTS, {0} or --ca-file.', NETWORK_VARIABLES.caFile),
  proxySetting: () => l10n.t('Check HTTPS_PROXY and HTTP_PROXY (a user name and password go into the address: http://user:password@host:port), and NO_PROXY for hosts reached directly.'),
};

export interface CliNetwork {
  fetch: FetchFunction;
  /** The proxy a call to `target` goes through, or undefined. */
  proxyFor(target: URL): URL | undefined;
  /** What --verbose says about the network. */
  describe(): string[];
  close(): Promise<void>;
}

/** Sends each request to the agent of its proxy, or to the direct one. */
class ProxyRouter extends Dispatcher {
  constructor(private readonly route: (origin: URL) => Undici.Dispatcher) {
    super();
  }

  override dispatch(options: Undici.Dispatcher.DispatchOptions, handler: Undici.Dispatcher.DispatchHandler): boolean {
    return this.route(new URL(String(options.origin))).dispatch(options, handler);
  }
}

export function cliNetwork(options: NetworkOptions): CliNetwork {
  const direct = new Agent({ connect: options.tls });
  const agents = new Map<string, Undici.ProxyAgent>();
  const agentOf = (proxy: URL): Undici.ProxyAgent => {
    let agent = agents.get(proxy.href);
    if (!agent) {
      agent = new ProxyAgent({
        uri: proxy.href,
        proxyTunnel: false,
        requestTls: options.tls,
        proxyTls: { ...(options.tls.ca ? { ca: options.tls.ca } : {}), rejectUnauthorized: true },
      });
      agents.set(proxy.href, agent);
    }
    return agent;
  };
  const choose = (target: URL) => proxyFor(target, options.proxies);
  const router = new ProxyRouter((origin) => {
    const proxy = choose(origin);
    return proxy ? agentOf(proxy) : direct;
  });
  const send: FetchFunction = (input, init) => fetch(input, { ...init, dispatcher: router } as RequestInit);
  return {
    fetch: classifiedFetch(send, { proxyFor: choose, wording: CLI_NETWORK_WORDING }),
    proxyFor: choose,
    describe: () => describeNetwork(options),
    close: async () => {
      await Promise.all([direct.close(), ...[...agents.values()].map((agent) => agent.close())]);
    },
  };
}

function describeNetwork(options: NetworkOptions): string[] {
  const { httpProxy, httpsProxy, noProxy } = options.proxies;
  const lines = [...options.notes];
  const https = httpsProxy ?? httpProxy;
  lines.push(https ? l10n.t('https addresses through the proxy {0}', displayProxy(https)) : l10n.t('https addresses directly'));
  lines.push(httpProxy ? l10n.t('http addresses through the proxy {0}', displayProxy(httpProxy)) : l10n.t('http addresses directly'));
  if (noProxy === 'all') lines.push(l10n.t('NO_PROXY=*: every address directly'));
  else if (noProxy.length > 0) lines.push(l10n.t('directly (NO_PROXY): {0}', noProxy.map((rule) => (rule.port ? `${rule.host}:${rule.port}` : rule.host)).join(', ')));
  if (options.tls.ca) lines.push(l10n.t('certificate authorities: Node\'s, NODE_EXTRA_CA_CERTS\'s and {0}\'s', NETWORK_VARIABLES.caFile));
  if (options.tls.cert) lines.push(l10n.t('a client certificate for servers that ask for one'));
  return lines;
}
