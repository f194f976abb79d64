import type { Clock } from '../common/clock';
import type { Logger } from '../common/logger';
import type { Exchange } from './httpTransport';
import { droppedOnRedirectNote, maskHeaders } from './requestHeaders';
import type { PreparedRequest } from './requestPreparation';
import { SERVICE_LIMIT_INFO_HEADER, parseServiceLimitInfo } from './serviceLimitInfo';
import type { ApiResponse, QuotaReading } from './types';

/** What was sent on the attempt that got the answer. */
export interface SentAttempt {
  method: string;
  url: URL;
  headers: Record<string, string>;
  /** Headers left out after a redirect to another origin (credentials, the user's own headers). */
  droppedHeaders: readonly string[];
  attempts: number;
  /** Monotonic ms of the call's first send (timeMs counts from there, retries included). */
  firstSendAt: number;
}

/** The ApiResponse of one answered exchange: headers, text and JSON, the quota reading, masked request headers. */
export function buildResponse(prepared: PreparedRequest, sent: SentAttempt, exchange: Exchange, clock: Clock, logger: Logger): ApiResponse {
  const { response, body } = exchange;
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  const bodyText = new TextDecoder().decode(body);
  return {
    method: sent.method,
    url: sent.url.href,
    status: response.status,
    statusText: response.statusText,
    headers,
    bodyText,
    json: parseJson(bodyText, headers['content-type']),
    timeMs: clock.monotonic() - sent.firstSendAt,
    sizeBytes: body.byteLength,
    usage: usageOf(prepared, response.headers.get(SERVICE_LIMIT_INFO_HEADER), clock, logger),
    requestHeaders: maskHeaders(sent.headers, prepared.licence?.label),
    ...(prepared.licence ? { licence: { module: prepared.licence.module, label: prepared.licence.label, organization: prepared.licence.organization } } : {}),
    attempts: sent.attempts,
    warnings: sent.droppedHeaders.length > 0 ? [...prepared.warnings, droppedOnRedirectNote(sent.url.host, sent.droppedHeaders)] : [...prepared.warnings],
  };
}

/** The Service-Limit-Info reading, for the organization of the key the call carried. */
function usageOf(prepared: PreparedRequest, value: string | null, clock: Clock, logger: Logger): QuotaReading | undefined {
  const parsed = parseServiceLimitInfo(value, logger);
  if (!parsed) return undefined;
  return {
    organization: prepared.licence?.organization ?? '',
    ...(prepared.licence ? { keyLabel: prepared.licence.label, module: prepared.licence.module } : {}),
    used: parsed.used,
    limit: parsed.limit,
    seenAt: clock.now(),
  };
}

/** The body as JSON when it looks like JSON; undefined otherwise (a non-JSON body is not an error by itself). */
export function parseJson(text: string, contentType: string | undefined): unknown {
  const trimmed = text.trimStart();
  const looksJson = /json/i.test(contentType ?? '') || trimmed.startsWith('{') || trimmed.startsWith('[');
  if (!looksJson || !trimmed) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
