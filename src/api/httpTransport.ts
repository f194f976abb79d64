import type { Clock } from '../common/clock';
import { ConnectionProblemError, describeNetworkError } from './connectionProblems';
import type { FetchFunction } from './types';

export type { FetchFunction };

/** Why one exchange ended without a complete response (a proxy or certificate problem: see connectionProblems). */
export type TransportFailure = 'timeout' | 'cancelled' | 'network' | 'proxy' | 'certificate';

/** Why one exchange ended without a complete response. */
export class TransportError extends Error {
  constructor(
    readonly reason: TransportFailure,
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

export interface Exchange {
  response: Response;
  body: Uint8Array;
  /**
   * fetch sent the request twice: the Fetch standard sends a request once more by itself after a 421
   * on its first connection when it can replay the body. We give it no body it can replay, so this
   * happens only to a GET or HEAD (which cannot have one), and a final 421 is then the second one on
   * the wire.
   */
  sentTwice: boolean;
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

/**
 * One HTTP exchange through fetch (the injected one, else the global one the editor routes through the
 * user's proxy settings), with no retries (the client decides about retries, since every attempt must
 * take a rate-limit slot; fetch's own resend after a 421 is reported in `sentTwice` and impossible for
 * a body), no redirect following (the client re-validates the target) and no exception for HTTP error
 * statuses. The time limit covers the body too.
 */
export class HttpTransport {
  constructor(
    private readonly clock: Clock,
    private readonly fetchFunction: FetchFunction = (input, init) => fetch(input, init),
  ) {}

  /**
   * Settles within `timeoutMs`, or at once when `signal` aborts, whatever the server does (no headers,
   * a stalled body, a body that trickles): the wait for the headers and the read of the body are raced
   * against our own timer and abort listener, which reject and cancel the reader. The abort does not
   * only travel through the Request's signal, which undici follows through a weak reference: after a
   * garbage collection it may never arrive (nodejs/undici 4068, 3644).
   */
  async exchange(url: URL, options: ExchangeOptions): Promise<Exchange> {
    if (options.signal?.aborted) throw new TransportError('cancelled', 'cancelled');
    const stop = new ExchangeStop();
    const timer = this.clock.setTimeout(() => stop.end('timeout'), Math.max(1, options.timeoutMs));
    const onAbort = () => stop.end('cancelled');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const init = { method: options.method, ...unreplayableBody(options), redirect: 'manual', signal: stop.controller.signal } as const;
      const response = await stop.race(this.fetchFunction(url, init));
      options.onHeaders?.();
      const body = await stop.race(readBody(response, stop));
      return { response, body, sentTwice: response.status === 421 && !carriesBody(options.method) };
    } catch (error) {
      if (error instanceof TransportError) throw error;
      if (stop.reason) throw stop.error(error);
      if (error instanceof ConnectionProblemError) throw new TransportError(error.errorKind, error.message, error);
      throw new TransportError('network', describeNetworkError(error), error);
    } finally {
      this.clock.clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }
}

const carriesBody = (method: string) => !['GET', 'HEAD'].includes(method.toUpperCase());

/**
 * The body (empty when there is none) as a one-chunk stream with its Content-Length: fetch cannot
 * replay a stream, so it never sends a POST (or any method but GET and HEAD, which take no body)
 * again after a 421, as it does with a string or no body; the server still gets a length, not
 * chunked encoding.
 */
function unreplayableBody(options: ExchangeOptions): { headers: Record<string, string>; body?: ReadableStream<Uint8Array>; duplex?: 'half' } {
  if (!carriesBody(options.method)) return { headers: options.headers };
  const bytes = new TextEncoder().encode(options.body ?? '');
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  // fetch wants `duplex: 'half'` with a stream body (the request is sent before the answer is read).
  return { headers: { ...options.headers, 'content-length': String(bytes.byteLength) }, body, duplex: 'half' };
}

/** The end of one exchange by our side (time limit or cancel): rejects every race and cancels the body. */
class ExchangeStop {
  readonly controller = new AbortController();
  reason: 'timeout' | 'cancelled' | undefined;
  reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private readonly ended: Promise<never>;
  private reject!: (error: TransportError) => void;

  constructor() {
    this.ended = new Promise<never>((_resolve, reject) => (this.reject = reject));
    this.ended.catch(() => undefined);
  }

  end(reason: 'timeout' | 'cancelled'): void {
    if (this.reason) return;
    this.reason = reason;
    this.reject(this.error());
    this.controller.abort();
    this.reader?.cancel().catch(() => undefined);
  }

  error(cause?: unknown): TransportError {
    return this.reason === 'timeout' ? new TransportError('timeout', 'timed out', cause) : new TransportError('cancelled', 'cancelled', cause);
  }

  race<T>(promise: Promise<T>): Promise<T> {
    promise.catch(() => undefined);
    return Promise.race([promise, this.ended]);
  }
}

/** The whole body, read chunk by chunk through a reader the stop can cancel. */
async function readBody(response: Response, stop: ExchangeStop): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  stop.reader = reader;
  if (stop.reason) await reader.cancel().catch(() => undefined);
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.byteLength;
  }
  if (chunks.length === 1) return chunks[0];
  const body = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
