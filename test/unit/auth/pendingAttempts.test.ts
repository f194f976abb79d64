import * as assert from 'node:assert/strict';
import * as sinon from 'sinon';
import { OAuthError, SignInCancelledError } from '../../../src/auth/oauthErrors';
import { PendingAttempts } from '../../../src/auth/pendingAttempts';
import { silentLogger } from '../../../src/common/logger';

const params = (query: string) => new URLSearchParams(query);

describe('pending sign-in attempts', () => {
  let logger: typeof silentLogger & { warn: sinon.SinonSpy };
  let pending: PendingAttempts;
  beforeEach(() => {
    logger = { ...silentLogger, warn: sinon.spy() };
    pending = new PendingAttempts(logger);
  });

  it('hands the code to the attempt with the same state', async () => {
    const first = pending.wait('state-1');
    const second = pending.wait('state-2');
    assert.equal(pending.handleCallback(params('code=code-2&state=state-2')), true);
    assert.equal(pending.handleCallback(params('code=code-1&state=state-1&iss=http%3A%2F%2Fauth')), true);
    assert.deepEqual(await second, { code: 'code-2', iss: undefined });
    assert.deepEqual(await first, { code: 'code-1', iss: 'http://auth' });
    assert.equal(pending.size, 0);
  });

  it('ignores and logs an unknown state, and the attempt keeps waiting', async () => {
    const attempt = pending.wait('good');
    assert.equal(pending.handleCallback(params('code=forged&state=evil')), false);
    assert.equal(pending.handleCallback(params('code=forged')), false);
    assert.equal(logger.warn.callCount, 2);
    assert.equal(pending.size, 1);
    pending.handleCallback(params('code=real&state=good'));
    assert.equal((await attempt).code, 'real');
  });

  it('a late answer to an attempt that ended (cancelled, timed out) signs no one in and is reported; a replay or a forgery is not', async () => {
    const late = sinon.spy();
    pending.onLateCallback(late);
    const cancelled = pending.wait('cancelled');
    pending.cancel('cancelled', new SignInCancelledError());
    await assert.rejects(cancelled, SignInCancelledError);
    assert.equal(pending.handleCallback(params('code=c&state=cancelled')), false);
    assert.equal(late.callCount, 1);
    const used = pending.wait('used');
    pending.handleCallback(params('code=first&state=used'));
    await used;
    pending.cancel('used', new SignInCancelledError()); // what the runner does after every attempt: a no-op here
    pending.handleCallback(params('code=again&state=used'));
    pending.handleCallback(params('code=x&state=forged'));
    assert.equal(late.callCount, 1);
  });

  it('ignores a replayed state', async () => {
    const attempt = pending.wait('once');
    pending.handleCallback(params('code=first&state=once'));
    assert.equal((await attempt).code, 'first');
    assert.equal(pending.handleCallback(params('code=again&state=once')), false);
    assert.ok(logger.warn.calledWithMatch(/unknown or already used/));
  });

  it("ends the attempt with the server's error message", async () => {
    const attempt = pending.wait('s');
    pending.handleCallback(params('error=access_denied&error_description=The+user+said+no&state=s'));
    await assert.rejects(attempt, (error: unknown) => {
      assert.ok(error instanceof OAuthError);
      assert.equal(error.error, 'access_denied');
      assert.match(error.message, /The user said no/);
      return true;
    });
  });

  it('rejects a callback without a code', async () => {
    const attempt = pending.wait('s');
    pending.handleCallback(params('state=s'));
    await assert.rejects(attempt, OAuthError);
  });

  it('cancel frees the state: a later callback no longer matches', async () => {
    const attempt = pending.wait('s');
    pending.cancel('s', new SignInCancelledError());
    await assert.rejects(attempt, SignInCancelledError);
    assert.equal(pending.size, 0);
    assert.equal(pending.handleCallback(params('code=late&state=s')), false);
  });
});
