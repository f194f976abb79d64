import { createHash } from 'node:crypto';

/*
 * The Lua scripts of the Redis ledger. Each runs atomically on the server and reads the server's
 * clock (TIME), so the machines' own clocks never enter a decision. Times are server ms with a
 * fraction; numbers that must keep it are returned as strings (Redis truncates Lua numbers).
 */

/** Server time in ms, with a fraction. */
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000`;

/**
 * Calls whose lease ran out (their process stopped renewing it: killed, or cut off from Redis) are
 * logged at the end of their lease: they ended before it, since a process renews the lease of each
 * call it has in flight every third of the lease.
 */
const EXPIRE_LEASES = `local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'WITHSCORES')
for j = 1, #expired, 2 do
  for k = 3, #KEYS do redis.call('ZADD', KEYS[k], expired[j + 1], expired[j]) end
  redis.call('ZREM', KEYS[1], expired[j])
end`;

/**
 * KEYS: flight, pause, one log per limit. ARGV: call id, lease ms, margin ms, key ttl ms, then
 * window ms and max of each limit (in the order of the logs).
 * Returns { 1, '0', '0', counts... } when the call was recorded in flight, else { 0, wait, pausedFor,
 * counts... } where wait is the ms until a slot frees ('-1': until a call in flight ends).
 * counts: per limit, the calls in its window (in flight included, this one too when granted).
 *
 * The rule is the local log's (LocalLedger, RateLog): a call may go at `now` when, for every limit, fewer than `max`
 * calls were counted in (now - window - margin, now], each call in flight counting in every window.
 * When not, the (excess + 1)-th oldest call of the window must leave it first.
 */
export const ACQUIRE = `${NOW}
local paused = tonumber(redis.call('GET', KEYS[2]) or '0')
${EXPIRE_LEASES}
local inflight = redis.call('ZCARD', KEYS[1])
local margin = tonumber(ARGV[3])
local wait = 0
local counts = {}
for i = 1, #KEYS - 2 do
  local key = KEYS[2 + i]
  local span = tonumber(ARGV[3 + 2 * i]) + margin
  local max = tonumber(ARGV[4 + 2 * i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - span)
  local inWindow = redis.call('ZCARD', key)
  counts[i] = inWindow + inflight
  local excess = inWindow + inflight - max
  if excess >= 0 and wait >= 0 then
    if excess >= inWindow then
      wait = -1
    else
      local oldest = redis.call('ZRANGE', KEYS[2 + i], excess, excess, 'WITHSCORES')
      wait = math.max(wait, tonumber(oldest[2]) + span - now)
    end
  end
end
if paused > now then
  return { 0, tostring(math.max(wait, paused - now)), tostring(paused - now), unpack(counts) }
end
if wait ~= 0 then return { 0, tostring(wait), '0', unpack(counts) } end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
for k = 1, #KEYS do redis.call('PEXPIRE', KEYS[k], ARGV[4]) end
for i = 1, #counts do counts[i] = counts[i] + 1 end
return { 1, '0', '0', unpack(counts) }`;

/**
 * A call ended. KEYS: flight, pause, one log per limit. ARGV: call id, 'logged' | 'unsent', key ttl
 * ms, events channel. A sent call is logged at the server's now: after its answer reached its process
 * (see the invariant in redisRateLedger.ts). Logged even when its lease had run out (later is safe).
 */
export const DONE = `${NOW}
redis.call('ZREM', KEYS[1], ARGV[1])
if ARGV[2] == 'logged' then
  for k = 3, #KEYS do
    redis.call('ZADD', KEYS[k], now, ARGV[1])
    redis.call('PEXPIRE', KEYS[k], ARGV[3])
  end
end
redis.call('PUBLISH', ARGV[4], 'done')
return 1`;

/** KEYS: flight. ARGV: lease ms, key ttl ms, then the ids of the calls this process has in flight. */
export const RENEW = `${NOW}
for j = 3, #ARGV do redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[j]) end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/**
 * Calls this process logged while Redis was away, back into the logs when it returns. KEYS: the logs.
 * ARGV: key ttl ms, then pairs of call id and age (ms before now).
 */
export const SEED = `${NOW}
for j = 2, #ARGV, 2 do
  for k = 1, #KEYS do redis.call('ZADD', KEYS[k], 'NX', now - tonumber(ARGV[j + 1]), ARGV[j]) end
end
for k = 1, #KEYS do redis.call('PEXPIRE', KEYS[k], ARGV[1]) end
return 1`;

/** A 429: KEYS: pause. ARGV: ms, events channel. A longer running pause is kept. Returns the ms it runs for. */
export const PAUSE = `${NOW}
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local until_ = now + tonumber(ARGV[1])
if current < until_ then
  redis.call('SET', KEYS[1], tostring(until_), 'PX', math.ceil(tonumber(ARGV[1])))
  current = until_
end
redis.call('PUBLISH', ARGV[2], 'pause')
return tostring(current - now)`;

/** KEYS: pause. Returns the ms the running pause lasts ('0': none). */
export const PAUSED_FOR = `${NOW}
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
return tostring(math.max(0, current - now))`;

/**
 * An organization's quota state. KEYS: its hash, the set of organizations, the order counter.
 * ARGV: state JSON, key ttl ms, events channel, organization id. The last write wins: each gets the
 * next number of the application's order, and readers keep the state with the highest.
 */
export const SHARE_QUOTA = `local order = redis.call('INCR', KEYS[3])
redis.call('HSET', KEYS[1], 'state', ARGV[1], 'order', order)
redis.call('SADD', KEYS[2], ARGV[4])
for k = 1, 3 do redis.call('PEXPIRE', KEYS[k], ARGV[2]) end
redis.call('PUBLISH', ARGV[3], 'quota:' .. ARGV[4])
return order`;

export interface LedgerScript {
  source: string;
  sha: string;
}

const script = (source: string): LedgerScript => ({ source, sha: createHash('sha1').update(source).digest('hex') });

export const SCRIPTS = {
  acquire: script(ACQUIRE),
  done: script(DONE),
  renew: script(RENEW),
  seed: script(SEED),
  pause: script(PAUSE),
  pausedFor: script(PAUSED_FOR),
  shareQuota: script(SHARE_QUOTA),
} as const;

/** The commands a script runner needs (ioredis's `call`). */
export interface ScriptConnection {
  call(command: string, ...args: Array<string | number>): Promise<unknown>;
}

/** EVALSHA, and EVAL when the server does not have the script (first use, or after a restart or SCRIPT FLUSH). */
export async function runScript(connection: ScriptConnection, which: LedgerScript, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<unknown> {
  try {
    return await connection.call('EVALSHA', which.sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (!String((error as Error)?.message ?? error).startsWith('NOSCRIPT')) throw error;
    return connection.call('EVAL', which.source, keys.length, ...keys, ...args);
  }
}
