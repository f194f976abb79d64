/**
 * The failures of a call that are about the network between us and the server, not the server: a
 * proxy that cannot be reached, wants credentials or refuses the call, and a server certificate this
 * process does not trust. Each front end wraps its fetch with classifiedFetch, naming the proxy a call
 * takes (the command line knows it exactly; the editor from its http.proxy settings) and its own words
 * for what the user can do; the client, sign-in and the request engine then see a
 * ConnectionProblemError and give up at once (sending again meets the same proxy or certificate).
 */
import * as l10n from '../common/l10n';
import type { FetchFunction } from './types';
import { displayProxy } from './proxyRules';

export type CertificateProblem = 'selfSigned' | 'unknownAuthority' | 'expired' | 'notYetValid' | 'wrongHost' | 'other';

export type ConnectionProblem =
  | { kind: 'proxyUnreachable'; proxy: string; reason: string }
  | { kind: 'proxyCredentials'; proxy: string }
  | { kind: 'proxyRefused'; proxy: string; status: number; host: string }
  | { kind: 'certificate'; problem: CertificateProblem; host: string; code: string };

/** OpenSSL's and Node's codes, by what they mean to the user. */
const CERTIFICATE_CODES: Readonly<Record<string, CertificateProblem>> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'selfSigned',
  SELF_SIGNED_CERT_IN_CHAIN: 'unknownAuthority',
  UNABLE_TO_GET_ISSUER_CERT: 'unknownAuthority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'unknownAuthority',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'unknownAuthority',
  CERT_UNTRUSTED: 'unknownAuthority',
  CERT_HAS_EXPIRED: 'expired',
  CERT_NOT_YET_VALID: 'notYetValid',
  ERR_TLS_CERT_ALTNAME_INVALID: 'wrongHost',
  HOSTNAME_MISMATCH: 'wrongHost',
  CERT_REVOKED: 'other',
  CERT_SIGNATURE_FAILURE: 'other',
  CERT_REJECTED: 'other',
  INVALID_CA: 'other',
};

/** Failures to open a connection: with a proxy, the connection that failed is the one to the proxy. */
const CONNECT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** undici's words for a proxy's refusal: of a tunnel (CONNECT), or of a forwarded request (407). */
const TUNNEL_REFUSED = /Proxy response \((\d{3})\) !== 200/;
const FORWARD_407 = /Proxy Authentication Required \(407\)/;

/** The error and its causes, outermost first. */
function causes(error: unknown): Array<{ code?: string; message?: string }> {
  const chain: Array<{ code?: string; message?: string }> = [];
  for (let current = error; current && typeof current === 'object' && chain.length < 8; current = (current as { cause?: unknown }).cause) {
    chain.push(current as { code?: string; message?: string });
  }
  return chain;
}

/** What went wrong between us and `target`'s server, or undefined when it is not a network problem of this kind. */
export function connectionProblem(error: unknown, target: URL, proxy: URL | undefined): ConnectionProblem | undefined {
  const chain = causes(error);
  for (const link of chain) {
    const certificate = typeof link.code === 'string' ? CERTIFICATE_CODES[link.code] : undefined;
    if (certificate) return { kind: 'certificate', problem: certificate, host: target.host, code: link.code! };
  }
  if (!proxy) return undefined;
  const shown = displayProxy(proxy);
  for (const link of chain) {
    const message = String(link.message ?? '');
    if (FORWARD_407.test(message)) return { kind: 'proxyCredentials', proxy: shown };
    const refused = TUNNEL_REFUSED.exec(message);
    if (refused) {
      const status = Number(refused[1]);
      return status === 407 ? { kind: 'proxyCredentials', proxy: shown } : { kind: 'proxyRefused', proxy: shown, status, host: target.host };
    }
    if (typeof link.code === 'string' && CONNECT_CODES.has(link.code)) return { kind: 'proxyUnreachable', proxy: shown, reason: describeNetworkError(error) };
  }
  return undefined;
}

/** What the user can do, in the words of the front end (which variables or settings to look at). */
export interface NetworkWording {
  /** How to trust a company's certificate authority. */
  trustAuthority(): string;
  /** Where the proxy and its credentials are set. */
  proxySetting(): string;
}

function certificateReason(problem: CertificateProblem, code: string): string {
  switch (problem) {
    case 'selfSigned':
      return l10n.t('it is self-signed (no certificate authority vouches for it)');
    case 'unknownAuthority':
      return l10n.t('it is signed by a certificate authority that is not trusted here (a company\'s own authority, or a proxy that inspects TLS)');
    case 'expired':
      return l10n.t('it has expired');
    case 'notYetValid':
      return l10n.t('it is not valid yet (check the clock of this machine)');
    case 'wrongHost':
      return l10n.t('it was issued for another host name');
    case 'other':
      return l10n.t('it was refused ({0})', code);
  }
}

/** One sentence: what went wrong, then what to do about it. */
export function problemSentence(problem: ConnectionProblem, wording: NetworkWording): string {
  switch (problem.kind) {
    case 'proxyUnreachable':
      return l10n.t('The proxy {0} could not be reached: {1}. {2}', problem.proxy, problem.reason, wording.proxySetting());
    case 'proxyCredentials':
      return l10n.t('The proxy {0} wants credentials (407 Proxy Authentication Required): the user name and password were missing or refused. {1}', problem.proxy, wording.proxySetting());
    case 'proxyRefused':
      return l10n.t('The proxy {0} did not connect to {1}: it answered {2}.', problem.proxy, problem.host, problem.status);
    case 'certificate': {
      const reason = certificateReason(problem.problem, problem.code);
      const advice = problem.problem === 'expired' || problem.problem === 'wrongHost' ? l10n.t('The server needs a valid certificate for {0}; certificate checks are never turned off.', problem.host) : wording.trustAuthority();
      return l10n.t('The certificate of {0} is not trusted: {1}. {2}', problem.host, reason, advice);
    }
  }
}

/** A call that failed for one of the problems above; `message` is the problem's sentence. */
export class ConnectionProblemError extends Error {
  override readonly name = 'ConnectionProblemError';
  constructor(
    readonly problem: ConnectionProblem,
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }

  /** The client's error kind for it. */
  get errorKind(): 'proxy' | 'certificate' {
    return this.problem.kind === 'certificate' ? 'certificate' : 'proxy';
  }
}

/** The ConnectionProblemError in an error's causes, if any. */
export function connectionProblemOf(error: unknown): ConnectionProblemError | undefined {
  for (let current = error, depth = 0; current && depth < 8; current = (current as { cause?: unknown }).cause, depth++) {
    if (current instanceof ConnectionProblemError) return current;
  }
  return undefined;
}

function urlOf(input: Request | URL | string): URL {
  return new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
}

/**
 * `fetch` whose network problems of the kinds above reject with a ConnectionProblemError. A 407 is
 * one too: only a proxy sends it, and undici may hand it over as a response.
 */
export function classifiedFetch(fetch: FetchFunction, network: { proxyFor(target: URL): URL | undefined; wording: NetworkWording }): FetchFunction {
  return async (input, init) => {
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (error) {
      const target = urlOf(input);
      const problem = connectionProblem(error, target, network.proxyFor(target));
      if (problem) throw new ConnectionProblemError(problem, problemSentence(problem, network.wording), error);
      throw error;
    }
    if (response.status === 407) {
      const proxy = network.proxyFor(urlOf(input));
      if (proxy) {
        void response.body?.cancel().catch(() => undefined);
        const problem: ConnectionProblem = { kind: 'proxyCredentials', proxy: displayProxy(proxy) };
        throw new ConnectionProblemError(problem, problemSentence(problem, network.wording));
      }
    }
    return response;
  };
}

/** "connection reset (ECONNRESET)" rather than fetch's bare "fetch failed". */
export function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const code = cause?.code ?? (error as { code?: string })?.code;
  const known: Record<string, string> = {
    ECONNRESET: 'the connection was reset',
    ECONNREFUSED: 'the connection was refused',
    ENOTFOUND: 'the host name could not be resolved',
    ETIMEDOUT: 'the connection timed out',
    UND_ERR_SOCKET: 'the connection was closed unexpectedly',
    EPIPE: 'the connection was closed unexpectedly',
    CERT_HAS_EXPIRED: 'the server certificate has expired',
  };
  if (code && known[code]) return `${known[code]} (${code})`;
  const message = cause?.message ?? (error instanceof Error ? error.message : String(error));
  return code ? `${message} (${code})` : message;
}
