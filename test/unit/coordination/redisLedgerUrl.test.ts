import * as assert from 'node:assert/strict';
import { shareOf, snapshotEntries } from '../../../src/coordination/redis/fallbackShare';
import { ledgerFromEnvironment, parseLedgerUrl } from '../../../src/coordination/redis/ledgerUrl';

describe('Redis ledger: URLs and the local share', () => {
  const cases: Array<[string, 'environment' | 'setting' | 'flag', string | RegExp]> = [
    ['redis://127.0.0.1:6379/0', 'setting', 'redis://127.0.0.1:6379/0'],
    ['rediss://cache.example:6380', 'flag', 'rediss://cache.example:6380'],
    ['redis://cache.example/3', 'setting', 'redis://cache.example/3'],
    ['redis://:pw@cache.example:6379/0', 'environment', 'redis://cache.example:6379/0'],
    ['redis://:pw@cache.example:6379/0', 'setting', /must not hold a user name or password/],
    ['redis://user:pw@cache.example:6379/0', 'flag', /must not hold a user name or password/],
    ['http://cache.example:6379', 'setting', /scheme must be redis or rediss/],
    ['cache.example:6379', 'setting', /scheme must be redis or rediss/],
    ['redis://cache.example:6379/zero', 'setting', /database number/],
    ['redis://cache.example:6379/0?x=1', 'setting', /no query or fragment/],
    ['not a url', 'setting', /not a URL/],
  ];
  for (const [url, source, expected] of cases) {
    it(`${typeof expected === 'string' ? 'takes' : 'refuses'} ${url} from the ${source}`, () => {
      if (typeof expected === 'string') assert.equal(parseLedgerUrl(url, source).display, expected);
      else assert.throws(() => parseLedgerUrl(url, source), (error: Error) => expected.test(error.message) && !/pw/.test(error.message));
    });
  }

  it('takes the password from TENANT_API_LEDGER_PASSWORD over the URL, and never shows it', () => {
    const endpoint = ledgerFromEnvironment({ TENANT_API_LEDGER: 'redis://:old@cache.example:6379/1', TENANT_API_LEDGER_PASSWORD: 'new' })!;
    assert.equal(endpoint.password, 'new');
    assert.equal(endpoint.display, 'redis://cache.example:6379/1');
    assert.equal(ledgerFromEnvironment({}), undefined);
    assert.equal(ledgerFromEnvironment({ TENANT_API_LEDGER: 'redis://:p%40ss@h:1/0' })!.password, 'p@ss');
  });

  it('gives each process its share of every limit, one call per window at least', () => {
    const limits = [
      { unit: 'second' as const, windowMs: 1000, max: 5 },
      { unit: 'minute' as const, windowMs: 60_000, max: 300 },
    ];
    assert.deepEqual(shareOf(limits, 3).map((l) => l.max), [1, 100]);
    assert.deepEqual(shareOf(limits, 1).map((l) => l.max), [5, 300]);
    assert.deepEqual(shareOf(limits, 10).map((l) => l.max), [1, 30]);
  });

  it('places the calls of the last reply at the latest time each can have been counted', () => {
    const limits = [
      { unit: 'minute' as const, windowMs: 60_000, max: 300 },
      { unit: 'second' as const, windowMs: 1000, max: 5 },
    ];
    // 40 in the minute's window, 3 of them in the second's: 3 at the reply, 37 when they left the second's window.
    const times = snapshotEntries(limits, 5, { at: 100_000, counts: [40, 3] });
    assert.equal(times.length, 40);
    assert.equal(times.filter((t) => t === 100_000).length, 3);
    assert.equal(times.filter((t) => t === 100_000 - 1005).length, 37);
  });
});
