import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import type { RateLimit } from '../../../src/api/limits';
import { ledgerKeys, type LedgerKeys } from '../../../src/coordination/redis/ledgerKeys';
import { runScript, SCRIPTS } from '../../../src/coordination/redis/ledgerScripts';
import { RedisServer } from '../../helpers/redisServer';

const LEASE_MS = 5000;

interface Case {
  name: string;
  limits: RateLimit[];
  margin: number;
  /** Ended calls: how long ago each was logged (ms before the script runs). */
  loggedAgo: number[];
  inFlight?: number;
  pausedForMs?: number;
  /** true = granted; a number = the wait the script answers (ms, -1 = until a call in flight ends). */
  expected: true | number;
}

const second = (max: number): RateLimit => ({ unit: 'second', windowMs: 1000, max });

/** The window arithmetic of ACQUIRE, with the same rule as RequestScheduler (window + margin, calls in flight in every window). */
const CASES: Case[] = [
  { name: 'empty log', limits: [second(3)], margin: 10, loggedAgo: [], expected: true },
  { name: 'one below the limit', limits: [second(3)], margin: 10, loggedAgo: [100, 200], expected: true },
  { name: 'at the limit: the oldest (300 ms ago) must leave: 1010 - 300', limits: [second(3)], margin: 10, loggedAgo: [100, 200, 300], expected: 710 },
  { name: 'one over the limit: the second oldest (300 ms ago) must leave', limits: [second(3)], margin: 10, loggedAgo: [100, 200, 300, 400], expected: 710 },
  { name: 'window edge: calls older than window + margin are out', limits: [second(3)], margin: 10, loggedAgo: [1020, 1030, 1040], expected: true },
  // The margin is wide enough that the calls are still inside when a loaded machine runs the script late.
  { name: 'margin: 1005 ms ago is still inside 1000 + 500', limits: [second(3)], margin: 500, loggedAgo: [1005, 1006, 1007], expected: 493 },
  { name: 'margin 0: 1005 ms ago is out', limits: [second(3)], margin: 0, loggedAgo: [1005, 1006, 1007], expected: true },
  { name: 'in flight counts in the window', limits: [second(3)], margin: 10, loggedAgo: [100, 200], inFlight: 1, expected: 810 },
  { name: 'only calls in flight: until one ends', limits: [second(3)], margin: 10, loggedAgo: [], inFlight: 3, expected: -1 },
  {
    name: 'the minute is full while the second is not',
    limits: [second(5), { unit: 'minute', windowMs: 60_000, max: 4 }],
    margin: 10,
    loggedAgo: [5000, 6000, 7000, 8000],
    expected: 60_010 - 8000,
  },
  { name: 'a 429 pause holds a free log', limits: [second(3)], margin: 10, loggedAgo: [], pausedForMs: 400, expected: 400 },
];

describe('Redis ledger: the acquire script (real redis-server)', function () {
  this.timeout(20_000);
  let server: RedisServer;
  let redis: Redis;

  before(async () => {
    server = await RedisServer.start();
    redis = new Redis(server.url, { lazyConnect: true });
    await redis.connect();
  });

  after(async () => {
    redis?.disconnect();
    await server?.stop();
  });

  const serverNow = async () => {
    const [seconds, micros] = await redis.time();
    return Number(seconds) * 1000 + Number(micros) / 1000;
  };

  async function seed(keys: LedgerKeys, test: Case): Promise<number> {
    const now = await serverNow();
    for (const [i, ago] of test.loggedAgo.entries()) for (const log of keys.logs) await redis.zadd(log, now - ago, `seeded:${i}`);
    for (let i = 0; i < (test.inFlight ?? 0); i++) await redis.zadd(keys.flight, now + LEASE_MS, `flying:${i}`);
    if (test.pausedForMs) await redis.set(keys.pause, String(now + test.pausedForMs));
    return now;
  }

  const acquire = (keys: LedgerKeys, limits: RateLimit[], margin: number, id = 'call') =>
    runScript(redis, SCRIPTS.acquire, [keys.flight, keys.pause, ...keys.logs], [id, LEASE_MS, margin, 10_000, ...limits.flatMap((l) => [l.windowMs, l.max])]) as Promise<
      [number, string, string, ...number[]]
    >;

  for (const test of CASES) {
    it(test.name, async () => {
      const keys = ledgerKeys(`https://id.example/${randomBytes(6).toString('hex')}`, 'app', test.limits);
      const seededAt = await seed(keys, test);
      const [granted, wait] = await acquire(keys, test.limits, test.margin);
      const elapsed = (await serverNow()) - seededAt;
      if (test.expected === true) {
        assert.equal(granted, 1, `granted (wait ${wait})`);
        assert.notEqual(await redis.zscore(keys.flight, 'call'), null, 'recorded in flight');
      } else {
        assert.equal(granted, 0, 'not granted');
        assert.equal(await redis.zscore(keys.flight, 'call'), null, 'not recorded');
        if (test.expected < 0) assert.equal(Number(wait), -1);
        else assert.ok(Number(wait) <= test.expected + 0.01 && Number(wait) >= test.expected - elapsed - 0.01, `wait ${wait}, expected ${test.expected} less up to ${elapsed} ms`);
      }
    });
  }

  it('grants up to the limit one by one, then none', async () => {
    const limits = [second(4)];
    const keys = ledgerKeys('https://id.example/sequence', 'app', limits);
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await acquire(keys, limits, 5, `c${i}`))[0]);
    assert.deepEqual(answers, [1, 1, 1, 1, 0, 0]);
  });

  it('a call logged by DONE moves from flight into every log at the server time', async () => {
    const limits = [second(4), { unit: 'minute' as const, windowMs: 60_000, max: 300 }];
    const keys = ledgerKeys('https://id.example/done', 'app', limits);
    await acquire(keys, limits, 5, 'x');
    const before = await serverNow();
    await runScript(redis, SCRIPTS.done, [keys.flight, keys.pause, ...keys.logs], ['x', 'logged', 10_000, keys.events]);
    assert.equal(await redis.zscore(keys.flight, 'x'), null);
    for (const log of keys.logs) assert.ok(Number(await redis.zscore(log, 'x')) >= before, `${log} holds it at the answer's time`);
    await acquire(keys, limits, 5, 'y');
    await runScript(redis, SCRIPTS.done, [keys.flight, keys.pause, ...keys.logs], ['y', 'unsent', 10_000, keys.events]);
    for (const log of keys.logs) assert.equal(await redis.zscore(log, 'y'), null, 'an unsent call is not logged');
  });

  it('a lease that runs out is logged at its end', async () => {
    const limits = [second(4)];
    const keys = ledgerKeys('https://id.example/lease', 'app', limits);
    const now = await serverNow();
    await redis.zadd(keys.flight, now - 50, 'dead');
    await acquire(keys, limits, 5, 'next');
    assert.equal(await redis.zscore(keys.flight, 'dead'), null);
    assert.equal(Math.round(Number(await redis.zscore(keys.logs[0], 'dead'))), Math.round(now - 50));
  });

  it('keys expire by themselves', async () => {
    const limits = [{ unit: 'second' as const, windowMs: 100, max: 4 }];
    const keys = ledgerKeys('https://id.example/expiry', 'app', limits);
    const all = [keys.flight, ...keys.logs];
    await runScript(redis, SCRIPTS.acquire, [keys.flight, keys.pause, ...keys.logs], ['e', 200, 0, 600, 100, 4]);
    await runScript(redis, SCRIPTS.done, [keys.flight, keys.pause, ...keys.logs], ['e', 'logged', 600, keys.events]);
    await runScript(redis, SCRIPTS.acquire, [keys.flight, keys.pause, ...keys.logs], ['f', 200, 0, 600, 100, 4]);
    for (const key of all) {
      const ttl = await redis.pttl(key);
      assert.ok(ttl > 0 && ttl <= 600, `${key}: PTTL ${ttl}`);
    }
    await runScript(redis, SCRIPTS.pause, [keys.pause], [300, keys.events]);
    const pauseTtl = await redis.pttl(keys.pause);
    assert.ok(pauseTtl > 0 && pauseTtl <= 300, `pause PTTL ${pauseTtl}`);
    await new Promise((resolve) => setTimeout(resolve, 800));
    assert.equal(await redis.exists(...all, keys.pause), 0, 'all gone');
  });

  it('two applications do not share a ledger; nothing secret names the keys', async () => {
    const limits = [second(2)];
    const a = ledgerKeys('https://id.example/realm', 'client-a', limits);
    const b = ledgerKeys('https://id.example/realm', 'client-b', limits);
    const a2 = ledgerKeys('https://ID.example/realm/', 'client-a', limits);
    assert.deepEqual(a, { ...a2, quota: a.quota }, 'one application, however its URL is written');
    assert.notEqual(a.flight, b.flight);
    for (let i = 0; i < 2; i++) assert.equal((await acquire(a, limits, 5, `a${i}`))[0], 1);
    assert.equal((await acquire(a, limits, 5, 'a3'))[0], 0, 'a is full');
    assert.equal((await acquire(b, limits, 5, 'b1'))[0], 1, 'b is not');
    for (const key of await redis.keys('*')) assert.doesNotMatch(key, /client-a|client-b|id\.example/);
  });

  it('EVALSHA falls back to EVAL after SCRIPT FLUSH', async () => {
    await redis.script('FLUSH');
    const keys = ledgerKeys('https://id.example/flush', 'app', [second(2)]);
    assert.equal((await acquire(keys, [second(2)], 5, 'f1'))[0], 1);
    assert.equal(await redis.script('EXISTS', SCRIPTS.acquire.sha).then((r) => (r as number[])[0]), 1, 'loaded by EVAL');
  });
});
