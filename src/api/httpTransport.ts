import type { KyInstance } from 'ky' with { 'resolution-mode': 'import' };
import type { Clock } from '../common/clock';

export type FetchFunction = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

/** Why one exchange ended without a complete response. */
export class TransportError extends Error {
  constructor(
    readonly reason: 'timeout' | 'cancelled' | 'network',
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

export interface Exchange {
  response: Response;
  body: Uint8Array;
}

export interface ExchangeOptions {
  method: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called when the response headers have arrived, before the body is read. */
  onHeaders?: () => void;
}

let kyModule: Promise<KyInstance> | undefined;

/** ky 1.x is an ES module; the extension is CommonJS, so it is loaded once with import(). */
function loadKy(): Promise<KyInstance> {
  kyModule ??= import('ky').then((module) => module.default);
  return kyModule;
}

/**
 * One HTTP exchange through ky, with no retries of its own (the client decides about retries, since
 * every attempt must take a rate-limit slot), no redirect following (the client re-validates the
 * target) and no exception for HTTP error statuses. The time limit covers the body too.
 */
export class HttpTransport {
  private ky: KyInstance | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly fetchFunction?: FetchFunction,
  ) {}

  async ready(): Promise<void> {
    if (this.ky) return;
    const ky = await loadKy();
    this.ky = ky.create({
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
      redirect: 'manual',
      ...(this.fetchFunction ? { fetch: this.fetchFunction } : {}),
    });
  }

  async exchange(url: URL, options: ExchangeOptions): Promise<Exchange> {
    await this.ready();
    const timeout = new AbortController();
    const signals = options.signal ? [options.signal, timeout.signal] : [timeout.signal];
    const timer = this.clock.setTimeout(() => timeout.abort(), Math.max(1, options.timeoutMs));
    try {
      const response = await this.ky!(url, {
        method: options.method,
        headers: options.headers,
        body: options.body,
        signal: signals.length === 1 ? signals[0] : AbortSignal.any(signals),
      });
      options.onHeaders?.();
      const body = new Uint8Array(await response.arrayBuffer());
      return { response, body };
    } catch (error) {
      if (options.signal?.aborted) throw new TransportError('cancelled', 'cancelled', error);
      if (timeout.signal.aborted) throw new TransportError('timeout', 'timed out', error);
      throw new TransportError('network', describeNetworkError(error), error);
    } finally {
      this.clock.clearTimeout(timer);
    }
  }
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
