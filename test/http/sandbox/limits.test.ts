import { strict as assert } from 'node:assert';

import { startSandbox } from '../../sandbox/index';
import type { Sandbox } from '../../sandbox/types';
import { tokensFor } from '../../helpers/sandboxTokens';
import { call, keyOf, sleep, type CallResult } from './fixtures';

describe('sandbox: request limits (time-scaled)', () => {
  describe('per application, 5 per second (real time)', () => {
    let sandbox: Sandbox;
    let token: string;
    let otherAppToken: string;
    before(async () => {
      sandbox = await startSandbox({ timeScale: 1 });
      token = (await tokensFor(sandbox, 'mario.rossi')).accessToken;
      otherAppToken = (await tokensFor(sandbox, 'mario.rossi', { grant: 'password' })).accessToken;
    });
    after(() => sandbox.close());

    it('refuses the sixth call within the second with 429 "second", and lifts the block one second after the first call', async () => {
      sandbox.resetLimits();
      const url = `${sandbox.baseUrl}/api/configurazioni`;
      const key = keyOf(sandbox, 'org-rossi', 'core');
      await Promise.all([1, 2, 3, 4, 5].map(() => call(`${sandbox.baseUrl}/nope`, {}))); // warm the connection pool
      // The server's window starts when the first call arrives: between t0 and t1.
      const t0 = performance.now();
      const first = await call(url, { token, key });
      const t1 = performance.now();
      assert.equal(first.status, 200);
      await sleep(300);
      const next4 = await Promise.all([1, 2, 3, 4].map(() => call(url, { token, key })));
      assert.deepEqual(next4.map((r) => r.status), [200, 200, 200, 200]);
      const s0 = performance.now();
      const sixth = await call(url, { token, key });
      const s1 = performance.now();
      assert.ok(s1 - t0 < 950, `the sixth call came too late for this test (${s1 - t0} ms)`);
      assert.equal(sixth.status, 429);
      assert.equal(sixth.json.error, 'rate_limit_exceeded');
      assert.equal(sixth.json.limit, 'second');
      assert.equal(sixth.json.max, 5);
      assert.match(String(sixth.json.message), /5 calls per second/);
      assert.match(sixth.limitInfo ?? '', /^api-usage=5\/10000$/, 'the 429 is not counted');
      const retryAfterMs = Number(sixth.json.retryAfterMs);
      assert.ok(retryAfterMs <= t1 + 1000 - s0 + 1 && retryAfterMs >= t0 + 1000 - s1 - 1,
        `retryAfterMs ${retryAfterMs} must be counted from the first call, not from the sixth`);
      assert.equal(sixth.headers.get('retry-after'), '1');

      const other = await call(url, { token: otherAppToken, key });
      assert.equal(other.status, 200, 'another application has its own windows');

      await sleep(t1 + 1000 - performance.now() + 5);
      const lifted = await call(url, { token, key });
      assert.equal(lifted.status, 200, 'the block lifts when the second from the first call has passed');
    });

    it('also limits the keyless tenant listing per application', async () => {
      sandbox.resetLimits();
      const results: CallResult[] = [];
      for (let i = 0; i < 6; i++) results.push(await call(`${sandbox.baseUrl}/v10/user-tenants`, { token }));
      const statuses = results.map((r) => r.status);
      assert.deepEqual(statuses.slice(0, 5), [200, 200, 200, 200, 200]);
      assert.equal(statuses[5], 429);
      assert.equal(results[5].json.limit, 'second');
    });
  });

  // A (scaled) second of 100 ms: long enough for a burst of six to arrive within one on a loaded machine.
  describe('per application, the minute window (perMinute lowered to 12, a minute lasts 6 s)', () => {
    const SECOND = 100;
    const MINUTE = 60 * SECOND;
    it('refuses with 429 "minute" when the minute is used up even in a fresh second, until a minute from the first call', async () => {
      const sandbox = await startSandbox({ timeScale: SECOND / 1000, rateLimits: { perMinute: 12 } });
      try {
        const token = (await tokensFor(sandbox, 'laura.verdi')).accessToken;
        const url = `${sandbox.baseUrl}/v10/user-tenants`;
        const t0 = performance.now();
        let ok = 0;
        let secondRefusals = 0;
        let t1 = 0;
        // A burst of six at once: the sixth, within the same (scaled) second, is refused for the second.
        const burst = await Promise.all(Array.from({ length: 6 }, () => call(url, { token })));
        t1 = performance.now();
        for (const r of burst) {
          if (r.status === 200) ok++;
          else {
            assert.equal(r.json.limit, 'second');
            secondRefusals++;
          }
        }
        await sleep(SECOND);
        while (ok < 12) {
          const r = await call(url, { token });
          t1 ||= performance.now();
          if (r.status === 200) ok++;
          else {
            assert.equal(r.json.limit, 'second');
            secondRefusals++;
            await sleep(SECOND);
          }
        }
        // Refusals for the second happened, and they did not count: the minute still took twelve calls.
        assert.ok(secondRefusals >= 1, 'the second limit refused none of the burst');
        assert.ok(performance.now() - t0 < MINUTE - 4 * SECOND, 'the twelve calls fit in the minute');
        await sleep(SECOND + 5);
        const sentAt = performance.now();
        const refused = await call(url, { token });
        assert.equal(refused.status, 429);
        assert.equal(refused.json.limit, 'minute');
        const retryAfterMs = Number(refused.json.retryAfterMs);
        assert.ok(retryAfterMs <= t1 + MINUTE - sentAt + 1, `retryAfterMs ${retryAfterMs}`);
        await sleep(t1 + MINUTE - performance.now() + 10);
        assert.equal((await call(url, { token })).status, 200, 'lifted a minute after the first call');
      } finally {
        await sandbox.close();
      }
    });
  });

  describe('weekly, per organization (weeklyLimit 3, a week lasts about 1.2 s)', () => {
    it('counts per organization, refuses with 429 "week" and starts again the next week', async () => {
      const sandbox = await startSandbox({ timeScale: 0.000002, weeklyLimit: 3 });
      try {
        const token = (await tokensFor(sandbox, 'mario.rossi')).accessToken;
        const rossi = keyOf(sandbox, 'org-rossi', 'core');
        const bianchi = keyOf(sandbox, 'org-bianchi', 'core');
        const url = `${sandbox.baseUrl}/api/configurazioni`;
        const t0 = performance.now();
        const headers: Array<string | null> = [];
        let t1 = 0;
        for (let i = 0; i < 3; i++) {
          const r = await call(url, { token, key: rossi });
          t1 ||= performance.now();
          assert.equal(r.status, 200);
          headers.push(r.limitInfo);
        }
        assert.deepEqual(headers, ['api-usage=1/3', 'api-usage=2/3', 'api-usage=3/3']);
        const refused = await call(url, { token, key: rossi });
        assert.equal(refused.status, 429);
        assert.equal(refused.json.limit, 'week');
        assert.equal(refused.json.max, 3);
        assert.equal(refused.limitInfo, 'api-usage=3/3');
        assert.deepEqual(sandbox.usage('org-rossi'), { used: 3, limit: 3 });
        const other = await call(url, { token, key: bianchi });
        assert.equal(other.status, 200, 'another organization has its own quota');
        assert.equal(other.limitInfo, 'api-usage=1/3');
        assert.ok(performance.now() - t0 < 1150, 'still in the same (scaled) week');
        await sleep(t1 + 1210 + 5 - performance.now());
        const nextWeek = await call(url, { token, key: rossi });
        assert.equal(nextWeek.status, 200);
        assert.equal(nextWeek.limitInfo, 'api-usage=1/3');
      } finally {
        await sandbox.close();
      }
    });

    it('takes the weekly limit from the organization\'s licence by default', async () => {
      const sandbox = await startSandbox();
      try {
        assert.deepEqual(sandbox.usage('org-rossi'), { used: 0, limit: 10000 });
        assert.deepEqual(sandbox.usage('org-bianchi'), { used: 0, limit: 5000 });
      } finally {
        await sandbox.close();
      }
    });
  });
});
