import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import sinon from 'sinon';
import { parseServiceLimitInfo } from '../../../src/api/serviceLimitInfo';
import { silentLogger } from '../../../src/common/logger';

describe('parseServiceLimitInfo', () => {
  it('reads api-usage=<used>/<limit>', () => {
    assert.deepEqual(parseServiceLimitInfo('api-usage=1234/10000'), { used: 1234, limit: 10000 });
  });

  it('tolerates spaces and letter case', () => {
    for (const value of ['  API-Usage = 7 / 50 ', 'Api-usage=7/50', 'api-usage =7/ 50']) {
      assert.deepEqual(parseServiceLimitInfo(value), { used: 7, limit: 50 }, value);
    }
  });

  it('finds the usage among other parameters', () => {
    assert.deepEqual(parseServiceLimitInfo('foo=bar; api-usage=3/9, other=1'), { used: 3, limit: 9 });
  });

  it('keeps usage above the limit (the server may count refused calls)', () => {
    assert.deepEqual(parseServiceLimitInfo('api-usage=12/10'), { used: 12, limit: 10 });
  });

  it('ignores and logs malformed values', () => {
    const logger = { ...silentLogger, warn: sinon.spy() };
    for (const value of ['', 'api-usage=', 'api-usage=1/', 'api-usage=-1/5', 'api-usage=1.5/5', 'api-usage=abc/10', 'usage=1/2', 'api-usage=1/2/3', 'api-usage=99999999999999999999/1', 'api-usage=0/0', 'api-usage=5/0']) {
      assert.equal(parseServiceLimitInfo(value, logger), undefined, value);
    }
    assert.equal(logger.warn.callCount, 11);
  });

  it('treats a limit of 0 as unknown, never as "quota reached"', () => {
    for (const value of ['api-usage=5/0', 'api-usage=0/0', 'api-usage = 7 / 000']) assert.equal(parseServiceLimitInfo(value, silentLogger), undefined, value);
  });

  it('says nothing when the header is missing', () => {
    const logger = { ...silentLogger, warn: sinon.spy() };
    assert.equal(parseServiceLimitInfo(null, logger), undefined);
    assert.equal(parseServiceLimitInfo(undefined, logger), undefined);
    assert.equal(logger.warn.callCount, 0);
  });

  it('never throws and returns only non-negative safe integers, for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (value) => {
        const result = parseServiceLimitInfo(value, silentLogger);
        if (result !== undefined) {
          assert.ok(Number.isSafeInteger(result.used) && result.used >= 0);
          assert.ok(Number.isSafeInteger(result.limit) && result.limit > 0);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('reads back every well-formed value, whatever the spacing and case', () => {
    const spaces = fc.stringMatching(/^[ \t]{0,3}$/);
    fc.assert(
      fc.property(
        fc.nat({ max: 2 ** 40 }),
        fc.integer({ min: 1, max: 2 ** 40 }),
        spaces,
        spaces,
        spaces,
        fc.boolean(),
        (used, limit, s1, s2, s3, upper) => {
          const name = upper ? 'API-USAGE' : 'api-usage';
          const value = `${s1}${name}${s2}=${s3}${used}${s2}/${s1}${limit}${s3}`;
          assert.deepEqual(parseServiceLimitInfo(value), { used, limit });
        },
      ),
    );
  });
});
