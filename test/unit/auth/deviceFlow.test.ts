import * as assert from 'node:assert/strict';
import * as sinon from 'sinon';
import { pollDeviceToken } from '../../../src/auth/deviceFlow';
import { AuthNetworkError, OAuthError, SignInCancelledError } from '../../../src/auth/oauthErrors';
import type { TokenClient, TokenResponse } from '../../../src/auth/tokenClient';
import { systemClock } from '../../../src/common/clock';
import { silentLogger } from '../../../src/common/logger';

describe('device code polling', () => {
  let clock: sinon.SinonFakeTimers;
  beforeEach(() => (clock = sinon.useFakeTimers({ now: 0, toFake: ['Date', 'setTimeout', 'clearTimeout'] })));
  afterEach(() => clock.restore());

  const authorization = { device_code: 'dc', user_code: 'ABCD-EFGH', verification_uri: 'http://auth.test/device', expires_in: 60, interval: 5 };
  const tokens: TokenResponse = { access_token: 'at', token_type: 'Bearer' };

  function clientAnswering(...answers: Array<Error | TokenResponse>) {
    const times: number[] = [];
    const poll = sinon.stub().callsFake(async () => {
      times.push(Date.now());
      const answer = answers.shift() ?? new OAuthError('authorization_pending', undefined);
      if (answer instanceof Error) throw answer;
      return answer;
    });
    return { client: { pollDeviceToken: poll } as unknown as TokenClient, poll, times };
  }

  it("polls at the server's interval and slows down by 5 s after each slow_down", async () => {
    const { client, times } = clientAnswering(
      new OAuthError('authorization_pending', undefined),
      new OAuthError('slow_down', undefined),
      new OAuthError('authorization_pending', undefined),
      new OAuthError('slow_down', undefined),
      tokens,
    );
    const result = pollDeviceToken(client, authorization, { clock: systemClock, logger: silentLogger });
    await clock.tickAsync(60_000);
    assert.equal(await result, tokens);
    assert.deepEqual(times, [5000, 10_000, 20_000, 30_000, 45_000]);
  });

  it('keeps polling after a network failure', async () => {
    const { client, times } = clientAnswering(new AuthNetworkError('offline'), tokens);
    const result = pollDeviceToken(client, authorization, { clock: systemClock, logger: silentLogger });
    await clock.tickAsync(10_000);
    assert.equal(await result, tokens);
    assert.deepEqual(times, [5000, 10_000]);
  });

  it('gives up when the code expires, without polling after the expiry', async () => {
    const { client, poll } = clientAnswering();
    const result = pollDeviceToken(client, authorization, { clock: systemClock, logger: silentLogger });
    const settled = result.catch((error: unknown) => error);
    await clock.tickAsync(61_000);
    const error = await settled;
    assert.ok(error instanceof OAuthError && error.error === 'expired_token');
    assert.equal(poll.callCount, 11);
  });

  it('ends on access_denied with the server error', async () => {
    const { client } = clientAnswering(new OAuthError('access_denied', 'The user denied the request'));
    const result = pollDeviceToken(client, authorization, { clock: systemClock, logger: silentLogger }).catch((error: unknown) => error);
    await clock.tickAsync(5000);
    const error = await result;
    assert.ok(error instanceof OAuthError && error.error === 'access_denied');
  });

  it('stops polling at once when cancelled', async () => {
    const { client, poll } = clientAnswering();
    const controller = new AbortController();
    const result = pollDeviceToken(client, authorization, { clock: systemClock, logger: silentLogger, signal: controller.signal }).catch((error: unknown) => error);
    await clock.tickAsync(12_000);
    controller.abort(new SignInCancelledError());
    assert.ok((await result) instanceof SignInCancelledError);
    const calls = poll.callCount;
    await clock.tickAsync(60_000);
    assert.equal(poll.callCount, calls);
    assert.equal(clock.countTimers(), 0);
  });
});
