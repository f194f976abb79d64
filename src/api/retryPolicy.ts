import { UNIT_MS } from './limits';
import type { ServerError } from './serverError';
import { IDEMPOTENT_METHODS, type QuotaReading, type RateLimitUnit } from './types';

/** How one exchange ended, as far as the decision about the next step needs to know. */
export type ExchangeOutcome =
  | { kind: 'failed'; reason: 'timeout' | 'cancelled' | 'network' | 'proxy' | 'certificate' }
  | {
      kind: 'answered';
      status: number;
      server: ServerError;
      usage?: QuotaReading;
      /** The Retry-After header, as sent. */
      retryAfter?: string;
      /** The answer names a Location (a redirect to follow when 3xx). */
      hasLocation: boolean;
    };

/** What the call has been through so far, and the settings that bound it. */
export interface AttemptState {
  /** Retries spent (a token refresh and a redirect spend none). */
  retries: number;
  maxRetries: number;
  /** The token was refreshed once already for this call. */
  refreshed: boolean;
  /** A redirect took the call to a host that got no credentials: its answers do not speak for us. */
  credentialsDropped: boolean;
  /** Multiplies the units of a 429 pause (time-scaled sandbox); 1 in production. */
  timeScale: number;
  safetyMarginMs: number;
  /** 429s this call got that named no limit and said nothing of when the block ends. */
  unnamed429s: number;
}

/** Why a call ends without a response to return: one error constructor each (see outcomeErrors.ts). */
export type GiveUpReason =
  | 'cancelled'
  | 'timeout'
  | 'timeoutNotRetried'
  | 'network'
  | 'networkNotRetried'
  | 'proxy'
  | 'certificate'
  | 'http'
  | 'foreignAskedForCredentials'
  | 'licenceMissing'
  | 'unauthorizedAfterRefresh'
  | 'licenceWrongModule'
  | 'licenceUnknown'
  | 'tenantRefused'
  | 'weeklyQuota'
  | 'rateLimit'
  | 'rateLimitNotRetried';

/** The next step. `why` is for the log. */
export type RetryDecision =
  | { action: 'return'; why: string }
  | { action: 'follow'; why: string }
  | { action: 'retry'; wait: 'backoff' | 'refreshToken'; why: string }
  /** Pause the whole queue for `pauseMs`, then send again (spends a retry). */
  | { action: 'retry'; wait: 'pause'; pauseMs: number; unit: RateLimitUnit; why: string; guessed?: boolean }
  | {
      action: 'giveUp';
      reason: GiveUpReason;
      why: string;
      /** Pause the queue all the same (a 429 for the second or minute holds for every call). */
      pauseMs?: number;
      unit?: RateLimitUnit;
      /** Stop the organization's calls until the user resumes them (weekly 429). */
      stopOrganization?: boolean;
      /** The 429 named no limit and gave no time: `unit` is our guess (see rateLimitUnit). */
      guessed?: boolean;
    };

/** Statuses worth another try of an idempotent call: the server did not process it, or may not have. */
export const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([500, 502, 503, 504]);
const TENANT_ERRORS: ReadonlySet<string> = new Set(['missing_tenant', 'unknown_tenant', 'wrong_cluster']);

type Answered = Extract<ExchangeOutcome, { kind: 'answered' }>;
interface Situation {
  outcome: ExchangeOutcome;
  answer?: Answered;
  attempt: AttemptState;
  idempotent: boolean;
  canRetry: boolean;
}

interface Rule {
  /** Why the rule is there (also the `why` of its decision). */
  why: string;
  applies(s: Situation): boolean;
  decide(s: Situation, why: string): RetryDecision;
}

const failed = (s: Situation, reason?: string) => s.outcome.kind === 'failed' && (reason === undefined || s.outcome.reason === reason);
const status = (s: Situation) => s.answer?.status ?? 0;
const code = (s: Situation) => s.answer?.server.error;
const giveUp = (reason: GiveUpReason, why: string): RetryDecision => ({ action: 'giveUp', reason, why });

/**
 * The rules, first match wins. Only idempotent methods (RFC 9110 9.2.2) are sent again after a
 * failure the server may have processed; a 401 was not processed, so it is retried for every method.
 */
export const RETRY_RULES: readonly Rule[] = [
  { why: 'the caller cancelled the call', applies: (s) => failed(s, 'cancelled'), decide: (_s, why) => giveUp('cancelled', why) },
  {
    why: 'the proxy could not be reached, wants credentials or refused: nothing reached the server, and sending again meets the same proxy',
    applies: (s) => failed(s, 'proxy'),
    decide: (_s, why) => giveUp('proxy', why),
  },
  {
    why: "the server's certificate is not trusted: nothing was sent, and sending again meets the same certificate",
    applies: (s) => failed(s, 'certificate'),
    decide: (_s, why) => giveUp('certificate', why),
  },
  {
    why: 'the connection failed or timed out; an idempotent call may be sent again',
    applies: (s) => failed(s) && s.canRetry,
    decide: (_s, why) => ({ action: 'retry', wait: 'backoff', why }),
  },
  {
    why: 'the call timed out; a non-idempotent call may have taken effect, so it is not sent again',
    applies: (s) => failed(s, 'timeout'),
    decide: (s, why) => giveUp(s.idempotent ? 'timeout' : 'timeoutNotRetried', why),
  },
  {
    why: 'the connection failed, and the retries are spent or the method is not idempotent',
    applies: (s) => failed(s),
    decide: (s, why) => giveUp(s.idempotent ? 'network' : 'networkNotRetried', why),
  },
  { why: 'success', applies: (s) => status(s) >= 200 && status(s) < 300, decide: (_s, why) => ({ action: 'return', why }) },
  {
    why: 'a redirect: followed after the target is checked',
    applies: (s) => status(s) >= 300 && status(s) < 400 && s.answer!.hasLocation,
    decide: (_s, why) => ({ action: 'follow', why }),
  },
  { why: 'a 3xx without Location is an answer', applies: (s) => status(s) >= 300 && status(s) < 400, decide: (_s, why) => ({ action: 'return', why }) },
  {
    why: 'a host that got no credentials asked for them; they are not sent to it',
    applies: (s) => s.attempt.credentialsDropped && status(s) === 401,
    decide: (_s, why) => giveUp('foreignAskedForCredentials', why),
  },
  {
    why: 'a transient server error; an idempotent call may be sent again',
    applies: (s) => TRANSIENT_STATUSES.has(status(s)) && s.canRetry,
    decide: (_s, why) => ({ action: 'retry', wait: 'backoff', why }),
  },
  { why: 'a server error, not retried', applies: (s) => TRANSIENT_STATUSES.has(status(s)), decide: (_s, why) => giveUp('http', why) },
  {
    why: 'a host that got no credentials does not speak for our licence, tenant or limits',
    applies: (s) => s.attempt.credentialsDropped,
    decide: (_s, why) => giveUp('http', why),
  },
  { why: 'the server wants a licence key', applies: (s) => status(s) === 401 && code(s) === 'missing_licence_key', decide: (_s, why) => giveUp('licenceMissing', why) },
  { why: 'the token was refused after a refresh', applies: (s) => status(s) === 401 && s.attempt.refreshed, decide: (_s, why) => giveUp('unauthorizedAfterRefresh', why) },
  {
    why: 'the token was refused: refresh it once and send again (a 401 was not processed)',
    applies: (s) => status(s) === 401,
    decide: (_s, why) => ({ action: 'retry', wait: 'refreshToken', why }),
  },
  { why: 'the key belongs to another module', applies: (s) => code(s) === 'licence_module_mismatch', decide: (_s, why) => giveUp('licenceWrongModule', why) },
  { why: 'the server does not know the key', applies: (s) => code(s) === 'unknown_licence_key', decide: (_s, why) => giveUp('licenceUnknown', why) },
  { why: 'the server refused the tenant', applies: (s) => TENANT_ERRORS.has(code(s) ?? ''), decide: (_s, why) => giveUp('tenantRefused', why) },
  {
    why: 'the weekly limit is used up: the organization stops until resumed',
    applies: (s) => status(s) === 429 && unitOf(s) === 'week',
    decide: (_s, why) => ({ ...giveUp('weeklyQuota', why), unit: 'week', stopOrganization: true }),
  },
  {
    why: 'a rate limit: pause the queue for the unit, then send an idempotent call again',
    applies: (s) => status(s) === 429 && s.canRetry,
    decide: (s, why) => ({ action: 'retry', wait: 'pause', pauseMs: pauseOf(s), unit: unitOf(s), why, ...guessOf(s) }),
  },
  {
    why: 'a rate limit: pause the queue; the retries are spent or the method is not idempotent',
    applies: (s) => status(s) === 429,
    decide: (s, why) => ({ ...giveUp(s.idempotent ? 'rateLimit' : 'rateLimitNotRetried', why), pauseMs: pauseOf(s), unit: unitOf(s), ...guessOf(s) }),
  },
  { why: 'any other error status', applies: () => true, decide: (_s, why) => giveUp('http', why) },
];

function unitOf(s: Situation): RateLimitUnit {
  return rateLimitUnit(s.answer!.server, s.answer!.usage, { retryAfter: s.answer!.retryAfter, repeats: s.attempt.unnamed429s });
}

function guessOf(s: Situation): { guessed?: true } {
  const answer = s.answer!;
  return isGuess(answer.server, answer.usage, answer.retryAfter) ? { guessed: true } : {};
}

function pauseOf(s: Situation): number {
  const answer = s.answer!;
  return pauseAfter429(unitOf(s), answer.server, answer.retryAfter, s.attempt.timeScale) + Math.max(0, s.attempt.safetyMarginMs);
}

/** What to do after one exchange of a call: return, follow a redirect, send again (after what), or give up (why). */
export function retryPolicy(outcome: ExchangeOutcome, attempt: AttemptState, method: string): RetryDecision {
  const idempotent = IDEMPOTENT_METHODS.has(method.toUpperCase());
  const situation: Situation = {
    outcome,
    answer: outcome.kind === 'answered' ? outcome : undefined,
    attempt,
    idempotent,
    canRetry: idempotent && attempt.retries < attempt.maxRetries,
  };
  const rule = RETRY_RULES.find((candidate) => candidate.applies(situation))!;
  return rule.decide(situation, rule.why);
}

/**
 * How long the queue waits after a 429 for `unit`: the whole unit (the block lasts until the unit
 * has elapsed from the window's first request, which we may not have sent), or less when the server
 * says when the block ends (body retryAfterMs, or the Retry-After header).
 */
export function pauseAfter429(unit: RateLimitUnit, server: ServerError, retryAfterHeader: string | undefined, timeScale = 1): number {
  const unitMs = UNIT_MS[unit] * timeScale;
  const seconds = retryAfterSeconds(retryAfterHeader);
  const headerSeconds = seconds === undefined ? undefined : seconds * 1000;
  const hint = server.retryAfterMs ?? headerSeconds;
  return hint === undefined ? unitMs : Math.min(unitMs, hint);
}

/**
 * The unit the 429 names. When it names none: the weekly limit if the usage shows it; the minute if
 * the server says when the block ends (that time bounds the pause); otherwise a guess, the smallest
 * unit first (the spec lifts a block once the smallest exceeded unit has elapsed from the window's
 * first request), and the minute when the same call is refused so again (`repeats`).
 */
export function rateLimitUnit(
  server: ServerError,
  usage: QuotaReading | undefined,
  options: { retryAfter?: string; repeats?: number } = {},
): RateLimitUnit {
  const named = server.limit?.toLowerCase();
  if (named === 'second' || named === 'minute' || named === 'week') return named;
  if (usage && usage.used >= usage.limit) return 'week';
  if (!isGuess(server, usage, options.retryAfter)) return 'minute';
  return (options.repeats ?? 0) > 0 ? 'minute' : 'second';
}

/** A 429 that names no limit, shows no used-up quota and says nothing of when the block ends. */
function isGuess(server: ServerError, usage: QuotaReading | undefined, retryAfter: string | undefined): boolean {
  const named = ['second', 'minute', 'week'].includes(server.limit?.toLowerCase() ?? '');
  const weekly = usage !== undefined && usage.used >= usage.limit;
  return !named && !weekly && server.retryAfterMs === undefined && retryAfterSeconds(retryAfter) === undefined;
}

function retryAfterSeconds(header: string | undefined): number | undefined {
  return header !== undefined && /^\s*\d+\s*$/.test(header) ? Number(header) : undefined;
}
