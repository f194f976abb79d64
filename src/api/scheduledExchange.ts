import type { Clock } from '../common/clock';
import { TransportError, type Exchange, type HttpTransport } from './httpTransport';
import type { RequestScheduler } from './requestScheduler';

export interface ScheduledRequest {
  url: URL;
  method: string;
  body?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Built once the slot is granted, right before the request leaves. */
  headers(): Promise<Record<string, string>>;
  /** 1-based position while waiting; 0 when the slot is granted. */
  onPosition?: (position: number) => void;
  /** A retry of a call already in flight: to the head of the queue. */
  front?: boolean;
  /** The request leaves now (monotonic ms), with these headers. */
  onSent?: (at: number, headers: Record<string, string>) => void;
}

/** One exchange in a rate-limit slot: the transport wrapped, as @octokit/plugin-throttling wraps `request`. */
export type ScheduledExchange = (request: ScheduledRequest) => Promise<Exchange>;

/**
 * Acquire a slot, build the headers, send, and tell the scheduler when the answer's headers came
 * (or that the exchange failed, or that nothing was sent after all). Waiting in the queue rejects
 * with the scheduler's ApiError (cancelled, queue full); the exchange rejects with a TransportError.
 */
export function scheduledExchange(scheduler: RequestScheduler, transport: HttpTransport, clock: Clock): ScheduledExchange {
  return async (request) => {
    const slot = await scheduler.acquire({ signal: request.signal, onPosition: request.onPosition, front: request.front });
    let headers: Record<string, string>;
    try {
      headers = await request.headers();
    } catch (error) {
      slot.release();
      throw error;
    }
    if (request.signal?.aborted) {
      slot.release();
      throw new TransportError('cancelled', 'cancelled');
    }
    slot.markSent(request.url.origin);
    request.onSent?.(clock.monotonic(), headers);
    let exchange: Exchange;
    try {
      exchange = await transport.exchange(request.url, {
        method: request.method,
        headers,
        body: request.body,
        timeoutMs: request.timeoutMs,
        signal: request.signal,
        onHeaders: () => slot.markAnswered(),
      });
    } catch (error) {
      slot.markFailed();
      throw error;
    }
    if (exchange.sentTwice) await logResend(scheduler, request.signal);
    return exchange;
  };
}

/**
 * fetch's own resend after a 421 reached the wire too: it takes a slot as well, logged now (its send
 * time is unknown, and now is no earlier than the server counted it). The answer waits for that slot
 * at the head of the queue, so no later call leaves before the log has it.
 */
async function logResend(scheduler: RequestScheduler, signal: AbortSignal | undefined): Promise<void> {
  const resend = await scheduler.acquire({ front: true, signal }).catch(() => undefined);
  resend?.markFailed();
}
