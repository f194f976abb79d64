import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import sinon from 'sinon';
import { LoopbackServer } from '../../../src/auth/loopbackServer';
import { PendingAttempts } from '../../../src/auth/pendingAttempts';
import { silentLogger } from '../../../src/common/logger';

describe('loopback redirect server', () => {
  let server: LoopbackServer | undefined;
  afterEach(async () => server?.close());

  async function start(pending: PendingAttempts) {
    server = await LoopbackServer.start({ onCallback: (parameters) => pending.handleCallback(parameters), logger: silentLogger });
    return server;
  }

  it('listens on 127.0.0.1 with a random port at /auth-callback', async () => {
    const first = await start(new PendingAttempts(silentLogger));
    const second = await LoopbackServer.start({ onCallback: () => false, logger: silentLogger });
    try {
      assert.match(first.redirectUri, /^http:\/\/127\.0\.0\.1:\d+\/auth-callback$/);
      assert.notEqual(first.redirectUri, second.redirectUri);
    } finally {
      await second.close();
    }
  });

  it('binds 127.0.0.1 only: the socket address, and no answer on the machine\'s other addresses', async () => {
    // The server object is private to LoopbackServer: catch it as it starts listening.
    const listen = sinon.spy(http.Server.prototype, 'listen');
    let loopback: LoopbackServer;
    try {
      loopback = await start(new PendingAttempts(silentLogger));
    } finally {
      listen.restore();
    }
    const servers = listen.thisValues.filter((value): value is http.Server => value instanceof http.Server);
    assert.equal(servers.length, 1, 'one server started');
    const bound = servers[0].address() as AddressInfo;
    assert.equal(bound.address, '127.0.0.1', `bound to ${bound.address}`);
    assert.equal(bound.family, 'IPv4');
    assert.equal(`http://127.0.0.1:${bound.port}/auth-callback`, loopback.redirectUri);
    // Where this machine has another address, the port must not answer there.
    const others = Object.values(os.networkInterfaces())
      .flat()
      .filter((entry) => entry && !entry.internal && entry.family === 'IPv4')
      .map((entry) => entry!.address);
    for (const address of others) {
      const reached = await fetch(`http://${address}:${bound.port}/auth-callback`, { signal: AbortSignal.timeout(2000) }).then(
        () => true,
        () => false,
      );
      assert.equal(reached, false, `the sign-in server answered on ${address}`);
    }
  });

  it('answers 404 elsewhere and 400 to a forged state, and keeps waiting for the real callback', async () => {
    const pending = new PendingAttempts(silentLogger);
    const loopback = await start(pending);
    const attempt = pending.wait('real-state');
    const origin = new URL(loopback.redirectUri).origin;
    assert.equal((await fetch(`${origin}/other`)).status, 404);
    const forged = await fetch(`${loopback.redirectUri}?code=forged&state=forged`);
    assert.equal(forged.status, 400);
    assert.match(await forged.text(), /does not belong to a sign-in in progress/);
    assert.equal(loopback.isClosed, false);
    const real = await fetch(`${loopback.redirectUri}?code=the-code&state=real-state`);
    assert.equal(real.status, 200);
    assert.equal((await attempt).code, 'the-code');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(loopback.isClosed, true, 'closed after use');
  });

  it('shows the server error (escaped) and ends the attempt with it', async () => {
    const pending = new PendingAttempts(silentLogger);
    const loopback = await start(pending);
    const attempt = pending.wait('s').catch((error: unknown) => error);
    const response = await fetch(`${loopback.redirectUri}?error=access_denied&error_description=${encodeURIComponent('<b>no</b>')}&state=s`);
    const html = await response.text();
    assert.match(html, /&#60;b&#62;no&#60;\/b&#62;/);
    assert.doesNotMatch(html, /<b>no<\/b>/);
    assert.match(String(await attempt), /access_denied/);
  });
});
