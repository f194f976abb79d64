import { crossOriginHeaders } from './requestHeaders';
import { headersFor, type PreparedRequest } from './requestPreparation';
import type { Hop } from './redirects';
import type { SentAttempt } from './responseBuilder';
import type { AttemptState } from './retryPolicy';
import type { ServerError } from './serverError';
import type { ApiErrorDetails, ApiResponse } from './types';

/** Where one call stands: the hop it is on, what it has spent (attempts, retries, redirects, the refresh). */
export class CallProgress {
  hop: Hop;
  attempts = 0;
  retries = 0;
  redirects = 0;
  refreshed = false;
  /** 429s that named no limit and gave no time (the pause grows when they repeat). */
  unnamed429s = 0;
  private firstSendAt: number | undefined;
  private sentHeaders: Record<string, string> = {};
  /** The headers the current hop leaves out (after a redirect to another origin). */
  private dropped: string[] = [];

  constructor(readonly prepared: PreparedRequest) {
    this.hop = { method: prepared.method, url: prepared.url, body: prepared.body, withCredentials: true };
  }

  details(): ApiErrorDetails {
    const { method, url } = this.hop;
    return { method, url: url.href, attempts: this.attempts, module: this.prepared.route.module, organization: this.prepared.licence?.organization };
  }

  /** The details of an error about an answer (the response goes with it, so the UI can still show it). */
  answerDetails(response: ApiResponse, server: ServerError): ApiErrorDetails {
    return {
      ...this.details(),
      status: response.status,
      serverError: server.error,
      serverMessage: server.message,
      bodyText: response.bodyText.slice(0, 4000),
      usage: response.usage,
      response,
    };
  }

  attemptState(maxRetries: number, timeScale: number, safetyMarginMs: number): AttemptState {
    return { retries: this.retries, maxRetries, refreshed: this.refreshed, credentialsDropped: !this.hop.withCredentials, timeScale, safetyMarginMs, unnamed429s: this.unnamed429s };
  }

  headers(token: string): Record<string, string> {
    const headers = headersFor(this.prepared, token);
    if (this.hop.withCredentials) {
      this.dropped = [];
      return headers;
    }
    const crossOrigin = crossOriginHeaders(headers, Object.keys(this.prepared.extra));
    this.dropped = crossOrigin.dropped;
    return crossOrigin.headers;
  }

  sent(at: number, headers: Record<string, string>): void {
    this.attempts++;
    this.firstSendAt ??= at;
    this.sentHeaders = headers;
  }

  /** The attempt that got the answer. */
  lastSent(): SentAttempt {
    return {
      method: this.hop.method,
      url: this.hop.url,
      headers: this.sentHeaders,
      droppedHeaders: this.dropped,
      attempts: this.attempts,
      firstSendAt: this.firstSendAt ?? 0,
    };
  }
}
