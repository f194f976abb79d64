import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import type { ApiRequest, ApiResponse, TenantRecord } from '../../../src/api/types';
import { startSandbox, type Sandbox } from '../../sandbox';
import type { Fault } from '../../sandbox/types';
import { clientFor, tenantOf, type Harness } from './harness';
import { startHostileServer, type HostileBehaviour, type HostileServer } from './hostileServer';
import { forceGc, settlement } from './settlement';

const CALLS = 200;
const TIMEOUT_S = 0.5;

/**
 * Statuses a request can get without the server having processed it: a POST may be sent again after them.
 * Not 421: fetch would send a POST again after it by itself (the Fetch standard allows it), and the
 * client gives fetch no body it can replay, so a POST answered 421 must reach the server once.
 */
const NOT_PROCESSED = (status: number) => (status >= 300 && status < 400) || status === 401 || status === 429;

/**
 * The fault kinds, cycled per path: each is queued for the next call to its path once the previous
 * one was taken, so calls with and without faults interleave.
 */
function faultKinds(sandbox: Sandbox, path: string): Fault[] {
  const elsewhere = `${sandbox.clusterUrls[1]}${path}`;
  const kinds: Fault[] = [
    ...[500, 502, 503, 504, 429, 421, 401, 400, 404].map((status): Fault => ({ kind: 'status', status })),
    { kind: 'reset' },
    { kind: 'badLimitHeader' },
    { kind: 'badLimitHeader', value: 'api-usage=5/0' },
    { kind: 'noLimitHeader' },
    { kind: 'nonJson' },
    { kind: 'slow', delayMs: 30 },
    { kind: 'slow', delayMs: 800 }, // longer than the time limit
    ...([301, 302, 303, 307, 308] as const).map((status): Fault => ({ kind: 'redirect', status, location: path })),
    ...([302, 307, 308] as const).map((status): Fault => ({ kind: 'redirect', status, location: elsewhere })),
  ];
  return kinds.map((fault) => ({ ...fault, pathPrefix: path }));
}

interface Call {
  id: string;
  method: string;
  target: 'sandbox' | HostileBehaviour;
  promise: Promise<ApiResponse>;
}

describe('Fault matrix: 200 mixed calls through every fault kind of the sandbox and a hostile server', function () {
  this.timeout(90_000);
  let sandbox: Sandbox;
  let hostile: HostileServer;
  let h: Harness;

  before(async () => {
    sandbox = await startSandbox({ timeScale: 0.1 });
    hostile = await startHostileServer();
  });
  after(async () => {
    h?.client.dispose();
    await hostile?.close();
    await sandbox?.close();
  });

  it('settles every call, loses none and never sends a non-idempotent call twice', async () => {
    h = await clientFor(sandbox, {
      requestTimeoutSeconds: TIMEOUT_S,
      routes: [{ prefix: '/hostile/', host: 'cluster', module: 'efat', tenantScoped: true }],
    });
    const milano = tenantOf(sandbox, 0);
    const hostileTenant: TenantRecord = { ...milano, clusterAddress: hostile.url };
    const paths = ['/api/configurazioni', '/v10/user-tenants', '/efat/api/v1/ditte'];
    const kinds = new Map(paths.map((path) => [path, faultKinds(sandbox, path)]));
    const injected = { count: 0 };

    // Keeps one fault queued per path: the next one once a call to that path arrived.
    let stop = false;
    const feeder = (async () => {
      const taken = new Map(paths.map((path) => [path, -1]));
      while (!stop) {
        for (const path of paths) {
          const arrived = sandbox.requests.filter((r) => r.path === path).length;
          if (arrived > taken.get(path)!) {
            const cycle = kinds.get(path)!;
            sandbox.injectFault(cycle[injected.count % cycle.length]);
            injected.count++;
            taken.set(path, arrived);
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();

    const started = performance.now();
    const calls: Call[] = [];
    const stalls: HostileBehaviour[] = ['stall', 'silent', 'trickle'];
    for (let i = 0; i < CALLS; i++) {
      const id = `call-${i}`;
      const method = i % 3 === 1 ? 'POST' : 'GET';
      const body = method === 'POST' ? { call: i } : undefined;
      const hostileBehaviour = i % 10 === 9 ? stalls[(i / 10) % 3 | 0] : undefined;
      const path = hostileBehaviour ? `/hostile/${hostileBehaviour}` : paths[i % paths.length];
      const request: ApiRequest = { method, path, body, headers: { 'X-Call-Id': id }, tenant: hostileBehaviour ? hostileTenant : milano };
      if (path === '/v10/user-tenants' && method === 'POST') request.body = undefined; // the tenant listing takes no body
      const promise = h.client.send(request);
      promise.catch(() => undefined);
      calls.push({ id, method, target: hostileBehaviour ?? 'sandbox', promise });
    }
    let collections = 0;
    const collector = setInterval(() => collections++ < 6 && forceGc(), 700); // garbage collections while bodies stall

    const results = await Promise.all(calls.map((call) => settlement(call.promise, 60_000, started)));
    stop = true;
    clearInterval(collector);
    await feeder;

    const unsettled = calls.filter((_, i) => !results[i].settled).map((call) => call.id);
    const outcomes = await Promise.all(calls.map((call) => call.promise.then((response) => response, (error: unknown) => error)));
    // Lost: ended with something that is neither a response nor an ApiError, or "answered" by no server.
    const lost = calls.filter((call, i) => {
      const outcome = outcomes[i];
      if (outcome instanceof ApiError) return false;
      if (!outcome || typeof (outcome as ApiResponse).status !== 'number') return true;
      return call.target === 'sandbox' && !sandbox.requests.some((r) => r.headers['x-call-id'] === call.id && r.status === (outcome as ApiResponse).status);
    });
    const sentTwice = calls
      .filter((call) => call.method === 'POST')
      .filter((call) => {
        const processed = call.target === 'sandbox'
          ? sandbox.requests.filter((r) => r.method === 'POST' && r.headers['x-call-id'] === call.id && !NOT_PROCESSED(r.status)).length
          : hostile.requests.filter((r) => r.method === 'POST' && r.callId === call.id).length;
        return processed > 1;
      });

    const byKind: Record<string, number> = {};
    for (const outcome of outcomes) {
      const key = outcome instanceof ApiError ? `error ${outcome.kind}` : `status ${(outcome as ApiResponse).status}`;
      byKind[key] = (byKind[key] ?? 0) + 1;
    }
    const figures = {
      calls: CALLS,
      posts: calls.filter((c) => c.method === 'POST').length,
      toHostile: calls.filter((c) => c.target !== 'sandbox').length,
      faultsInjected: injected.count,
      faultKinds: kinds.get(paths[0])!.length + stalls.length,
      sandboxRequests: sandbox.requests.length,
      seconds: Math.round((performance.now() - started) / 100) / 10,
      unsettled: unsettled.length,
      lost: lost.length,
      nonIdempotentSentTwice: sentTwice.length,
      outcomes: byKind,
    };
    if (process.env.FIGURES) console.log(JSON.stringify(figures));
    for (const call of sentTwice) {
      const records = sandbox.requests.filter((r) => r.headers['x-call-id'] === call.id).map((r) => `${r.method} ${r.host}${r.path} ${r.status}`);
      console.log(call.id, records.join(' | '));
    }

    assert.deepEqual(unsettled, [], 'calls left unsettled');
    assert.deepEqual(lost.map((call) => call.id), [], 'calls lost');
    assert.deepEqual(sentTwice.map((call) => call.id), [], 'non-idempotent calls sent twice');
    assert.ok(injected.count >= 60, `faults injected: ${injected.count}`);
    assert.ok(outcomes.some((o) => !(o instanceof ApiError)), 'some calls got through');
  });
});
