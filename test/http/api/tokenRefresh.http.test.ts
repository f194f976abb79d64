import * as assert from 'node:assert/strict';
import { tokensFor } from '../../helpers/sandboxTokens';
import { startSandbox, type Sandbox } from '../../sandbox';
import { rossiKeys, sandboxClient } from './harness';

/**
 * A session that hands out its access token and refreshes it on demand, as src/auth's session manager
 * does; it counts the refreshes. The refreshed token is signed by the sandbox's key.
 */
function sessionFor(sandbox: Sandbox, first: string) {
  const session = {
    current: first,
    refreshes: 0,
    async getAccessToken(options?: { forceRefresh?: boolean }): Promise<string> {
      if (options?.forceRefresh) {
        session.refreshes++;
        await new Promise((resolve) => setTimeout(resolve, 30)); // a token request takes a while
        session.current = sandbox.signAccessToken({}, 'mario.rossi');
      }
      return session.current;
    },
  };
  return session;
}

describe('A revoked token with calls queued behind it (sandbox)', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;

  before(async () => {
    sandbox = await startSandbox({ timeScale: 0.1 });
  });
  after(async () => {
    await sandbox?.close();
  });

  it('is refreshed once, and the calls behind it leave with the new token', async () => {
    const { accessToken } = await tokensFor(sandbox, 'mario.rossi', { grant: 'password' });
    const session = sessionFor(sandbox, accessToken);
    const client = sandboxClient(sandbox, { tokens: session, licenceKeys: await rossiKeys(sandbox) });
    try {
      const warm = await client.send({ method: 'GET', path: '/api/configurazioni' });
      assert.equal(warm.status, 200, 'the token works before it is revoked');
      sandbox.revokeAllTokens();
      sandbox.requests.length = 0;

      const responses = await Promise.all(Array.from({ length: 40 }, () => client.send({ method: 'GET', path: '/api/configurazioni' })));

      assert.ok(responses.every((response) => response.status === 200));
      assert.equal(session.refreshes, 1, 'one refresh for one refused token');
      const refused = sandbox.requests.filter((request) => request.status === 401);
      const withOldToken = sandbox.requests.filter((request) => request.headers['authorization'] === `Bearer ${accessToken}`);
      // Only the calls already on their way when the first 401 came back (one per-second window at most) carry the old token.
      if (process.env.FIGURES) console.log('401s', refused.length, 'refreshes', session.refreshes);
      assert.ok(refused.length <= 5, `${refused.length} answers of 401`);
      assert.equal(withOldToken.length, refused.length);
      assert.equal(sandbox.requests.filter((request) => request.status === 200).length, 40, 'nothing lost, nothing doubled');
    } finally {
      client.dispose();
    }
  });
});
