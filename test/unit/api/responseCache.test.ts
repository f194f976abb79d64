// The cache of static resources: its key and an answer's lifetime.
import * as assert from 'node:assert/strict';
import { cacheKey, cacheLifetimeMs, ResponseCache, type CacheKeyParts } from '../../../src/api/responseCache';
import { parseRouteSetting } from '../../../src/api/routes';
import type { ApiResponse } from '../../../src/api/types';

const base: CacheKeyParts = { environment: 'default', tenantId: 't1', organization: 'org-rossi', method: 'GET', pathAndQuery: '/efat/api/v1/riepilogo' };

function answer(status: number, bodyText = '{}'): ApiResponse {
  return { method: 'GET', url: 'http://127.0.0.1/x', status, statusText: '', headers: {}, bodyText, timeMs: 1, sizeBytes: bodyText.length, requestHeaders: {}, attempts: 1, warnings: [] };
}

describe('response cache', () => {
  it('keys by environment, tenant, licence organization, method and path with query', () => {
    const key = cacheKey(base);
    const others: Array<[Partial<CacheKeyParts>, string]> = [
      [{ environment: '@prod' }, 'another environment'],
      [{ tenantId: 't2' }, 'another tenant'],
      [{ tenantId: undefined }, 'no tenant'],
      [{ organization: 'org-bianchi' }, 'another licence organization'],
      [{ pathAndQuery: '/efat/api/v1/riepilogo?anno=2026' }, 'a query'],
      [{ pathAndQuery: '/efat/api/v1/ditte' }, 'another path'],
    ];
    for (const [change, what] of others) assert.notEqual(cacheKey({ ...base, ...change }), key, what);
    assert.equal(cacheKey({ ...base, method: 'get' }), key, 'the method in any case');
    assert.equal(cacheKey({ ...base, pathAndQuery: '/p?b=2&a=1' }), cacheKey({ ...base, pathAndQuery: '/p?a=1&b=2' }), 'query order does not matter');
    for (const method of ['POST', 'PUT', 'DELETE', 'HEAD']) assert.equal(cacheKey({ ...base, method }), undefined, `${method} is never cached`);
  });

  it('keeps an answer for its lifetime and not a moment longer', () => {
    const cache = new ResponseCache();
    const key = cacheKey(base)!;
    cache.put(key, answer(200), 300_000, 1_000);
    assert.equal(cache.get(key, 1_000)?.storedAt, 1_000);
    assert.ok(cache.get(key, 300_999), 'within the lifetime');
    assert.equal(cache.get(key, 301_000), undefined, 'expired at the end of its lifetime');
    assert.equal(cache.size, 0, 'an expired answer is dropped');
    cache.put(key, answer(200), 300_000, 1_000);
    assert.equal(cache.get(key, 999), undefined, 'a clock set back never makes an answer younger');
  });

  it('never keeps an error answer, and an error answer removes the kept one', () => {
    const cache = new ResponseCache();
    const key = cacheKey(base)!;
    for (const status of [400, 401, 403, 404, 421, 429, 500, 503, 307]) {
      cache.put(key, answer(status), 300_000, 0);
      assert.equal(cache.get(key, 1), undefined, `status ${status}`);
    }
    cache.put(key, answer(200), 300_000, 0);
    cache.put(key, answer(500), 300_000, 1);
    assert.equal(cache.get(key, 2), undefined);
  });

  it('is emptied by clear (sign-out, environment switch)', () => {
    const cache = new ResponseCache();
    cache.put(cacheKey(base)!, answer(200), 1000, 0);
    cache.clear();
    assert.equal(cache.get(cacheKey(base)!, 1), undefined);
  });

  it('reads a rule\'s lifetime: a positive cacheSeconds marks it static; the setting refuses bad values', () => {
    assert.equal(cacheLifetimeMs({ prefix: '/x/', host: 'base', cacheSeconds: 300 }), 300_000);
    assert.equal(cacheLifetimeMs({ prefix: '/x/', host: 'base' }), undefined);
    assert.equal(cacheLifetimeMs(undefined), undefined);
    const warnings: string[] = [];
    const logger = { info() {}, warn: (message: string) => warnings.push(message), error() {} } as never;
    const rules = parseRouteSetting(
      [
        { prefix: '/efat/api/v1/riepilogo', host: 'cluster', module: 'efat', cacheSeconds: 300 },
        { prefix: '/a/', host: 'base', cacheSeconds: 0 },
        { prefix: '/b/', host: 'base', cacheSeconds: -1 },
        { prefix: '/c/', host: 'base', cacheSeconds: '60' },
        { prefix: '/d/', host: 'base', cacheSeconds: 1.5 },
        { prefix: '/e/', host: 'base', cacheSeconds: 86_401 },
      ],
      logger,
    );
    assert.deepEqual(rules, [{ prefix: '/efat/api/v1/riepilogo', host: 'cluster', module: 'efat', tenantScoped: true, cacheSeconds: 300 }]);
    assert.equal(warnings.length, 5);
    assert.match(warnings[0], /cacheSeconds must be a whole number of seconds from 1 to 86400/);
  });
});
