// The test servers of other programs (redis-server, squid) on a port another process took between
// freePort() and their bind: each says so (PortTaken), and a start on a free port takes another one.
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { startForwardProxy } from '../../helpers/forwardProxy';
import { freePort, onFreePort, PortTaken } from '../../helpers/freePort';
import { RedisServer } from '../../helpers/redisServer';

describe('test servers on a port taken meanwhile', function () {
  this.timeout(30_000);
  let holder: Server;
  let held: number;

  before(async () => {
    held = await freePort();
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(held, '127.0.0.1', resolve));
  });
  after(() => holder.close());

  it('redis-server on a taken port: PortTaken, naming the port', async () => {
    await assert.rejects(RedisServer.start(held), (error: Error) => error instanceof PortTaken && error.message.includes(String(held)));
  });

  it('squid on a taken port: PortTaken, not the other process taken for the proxy', async () => {
    const outcome = await startForwardProxy({ port: held }).then(
      async (proxy) => (await proxy.close(), 'started, on the other process'),
      (error: Error) => error,
    );
    assert.ok(outcome instanceof PortTaken && outcome.message.includes(String(held)), String(outcome));
  });

  it('a killed redis-server keeps its port until it runs again: no other server takes it meanwhile', async () => {
    const killed = await RedisServer.start();
    try {
      await killed.kill();
      await assert.rejects(RedisServer.start(killed.port), PortTaken);
      await killed.run();
      await assert.rejects(RedisServer.start(killed.port), PortTaken, 'running again on its port');
    } finally {
      await killed.stop();
    }
    const again = await RedisServer.start(killed.port);
    await again.stop();
  });

  it('a start on a free port tries another when told the port was taken, and gives up on anything else', async () => {
    const tried: number[] = [];
    const port = await onFreePort(async (candidate) => {
      tried.push(candidate);
      if (tried.length < 3) throw new PortTaken(`taken: ${candidate}`);
      return candidate;
    });
    assert.equal(tried.length, 3);
    assert.equal(port, tried[2]);
    let calls = 0;
    await assert.rejects(
      onFreePort(async () => {
        calls++;
        throw new Error('no such program');
      }),
      /no such program/,
    );
    assert.equal(calls, 1, 'another failure is not retried');
    calls = 0;
    await assert.rejects(
      onFreePort(async (candidate) => {
        calls++;
        throw new PortTaken(`taken: ${candidate}`);
      }, 4),
      PortTaken,
    );
    assert.equal(calls, 4, 'at most the attempts asked');
  });
});
