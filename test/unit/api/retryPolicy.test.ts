import * as assert from 'node:assert/strict';
import { RETRY_RULES, retryPolicy, type AttemptState, type ExchangeOutcome, type RetryDecision } from '../../../src/api/retryPolicy';
import type { ServerError } from '../../../src/api/serverError';

const fresh: AttemptState = { retries: 0, maxRetries: 2, refreshed: false, credentialsDropped: false, timeScale: 1, safetyMarginMs: 5, unnamed429s: 0 };
const failed = (reason: 'timeout' | 'cancelled' | 'network' | 'proxy' | 'certificate'): ExchangeOutcome => ({ kind: 'failed', reason });
const answered = (status: number, server: ServerError = {}, extra: Partial<Extract<ExchangeOutcome, { kind: 'answered' }>> = {}): ExchangeOutcome => ({
  kind: 'answered',
  status,
  server,
  hasLocation: false,
  ...extra,
});
const spent: Partial<AttemptState> = { retries: 2 };
const limited = (limit?: string, retryAfterMs?: number) => ({ error: 'rate_limit_exceeded', ...(limit ? { limit } : {}), ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });

/** [case, outcome, attempt, method, the decision's fields that matter] */
const TABLE: Array<[string, ExchangeOutcome, Partial<AttemptState>, string, Partial<RetryDecision> & Record<string, unknown>]> = [
  // transport failures
  ['cancel ends a GET', failed('cancelled'), {}, 'GET', { action: 'giveUp', reason: 'cancelled' }],
  ['cancel ends a POST', failed('cancelled'), {}, 'POST', { action: 'giveUp', reason: 'cancelled' }],
  ['a timed-out GET is retried after a backoff', failed('timeout'), {}, 'GET', { action: 'retry', wait: 'backoff' }],
  ['a proxy that cannot be reached ends a GET with retries left: no second send', failed('proxy'), {}, 'GET', { action: 'giveUp', reason: 'proxy' }],
  ['a proxy problem ends a POST', failed('proxy'), {}, 'POST', { action: 'giveUp', reason: 'proxy' }],
  ['an untrusted certificate ends a GET with retries left', failed('certificate'), {}, 'GET', { action: 'giveUp', reason: 'certificate' }],
  ['a reset PUT is retried after a backoff', failed('network'), {}, 'PUT', { action: 'retry', wait: 'backoff' }],
  ['a timed-out GET gives up when the retries are spent', failed('timeout'), spent, 'GET', { action: 'giveUp', reason: 'timeout' }],
  ['a timed-out POST is never sent again', failed('timeout'), {}, 'POST', { action: 'giveUp', reason: 'timeoutNotRetried' }],
  ['a reset GET gives up when the retries are spent', failed('network'), spent, 'GET', { action: 'giveUp', reason: 'network' }],
  ['a reset PATCH is never sent again', failed('network'), {}, 'PATCH', { action: 'giveUp', reason: 'networkNotRetried' }],
  ['no retries allowed at all', failed('network'), { maxRetries: 0 }, 'GET', { action: 'giveUp', reason: 'network' }],
  // answers
  ['200 is returned', answered(200), {}, 'GET', { action: 'return' }],
  ['204 after a POST is returned', answered(204), {}, 'POST', { action: 'return' }],
  ['a redirect with Location is followed', answered(302, {}, { hasLocation: true }), {}, 'GET', { action: 'follow' }],
  ['a 307 after a POST is followed (the hop decides about the body)', answered(307, {}, { hasLocation: true }), {}, 'POST', { action: 'follow' }],
  ['a 304 without Location is returned', answered(304), {}, 'GET', { action: 'return' }],
  // transient 5xx
  ['503 on a GET is retried after a backoff', answered(503), {}, 'GET', { action: 'retry', wait: 'backoff' }],
  ['502 on a DELETE is retried', answered(502), {}, 'DELETE', { action: 'retry', wait: 'backoff' }],
  ['503 on a POST is not', answered(503), {}, 'POST', { action: 'giveUp', reason: 'http' }],
  ['500 gives up when the retries are spent', answered(500), spent, 'GET', { action: 'giveUp', reason: 'http' }],
  ['501 is not transient', answered(501), {}, 'GET', { action: 'giveUp', reason: 'http' }],
  // 401
  ['a 401 refreshes the token once, for a GET', answered(401, { error: 'invalid_token' }), {}, 'GET', { action: 'retry', wait: 'refreshToken' }],
  ['a 401 refreshes the token once, for a POST too (not processed)', answered(401, { error: 'invalid_token' }), {}, 'POST', { action: 'retry', wait: 'refreshToken' }],
  ['a 401 refreshes even with no retries left', answered(401), spent, 'GET', { action: 'retry', wait: 'refreshToken' }],
  ['a second 401 asks to sign in again', answered(401, { error: 'invalid_token' }), { refreshed: true }, 'GET', { action: 'giveUp', reason: 'unauthorizedAfterRefresh' }],
  ['a 401 for a missing key is not a token problem', answered(401, { error: 'missing_licence_key' }), {}, 'GET', { action: 'giveUp', reason: 'licenceMissing' }],
  // licence and tenant
  ['a key of another module', answered(403, { error: 'licence_module_mismatch' }), {}, 'GET', { action: 'giveUp', reason: 'licenceWrongModule' }],
  ['an unknown key', answered(403, { error: 'unknown_licence_key' }), {}, 'GET', { action: 'giveUp', reason: 'licenceUnknown' }],
  ['a missing tenant', answered(400, { error: 'missing_tenant' }), {}, 'GET', { action: 'giveUp', reason: 'tenantRefused' }],
  ['an unknown tenant', answered(403, { error: 'unknown_tenant' }), {}, 'GET', { action: 'giveUp', reason: 'tenantRefused' }],
  ['the wrong cluster', answered(421, { error: 'wrong_cluster' }), {}, 'GET', { action: 'giveUp', reason: 'tenantRefused' }],
  // 429 per unit
  ['a 429 for the second pauses a second (plus the margin) and retries a GET', answered(429, limited('second')), {}, 'GET', { action: 'retry', wait: 'pause', pauseMs: 1005, unit: 'second' }],
  ['a 429 for the minute pauses a minute and retries a GET', answered(429, limited('minute')), {}, 'GET', { action: 'retry', wait: 'pause', pauseMs: 60_005, unit: 'minute' }],
  ['the server says when the block ends', answered(429, limited('minute', 1234)), {}, 'GET', { action: 'retry', wait: 'pause', pauseMs: 1239 }],
  ['Retry-After in seconds', answered(429, limited('minute'), { retryAfter: '7' }), {}, 'GET', { action: 'retry', wait: 'pause', pauseMs: 7005 }],
  ['scaled time', answered(429, limited('second')), { timeScale: 0.1, safetyMarginMs: 0 }, 'GET', { action: 'retry', pauseMs: 100 }],
  ['a 429 pauses the queue but never sends a POST again', answered(429, limited('second')), {}, 'POST', { action: 'giveUp', reason: 'rateLimitNotRetried', pauseMs: 1005, unit: 'second' }],
  ['a 429 gives up on a GET when the retries are spent', answered(429, limited('second')), spent, 'GET', { action: 'giveUp', reason: 'rateLimit', pauseMs: 1005 }],
  ['a weekly 429 stops the organization', answered(429, limited('week')), {}, 'GET', { action: 'giveUp', reason: 'weeklyQuota', stopOrganization: true, unit: 'week' }],
  [
    'a 429 that names no limit, with the usage at its limit, is the weekly one',
    answered(429, {}, { usage: { organization: 'o', used: 10, limit: 10, seenAt: 0 } }),
    {},
    'GET',
    { action: 'giveUp', reason: 'weeklyQuota', stopOrganization: true },
  ],
  // a 429 that names no limit: the smallest unit first, a longer pause only when it repeats
  ['a 429 that names no limit and gives no time pauses for the second first', answered(429, {}), {}, 'GET', { action: 'retry', wait: 'pause', pauseMs: 1005, unit: 'second', guessed: true }],
  ['... and for the minute when it repeats', answered(429, {}), { unnamed429s: 1 }, 'GET', { action: 'retry', wait: 'pause', pauseMs: 60_005, unit: 'minute', guessed: true }],
  ['... a POST is not sent again, the queue pauses for the second', answered(429, {}), {}, 'POST', { action: 'giveUp', reason: 'rateLimitNotRetried', pauseMs: 1005, guessed: true }],
  ['a 429 that names no limit but has Retry-After waits that long (up to the minute)', answered(429, {}, { retryAfter: '3' }), {}, 'GET', { action: 'retry', pauseMs: 3005, unit: 'minute', guessed: undefined }],
  ['a 429 that names no limit but says retryAfterMs', answered(429, { retryAfterMs: 2500 }), {}, 'GET', { action: 'retry', pauseMs: 2505, guessed: undefined }],
  // after a redirect to a host that got no credentials
  ['a foreign 401 asks for credentials we do not send', answered(401, { error: 'missing_licence_key' }), { credentialsDropped: true }, 'GET', { action: 'giveUp', reason: 'foreignAskedForCredentials' }],
  ['a foreign 429 is only an HTTP error (no pause, no stop)', answered(429, limited('week')), { credentialsDropped: true }, 'GET', { action: 'giveUp', reason: 'http', pauseMs: undefined, stopOrganization: undefined }],
  ['a foreign licence error is only an HTTP error', answered(403, { error: 'unknown_licence_key' }), { credentialsDropped: true }, 'GET', { action: 'giveUp', reason: 'http' }],
  ['a foreign 503 is still retried', answered(503), { credentialsDropped: true }, 'GET', { action: 'retry', wait: 'backoff' }],
  ['a foreign 200 is returned', answered(200), { credentialsDropped: true }, 'GET', { action: 'return' }],
  // everything else
  ['404', answered(404, { error: 'not_found' }), {}, 'GET', { action: 'giveUp', reason: 'http' }],
  ['405', answered(405), {}, 'POST', { action: 'giveUp', reason: 'http' }],
];

describe('retryPolicy (the table of what happens after each exchange)', () => {
  for (const [name, outcome, attempt, method, expected] of TABLE) {
    it(name, () => {
      const decision = retryPolicy(outcome, { ...fresh, ...attempt }, method);
      const picked = Object.fromEntries(Object.keys(expected).map((key) => [key, (decision as unknown as Record<string, unknown>)[key]]));
      assert.deepEqual(picked, expected);
      assert.ok(decision.why.length > 0, 'says why');
    });
  }

  it('gives each rule a distinct reason, and every rule is reached by some case of the table', () => {
    const whys = RETRY_RULES.map((rule) => rule.why);
    assert.equal(new Set(whys).size, whys.length);
    const reached = new Set(TABLE.map(([, outcome, attempt, method]) => retryPolicy(outcome, { ...fresh, ...attempt }, method).why));
    assert.deepEqual(whys.filter((why) => !reached.has(why)), []);
  });

  it('accepts the method in any case', () => {
    assert.equal(retryPolicy(failed('timeout'), fresh, 'get').action, 'retry');
  });
});
