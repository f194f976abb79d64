/**
 * The editor's network: VS Code's extension host routes every `fetch` through the proxy of its
 * settings (http.proxy, else HTTPS_PROXY and HTTP_PROXY; http.noProxy, else NO_PROXY; loopback
 * addresses always directly) and the system's certificates, so the extension installs no dispatcher
 * of its own (one would bypass that for every extension). It only wraps `fetch`, looked up at each
 * call, to name the proxy or certificate problem of a failed call in the editor's words.
 */
import * as vscode from 'vscode';
import { classifiedFetch, type NetworkWording } from '../api/connectionProblems';
import type { FetchFunction } from '../api/httpTransport';
import { bypassesProxy, parseNoProxy, parseProxyUrl } from '../api/proxyRules';

const EDITOR_WORDING: NetworkWording = {
  trustAuthority: () =>
    vscode.l10n.t("To trust a company's certificate authority, add it to the system's certificates: VS Code reads them (setting http.systemCertificates)."),
  proxySetting: () => vscode.l10n.t('Check the setting http.proxy (a user name and password may go into its address) and http.noProxy.'),
};

/** VS Code's proxy resolver sends these directly, whatever the settings: sign-in's loopback page and local servers never meet a proxy. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function environmentProxy(): string | undefined {
  const env = process.env;
  return env.https_proxy || env.HTTPS_PROXY || env.http_proxy || env.HTTP_PROXY || undefined;
}

/** The proxy VS Code sends a call to `target` through, as its settings say (a system or PAC proxy it finds itself is not known here). */
export function editorProxyFor(target: URL): URL | undefined {
  const http = vscode.workspace.getConfiguration('http');
  if (http.get<string>('proxySupport') === 'off' || LOOPBACK.has(target.hostname)) return undefined;
  const noProxy = http.get<string[]>('noProxy') ?? [];
  if (bypassesProxy(target, parseNoProxy(noProxy.length > 0 ? noProxy.join(',') : (process.env.no_proxy || process.env.NO_PROXY)))) return undefined;
  const configured = http.get<string>('proxy')?.trim() || environmentProxy();
  if (!configured) return undefined;
  try {
    return parseProxyUrl(configured, 'http.proxy');
  } catch {
    return undefined;
  }
}

/** The global fetch (VS Code's, with its proxy support), whose proxy and certificate failures say so. */
export const editorFetch: FetchFunction = classifiedFetch((input, init) => fetch(input, init), { proxyFor: editorProxyFor, wording: EDITOR_WORDING });
