import * as assert from 'node:assert/strict';
import * as sinon from 'sinon';
import { OAuthError, SignInCancelledError } from '../../../src/auth/oauthErrors';
import { signInKey, SignInQueue, SignInReplacedError } from '../../../src/auth/signInQueue';

const SCOPES = ['openid', 'profile', 'offline_access', 'api'];

/** A sign-in that settles when the test says, or with SignInCancelledError on abort (as the real runner does). */
function fakeSignIn(name: string) {
  let resolve!: (value: string) => void;
  let reject!: (error: unknown) => void;
  const settled = new Promise<string>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  const state = { signal: undefined as AbortSignal | undefined, abortSettles: true };
  const start = sinon.spy((signal: AbortSignal) => {
    state.signal = signal;
    signal.addEventListener('abort', () => {
      if (state.abortSettles) reject(new SignInCancelledError());
    });
    return settled;
  });
  return { name, start, state, succeed: () => resolve(`session ${name}`), fail: reject };
}

/** Lets every queued promise callback run. */
const flush = () => new Promise((resolve) => setImmediate(resolve));

/** The outcome of a promise, as a value to compare: 'ok: <value>' or '<error name>: <message>'. */
const outcome = (promise: Promise<string>) =>
  promise.then((value) => `ok: ${value}`, (error: Error) => `${error.name}: ${error.message}`);

const REPLACED = 'SignInReplacedError: Sign-in was replaced by a newer sign-in with other options.';

describe('sign-in queue: join or replace', () => {
  describe('signInKey', () => {
    it('is the same for the same options and scope set, whatever the order and repeats of the scopes', () => {
      assert.equal(
        signInKey({ tenantId: 't1', loginHint: 'mario', forceLogin: true }, SCOPES),
        signInKey({ forceLogin: true, loginHint: 'mario', tenantId: 't1' }, [...SCOPES].reverse().concat('api')),
      );
    });

    it('treats an absent option, an empty string and false alike (none of them reaches the authorize URL)', () => {
      assert.equal(signInKey({}, SCOPES), signInKey({ tenantId: '', loginHint: '', forceLogin: false }, SCOPES));
      assert.equal(signInKey({}, SCOPES), signInKey({ tenantId: undefined, forceLogin: undefined }, SCOPES));
    });

    it('differs when the tenant, the login hint, prompt=login or the scope set differ', () => {
      const plain = signInKey({}, SCOPES);
      for (const other of [
        signInKey({ tenantId: 't1' }, SCOPES),
        signInKey({ loginHint: 'mario' }, SCOPES),
        signInKey({ forceLogin: true }, SCOPES),
        signInKey({}, [...SCOPES, 'efat']),
        signInKey({}, SCOPES.slice(1)),
      ]) {
        assert.notEqual(other, plain);
      }
      assert.notEqual(signInKey({ tenantId: 't1' }, SCOPES), signInKey({ tenantId: 't2' }, SCOPES));
    });
  });

  describe('SignInQueue', () => {
    let queue: SignInQueue<string>;
    const plain = signInKey({}, SCOPES);
    const tenantB = signInKey({ tenantId: 'b' }, SCOPES);
    const tenantC = signInKey({ tenantId: 'c' }, SCOPES);
    beforeEach(() => {
      queue = new SignInQueue<string>();
    });

    it('a request with the same options joins the running sign-in: one start, one result for both', async () => {
      const first = fakeSignIn('first');
      const second = fakeSignIn('second');
      const a = queue.request(plain, first.start);
      const b = queue.request(signInKey({}, [...SCOPES].reverse()), second.start);
      assert.equal(a, b);
      first.succeed();
      assert.deepEqual([await outcome(a), await outcome(b)], ['ok: session first', 'ok: session first']);
      assert.equal(first.start.callCount, 1);
      assert.equal(second.start.callCount, 0);
      assert.equal(first.state.signal?.aborted, false);
    });

    it('joins(key) says whether a request would join: the running one, or the waiting one once there is one', async () => {
      const first = fakeSignIn('first');
      assert.equal(queue.joins(plain), false, 'nothing runs');
      const a = outcome(queue.request(plain, first.start));
      assert.equal(queue.joins(plain), true);
      assert.equal(queue.joins(tenantB), false);
      const second = fakeSignIn('second');
      const b = outcome(queue.request(tenantB, second.start));
      assert.equal(queue.joins(plain), false, 'the running one was replaced');
      assert.equal(queue.joins(tenantB), true);
      assert.equal(await a, REPLACED);
      second.succeed();
      assert.equal(await b, 'ok: session second');
      assert.equal(queue.joins(tenantB), false, 'nothing runs any more');
    });

    it('restart: a request with the same options replaces the running sign-in instead of joining it', async () => {
      const first = fakeSignIn('first');
      const second = fakeSignIn('second');
      const a = outcome(queue.request(plain, first.start));
      const b = outcome(queue.request(plain, second.start, { restart: true }));
      assert.equal(first.state.signal?.aborted, true);
      assert.equal(await a, REPLACED);
      assert.equal(second.start.callCount, 1, 'a new sign-in started once the first had settled');
      second.succeed();
      assert.equal(await b, 'ok: session second');
    });

    it('after a sign-in has settled, the next request starts a new one', async () => {
      const first = fakeSignIn('first');
      const second = fakeSignIn('second');
      const a = queue.request(plain, first.start);
      first.succeed();
      assert.equal(await a, 'session first');
      assert.equal(queue.busy, false);
      const b = queue.request(plain, second.start);
      assert.notEqual(a, b);
      second.succeed();
      assert.equal(await b, 'session second');
      assert.equal(second.start.callCount, 1);
    });

    it('different options cancel the running sign-in, whose caller is told it was replaced; the new one starts after it settled', async () => {
      const first = fakeSignIn('first');
      first.state.abortSettles = false; // it takes its time to wind down
      const second = fakeSignIn('second');
      const a = outcome(queue.request(plain, first.start));
      const b = outcome(queue.request(tenantB, second.start));
      assert.equal(first.state.signal?.aborted, true);
      assert.ok(first.state.signal?.reason instanceof SignInReplacedError);
      await flush();
      assert.equal(second.start.callCount, 0, 'never two at once: the second waits for the first to settle');
      first.fail(new SignInCancelledError());
      assert.equal(await a, REPLACED);
      assert.equal(second.start.callCount, 1);
      assert.equal(second.state.signal?.aborted, false);
      second.succeed();
      assert.equal(await b, 'ok: session second');
      assert.equal(queue.busy, false);
    });

    it('the replaced sign-in is told it was replaced whatever error its aborted work ended with', async () => {
      const first = fakeSignIn('first');
      first.state.abortSettles = false;
      const second = fakeSignIn('second');
      const a = outcome(queue.request(plain, first.start));
      const b = outcome(queue.request(tenantB, second.start));
      first.fail(new OAuthError('access_denied', undefined));
      assert.equal(await a, REPLACED);
      second.succeed();
      assert.equal(await b, 'ok: session second');
    });

    it('a replaced sign-in that completed before the abort took hold still hands out its session', async () => {
      const first = fakeSignIn('first');
      first.state.abortSettles = false;
      const second = fakeSignIn('second');
      const a = outcome(queue.request(plain, first.start));
      const b = outcome(queue.request(tenantB, second.start));
      first.succeed();
      assert.equal(await a, 'ok: session first');
      second.succeed();
      assert.equal(await b, 'ok: session second');
      assert.equal(second.start.callCount, 1);
    });

    it('a third request with the options of the waiting one joins it', async () => {
      const first = fakeSignIn('first');
      const second = fakeSignIn('second');
      const third = fakeSignIn('third');
      first.state.abortSettles = false;
      const a = outcome(queue.request(plain, first.start));
      const b = queue.request(tenantB, second.start);
      const c = queue.request(tenantB, third.start);
      assert.equal(b, c);
      first.fail(new SignInCancelledError());
      assert.equal(await a, REPLACED);
      second.succeed();
      assert.deepEqual([await outcome(b), await outcome(c)], ['ok: session second', 'ok: session second']);
      assert.equal(third.start.callCount, 0);
    });

    it('a third request with other options replaces the waiting one, which never starts', async () => {
      const first = fakeSignIn('first');
      const second = fakeSignIn('second');
      const third = fakeSignIn('third');
      first.state.abortSettles = false;
      const a = outcome(queue.request(plain, first.start));
      const b = outcome(queue.request(tenantB, second.start));
      const c = outcome(queue.request(tenantC, third.start));
      assert.equal(await b, REPLACED, 'the waiting one is told at once');
      assert.equal(third.start.callCount, 0, 'the first has not settled yet');
      first.fail(new SignInCancelledError());
      assert.equal(await a, REPLACED);
      third.succeed();
      assert.equal(await c, 'ok: session third');
      assert.equal(second.start.callCount, 0);
      assert.equal(third.start.callCount, 1);
    });

    it('a third request with the options of the replaced running one waits as a new sign-in, it does not join the cancelled one', async () => {
      const first = fakeSignIn('first');
      const second = fakeSignIn('second');
      const third = fakeSignIn('third');
      first.state.abortSettles = false;
      const a = outcome(queue.request(plain, first.start));
      const b = outcome(queue.request(tenantB, second.start));
      const c = outcome(queue.request(plain, third.start));
      first.fail(new SignInCancelledError());
      assert.deepEqual([await a, await b], [REPLACED, REPLACED]);
      third.succeed();
      assert.equal(await c, 'ok: session third');
      assert.equal(second.start.callCount, 0);
    });

    it('a sign-in settling by itself (the user cancels it) keeps its own error, and the next request starts at once', async () => {
      const first = fakeSignIn('first');
      const second = fakeSignIn('second');
      const a = outcome(queue.request(plain, first.start));
      first.fail(new SignInCancelledError());
      assert.equal(await a, 'SignInCancelledError: Sign-in was cancelled.', 'settled by itself, not replaced');
      const b = outcome(queue.request(tenantB, second.start));
      assert.equal(second.start.callCount, 1, 'nothing runs: it starts at once');
      second.fail(new OAuthError('access_denied', 'The user said no'));
      assert.equal(await b, 'OAuthError: Sign-in failed: The user said no (access_denied)');
      assert.equal(queue.busy, false);
    });

    it('errors go to the right callers: the replaced one gets the replacement error, the new one its own failure', async () => {
      const first = fakeSignIn('first');
      const second = fakeSignIn('second');
      const joined = fakeSignIn('joined');
      const a = outcome(queue.request(plain, first.start)); // aborting settles it at once
      const b = outcome(queue.request(tenantB, second.start));
      const b2 = outcome(queue.request(tenantB, joined.start));
      assert.equal(await a, REPLACED);
      await flush();
      assert.equal(second.start.callCount, 1);
      second.fail(new OAuthError('server_error', 'down'));
      const failure = 'OAuthError: Sign-in failed: down (server_error)';
      assert.deepEqual([await b, await b2], [failure, failure]);
      // The queue is free again after a failure.
      const next = fakeSignIn('next');
      const c = outcome(queue.request(tenantB, next.start));
      next.succeed();
      assert.equal(await c, 'ok: session next');
    });

    it('a start that throws at once rejects its callers and frees the queue for the waiting one', async () => {
      const second = fakeSignIn('second');
      const a = outcome(queue.request(plain, () => {
        throw new Error('no authUrl');
      }));
      assert.equal(await a, 'Error: no authUrl');
      const b = outcome(queue.request(tenantB, second.start));
      second.succeed();
      assert.equal(await b, 'ok: session second');
    });

    it('SignInReplacedError is a kind of cancel, so no fallback flow is offered for it', () => {
      const error = new SignInReplacedError();
      assert.ok(error instanceof SignInCancelledError);
      assert.equal(error.name, 'SignInReplacedError');
      assert.match(String(error), /^SignInReplacedError: Sign-in was replaced by a newer sign-in/);
    });
  });
});
