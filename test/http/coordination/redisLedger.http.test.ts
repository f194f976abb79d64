import * as assert from 'node:assert/strict';
import Redis from 'ioredis';
import type { RateLimit } from '../../../src/api/limits';
import { QuotaTracker } from '../../../src/api/quotaTracker';
import { LocalLedger } from '../../../src/api/localLedger';
import type { RateLedger, Slot } from '../../../src/api/rateLedger';
import { takeSlot } from '../../helpers/ledgerSlots';
import { systemClock } from '../../../src/common/clock';
import type { Logger } from '../../../src/common/logger';
import { createLedger, type CreateLedgerOptions } from '../../../src/coordination/redis/createLedger';
import { LedgerError } from '../../../src/coordination/redis/ledgerErrors';
import { ledgerKeys } from '../../../src/coordination/redis/ledgerKeys';
import { ledgerFromEnvironment, ledgerFromUrl } from '../../../src/coordination/redis/ledgerUrl';
import type { RedisRateLedger } from '../../../src/coordination/redis/redisRateLedger';
import { freePort } from '../../helpers/freePort';
import { RedisServer } from '../../helpers/redisServer';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The decider's clock: Redis reads the wall clock (TIME), and on the same machine so does Date.now.
 * A step of the wall clock (time sync on a machine just started) moves both; the monotonic clock
 * would see Redis grant early or late by the step.
 */
const redisClock = () => Date.now();

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, trace() {}, debug() {}, info() {}, warn: (message: string) => warnings.push(message), error() {} };
}

async function until(condition: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

function localLedger(limits: readonly RateLimit[]): RateLedger {
  return new LocalLedger({ clock: systemClock, limits, safetyMarginMs: () => 0 });
}

/** Answered 5 ms after it was granted; resolves with the answer's time on `clock`. */
async function call(ledger: RateLedger, clock: () => number = redisClock): Promise<{ slot: Slot; answeredAt: number }> {
  const slot = await takeSlot(ledger);
  slot.markSent('http://127.0.0.1:1');
  await sleep(5);
  slot.markAnswered();
  return { slot, answeredAt: clock() };
}

/** The most calls in any interval of `span` ms among these times. */
function busiest(times: number[], span: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0; i < sorted.length; i++) most = Math.max(most, sorted.filter((t) => t > sorted[i] - span && t <= sorted[i]).length);
  return most;
}

describe('Redis ledger: processes sharing one application (real redis-server)', function () {
  this.timeout(30_000);
  let server: RedisServer;
  const open: Array<{ dispose(): void }> = [];

  before(async () => {
    server = await RedisServer.start();
  });

  afterEach(() => {
    for (const ledger of open.splice(0)) ledger.dispose();
  });

  after(async () => {
    await server?.stop();
  });

  async function ledger(overrides: Partial<CreateLedgerOptions> & { limits: RateLimit[] }): Promise<RedisRateLedger> {
    const made = await createLedger({
      url: server.url,
      fallback: 'fail',
      application: { authUrl: 'https://id.example/realm', clientId: 'shared-app' },
      safetyMarginMs: () => 2,
      logger: recordingLogger(),
      local: () => localLedger(overrides.limits),
      ...overrides,
    });
    open.push(made);
    return made as RedisRateLedger;
  }

  it('two processes together stay within the limit', async () => {
    const limits: RateLimit[] = [{ unit: 'second', windowMs: 300, max: 3 }];
    const application = { authUrl: 'https://id.example/together', clientId: 'app' };
    const a = await ledger({ limits, application });
    const b = await ledger({ limits, application });
    const started = redisClock();
    const calls = await Promise.all([...Array.from({ length: 6 }, () => call(a)), ...Array.from({ length: 6 }, () => call(b))]);
    const answers = calls.map((c) => c.answeredAt);
    assert.ok(busiest(answers, 300) <= 3, `at most 3 answers in any 300 ms: ${answers.map((t) => Math.round(t - started)).join(', ')}`);
    assert.ok(redisClock() - started >= 900, 'twelve calls at three per 300 ms take three windows at least');
  });

  it('a process ending right after its last call leaves nothing in flight (scripts loaded at start: no NOSCRIPT round trip after the QUIT)', async () => {
    const limits: RateLimit[] = [{ unit: 'second', windowMs: 300, max: 3 }];
    const application = { authUrl: 'https://id.example/ending', clientId: 'app' };
    const made = await ledger({ limits, application });
    open.splice(open.indexOf(made), 1);
    const slot = await takeSlot(made);
    slot.markSent('http://127.0.0.1:1');
    slot.markAnswered();
    made.dispose();
    const admin = new Redis(server.url);
    try {
      const keys = ledgerKeys(application.authUrl, application.clientId, limits);
      for (let i = 0; i < 50 && (await admin.zcard(keys.logs[0])) === 0; i++) await sleep(10);
      assert.equal(await admin.zcard(keys.flight), 0, 'no call left in flight');
      assert.equal(await admin.zcard(keys.logs[0]), 1, 'the call logged');
    } finally {
      admin.disconnect();
    }
  });

  it('a call still in flight keeps its lease (renewed every third of it), and leaves the flight set when it ends', async () => {
    const limits: RateLimit[] = [{ unit: 'second', windowMs: 300, max: 3 }];
    const application = { authUrl: 'https://id.example/lease', clientId: 'app' };
    const made = await ledger({ limits, application, leaseMs: 300 });
    const slot = await takeSlot(made);
    slot.markSent('http://127.0.0.1:1');
    const admin = new Redis(server.url);
    try {
      const keys = ledgerKeys(application.authUrl, application.clientId, limits);
      await sleep(1000);
      const [seconds, micros] = await admin.time();
      const now = Number(seconds) * 1000 + Number(micros) / 1000;
      const leases = await admin.zrange(keys.flight, 0, -1, 'WITHSCORES');
      assert.equal(leases.length, 2, 'the call is still in flight after three leases');
      assert.ok(Number(leases[1]) > now, `its lease runs out in the future (${Math.round(Number(leases[1]) - now)} ms)`);
      slot.markAnswered();
      for (let i = 0; i < 50 && (await admin.zcard(keys.flight)) > 0; i++) await sleep(10);
      assert.equal(await admin.zcard(keys.flight), 0, 'no call left in flight once answered');
    } finally {
      admin.disconnect();
    }
  });

  it('a 429 pause in one process holds the other', async () => {
    const limits: RateLimit[] = [{ unit: 'second', windowMs: 200, max: 5 }];
    const application = { authUrl: 'https://id.example/pause', clientId: 'app' };
    const a = await ledger({ limits, application });
    const b = await ledger({ limits, application });
    a.pause(500);
    await until(() => b.pausedUntil !== undefined, "the other process's pause");
    const asked = redisClock();
    await call(b);
    assert.ok(redisClock() - asked >= 350, `b waited out the pause (${Math.round(redisClock() - asked)} ms)`);
  });

  it('quota readings, stops and resumes reach the other process; the last written wins', async () => {
    const limits: RateLimit[] = [{ unit: 'second', windowMs: 200, max: 5 }];
    const application = { authUrl: 'https://id.example/quota', clientId: 'app' };
    const qa = new QuotaTracker();
    const qb = new QuotaTracker();
    await ledger({ limits, application, quota: qa });
    await ledger({ limits, application, quota: qb });
    qa.record({ organization: 'Rossi', used: 10, limit: 100, seenAt: Date.now() });
    await until(() => qb.reading('Rossi')?.used === 10, 'the reading');
    qb.stop('Rossi');
    await until(() => qa.isBlocked('Rossi'), 'the stop');
    qa.resume('Rossi');
    await until(() => !qb.isBlocked('Rossi') && qb.state('Rossi').resumed, 'the resume');
    // A third process starting later adopts what is shared.
    const qc = new QuotaTracker();
    await ledger({ limits, application, quota: qc });
    assert.equal(qc.reading('Rossi')?.used, 10);
    assert.equal(qc.state('Rossi').resumed, true);
  });

  it('Redis killed mid-run: calls settle, the rest go through the local ledger at the share, nothing twice; Redis used again when back', async () => {
    const own = await RedisServer.start();
    try {
      const limits: RateLimit[] = [{ unit: 'second', windowMs: 1000, max: 6 }];
      const logger = recordingLogger();
      const made = (await createLedger({
        endpoint: ledgerFromUrl(own.url, 'flag', {}),
        fallback: 'fail',
        application: { authUrl: 'https://id.example/killed', clientId: 'app' },
        limits,
        safetyMarginMs: () => 2,
        logger,
        local: () => localLedger(limits),
        expectedProcesses: 3,
      })) as RedisRateLedger;
      open.push(made);
      const granted: number[] = [];
      let killedAt = 0;
      const calls = Array.from({ length: 14 }, async () => {
        // After the kill the local ledger decides, on the monotonic clock.
        const result = await call(made, () => performance.now());
        granted.push(result.answeredAt);
        if (granted.length === 6 && !killedAt) {
          killedAt = performance.now();
          void own.kill();
        }
        return result;
      });
      const slots = (await Promise.all(calls)).map((c) => c.slot);
      assert.equal(new Set(slots).size, 14, 'each call got one slot of its own');
      assert.equal(made.using, 'local');
      assert.equal(logger.warnings.length, 1, `warned once: ${logger.warnings.join(' | ')}`);
      const afterKill = granted.filter((t) => t > killedAt + 50);
      assert.ok(afterKill.length >= 6, `${afterKill.length} calls after the kill`);
      assert.ok(busiest(afterKill, 1000) <= 2, `at the share (6 / 3 = 2 per window): ${afterKill.map((t) => Math.round(t - killedAt)).join(', ')}`);

      await own.run();
      await until(() => made.using === 'redis', 'the return to Redis', 5000);
      const admin = new Redis(own.url);
      try {
        const log = ledgerKeys('https://id.example/killed', 'app', limits).logs[0];
        // The last two local calls (one window's share) ended less than a window before the return.
        const seeded = await admin.zcard(log);
        assert.ok(seeded >= 1, 'the local calls of the last window were written back');
        // By member, not by count: on a loaded machine the seeded calls may leave the window meanwhile.
        const earlier = new Set(await admin.zrange(log, 0, -1));
        await call(made);
        const added = async () => (await admin.zrange(log, 0, -1)).filter((member) => !earlier.has(member));
        for (let i = 0; i < 50 && (await added()).length === 0; i++) await sleep(10);
        assert.equal((await added()).length, 1, 'the next call went through Redis');
      } finally {
        admin.disconnect();
      }
    } finally {
      await own.stop();
    }
  });

  it('a slow Redis never grants late: a command past its time limit is "not acquired", and the local share, full by default, decides', async () => {
    const limits: RateLimit[] = [{ unit: 'second', windowMs: 300, max: 2 }];
    const made = await ledger({ limits, application: { authUrl: 'https://id.example/slow', clientId: 'app' }, commandTimeoutMs: 150 });
    const admin = new Redis(server.url);
    try {
      await admin.call('CLIENT', 'PAUSE', '800', 'ALL');
      const asked = performance.now();
      await call(made);
      const waited = performance.now() - asked;
      assert.equal(made.using, 'local');
      assert.ok(waited >= 150 + 250, `no answer from Redis, so every window is taken to be full: waited ${Math.round(waited)} ms`);
      // The connection never closed: Redis answering the seed again is what brings the ledger back.
      await until(() => made.using === 'redis', 'the return to Redis once it answers', 5000);
    } finally {
      admin.disconnect();
    }
  });

  it('unreachable at start: a clear error naming the URL without its password, or with the local fallback a warning and the local ledger', async () => {
    const port = await freePort();
    const endpoint = ledgerFromEnvironment({ TENANT_API_LEDGER: `redis://:sekret-pw@127.0.0.1:${port}/2` })!;
    const base = {
      endpoint,
      application: { authUrl: 'https://id.example/down', clientId: 'app' },
      limits: [{ unit: 'second' as const, windowMs: 1000, max: 5 }],
      safetyMarginMs: () => 5,
      connectTimeoutMs: 500,
    };
    const logger = recordingLogger();
    await assert.rejects(
      createLedger({ ...base, fallback: 'fail', logger, local: () => assert.fail('no local ledger') }),
      (error: unknown) => {
        assert.ok(error instanceof LedgerError && error.kind === 'unreachable');
        assert.match(error.message, new RegExp(`redis://127\\.0\\.0\\.1:${port}/2 cannot be reached`));
        assert.doesNotMatch(error.message, /sekret/);
        return true;
      },
    );
    await assert.rejects(
      createLedger({ ...base, endpoint: undefined, url: `redis://:pw@127.0.0.1:${port}/0`, fallback: 'local', logger, local: () => assert.fail('no local ledger') }),
      /must not hold a user name or password/,
      'a password in a flag is refused whatever the fallback',
    );
    const local = localLedger(base.limits);
    const fallen = await createLedger({ ...base, fallback: 'local', logger, local: () => local });
    assert.equal(fallen, local);
    assert.equal(logger.warnings.length, 1);
    assert.match(logger.warnings[0], /cannot be reached.*local ledger/s);
    assert.doesNotMatch(logger.warnings[0], /sekret/);
    local.dispose();
  });
});
