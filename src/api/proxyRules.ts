/**
 * Which proxy a call goes through, by the rules of HTTPS_PROXY, HTTP_PROXY and NO_PROXY as undici's
 * EnvHttpProxyAgent and curl read them: the lower-case variable before the upper-case one; an https
 * address takes HTTPS_PROXY, else HTTP_PROXY; NO_PROXY lists hosts, domains (`.example.com`,
 * `*.example.com` or `example.com`, each with its subdomains), `host:port`, or `*` for every host.
 * Pure: the command line routes its calls with it, and both front ends name the proxy of a failed call.
 */

export interface ProxySettings {
  httpProxy?: URL;
  httpsProxy?: URL;
  noProxy: NoProxyRules;
}

/** `all` for NO_PROXY=*; otherwise its entries. */
export type NoProxyRules = 'all' | ReadonlyArray<{ host: string; port?: number }>;

/** A proxy variable that does not hold a usable proxy address; `variable` names it (the value may hold a password). */
export class ProxySettingError extends Error {
  constructor(
    readonly variable: string,
    readonly reason: 'notUrl' | 'scheme',
  ) {
    super(`${variable}: ${reason}`);
  }
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** The first non-empty value of the names, in order. */
function variable(env: NodeJS.ProcessEnv, names: readonly string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

/** A proxy address; `proxy.corp:8080` without a scheme is taken as http, as curl does. */
export function parseProxyUrl(text: string, name: string): URL {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
  } catch {
    throw new ProxySettingError(name, 'notUrl');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ProxySettingError(name, 'scheme');
  if (!url.hostname) throw new ProxySettingError(name, 'notUrl');
  return url;
}

/** NO_PROXY's entries, separated by commas or spaces. */
export function parseNoProxy(text: string | undefined): NoProxyRules {
  const entries = (text ?? '').split(/[\s,]+/).filter(Boolean);
  if (entries.includes('*')) return 'all';
  return entries.map((entry) => {
    const withPort = /^(\[[^\]]*\]|[^:]*):(\d+)$/.exec(entry);
    const host = (withPort ? withPort[1] : entry).replace(/^\*?\./, '');
    return { host: normalHost(host), ...(withPort ? { port: Number(withPort[2]) } : {}) };
  });
}

/** Lower case, without a trailing dot or IPv6 brackets. */
function normalHost(host: string): string {
  return host.toLowerCase().replace(/\.$/, '').replace(/^\[(.*)\]$/, '$1');
}

export function proxySettingsFromEnvironment(env: NodeJS.ProcessEnv): ProxySettings {
  const http = variable(env, ['http_proxy', 'HTTP_PROXY']);
  const https = variable(env, ['https_proxy', 'HTTPS_PROXY']);
  const noProxy = variable(env, ['no_proxy', 'NO_PROXY']);
  return {
    ...(http ? { httpProxy: parseProxyUrl(http.value, http.name) } : {}),
    ...(https ? { httpsProxy: parseProxyUrl(https.value, https.name) } : {}),
    noProxy: parseNoProxy(noProxy?.value),
  };
}

/** Whether NO_PROXY sends `target` straight to its server. */
export function bypassesProxy(target: URL, rules: NoProxyRules): boolean {
  if (rules === 'all') return true;
  const host = normalHost(target.hostname);
  const port = Number(target.port) || DEFAULT_PORTS[target.protocol] || 0;
  return rules.some((rule) => (rule.port === undefined || rule.port === port) && (host === rule.host || host.endsWith(`.${rule.host}`)));
}

/** The proxy `target` goes through, or undefined for a direct connection. */
export function proxyFor(target: URL, settings: ProxySettings): URL | undefined {
  const proxy = target.protocol === 'https:' ? (settings.httpsProxy ?? settings.httpProxy) : target.protocol === 'http:' ? settings.httpProxy : undefined;
  if (!proxy || bypassesProxy(target, settings.noProxy)) return undefined;
  return proxy;
}

/** The proxy as it may be shown: scheme, host and port, never its user name or password. */
export function displayProxy(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}
