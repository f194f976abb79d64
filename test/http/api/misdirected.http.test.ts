import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient } from '../../../src/api/apiClient';
import { LicenceKeyStore } from '../../../src/api/licenceKeyStore';
import { CountTimeEstimator } from '../../../src/api/countTimeEstimate';
import { localScheduler, type Slot } from '../../../src/api/requestScheduler';
import { systemClock } from '../../../src/common/clock';
import { InMemorySecretStore } from '../../helpers/inMemorySecretStore';

/**
 * 421 (Misdirected Request) over real HTTP: the Fetch standard lets fetch send a request once more by
 * itself after a 421 on its first connection. Every request that reaches the wire must take a slot,
 * and a POST must reach it once. The server counts the requests on the wire; a spy counts the slots
 * the scheduler logs (granted, then answered, failed or released after sending).
 */
describe('A 421 answer: every request on the wire takes its slot', () => {
  let server: Server;
  let url: string;
  let wire: Array<{ method: string; body: string; length?: string; chunked: boolean }>;
  /** What the server answers to the n-th request (1-based) on the wire. */
  let answer: (n: number) => number;

  before(async () => {
    server = createServer(async (request, response) => {
      let body = '';
      for await (const chunk of request) body += String(chunk);
      wire.push({ method: request.method ?? '', body, length: request.headers['content-length'], chunked: request.headers['transfer-encoding'] === 'chunked' });
      response.writeHead(answer(wire.length), { 'content-type': 'application/json' });
      response.end('{"error":"wrong_host"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    wire = [];
    answer = () => 421;
  });

  async function clientCountingSlots(): Promise<{ client: ApiClient; slots: () => number }> {
    const scheduler = localScheduler({
      clock: systemClock,
      limits: [{ unit: 'second', windowMs: 1000, max: 100 }],
      safetyMarginMs: () => 0,
      maxQueueLength: () => 100,
      countTime: new CountTimeEstimator(() => 'answer'),
    });
    let taken = 0;
    const acquire = scheduler.acquire.bind(scheduler);
    scheduler.acquire = async (options) => {
      const slot: Slot = await acquire(options);
      taken++;
      return slot;
    };
    const keys = new LicenceKeyStore(new InMemorySecretStore());
    await keys.set('core', { key: 'KEY421', label: 'k', organization: 'o' });
    const client = new ApiClient({
      settings: () => ({ baseUrl: url, allowedHosts: [], routes: [], endpoints: [], requestTimeoutSeconds: 5, safetyMarginMs: 0, maxQueueLength: 100, maxRetries: 3 }),
      tokens: { getAccessToken: async () => 'token-421' },
      licenceKeys: keys,
      scheduler,
    });
    return { client, slots: () => taken };
  }

  const once: Array<{ method: string; body?: object; sent: string; length?: string }> = [
    { method: 'POST', body: { name: 'Rossi' }, sent: '{"name":"Rossi"}', length: '16' },
    { method: 'POST', body: undefined, sent: '', length: '0' },
    { method: 'DELETE', body: undefined, sent: '', length: undefined }, // undici sends no zero length for a DELETE
    { method: 'PUT', body: { name: 'Verdi' }, sent: '{"name":"Verdi"}', length: '16' },
  ];
  for (const call of once) {
    it(`sends a ${call.method} ${call.body ? 'with' : 'without'} a body answered 421 once, with its length, in one slot`, async () => {
      const { client, slots } = await clientCountingSlots();
      await assert.rejects(client.send({ method: call.method, path: '/api/ditte', body: call.body }));
      client.dispose();
      assert.equal(wire.length, 1, 'requests on the wire');
      assert.equal(slots(), wire.length, 'slots taken for the requests on the wire');
      assert.deepEqual(wire[0], { method: call.method, body: call.sent, length: call.length, chunked: false });
    });
  }

  it('takes a second slot for the GET that fetch sends again after a 421', async () => {
    const { client, slots } = await clientCountingSlots();
    await assert.rejects(client.send({ method: 'GET', path: '/api/ditte' }));
    client.dispose();
    assert.equal(wire.length, 2, 'fetch sends a bodiless request again after a 421');
    assert.equal(slots(), wire.length, 'slots taken for the requests on the wire');
  });

  it('sends a POST answered 200 with its body and length as before', async () => {
    answer = () => 200;
    const { client, slots } = await clientCountingSlots();
    const response = await client.send({ method: 'POST', path: '/api/ditte', body: { name: 'Bianchi' } });
    client.dispose();
    assert.equal(response.status, 200);
    assert.equal(wire.length, 1);
    assert.equal(slots(), 1);
    assert.deepEqual(wire[0], { method: 'POST', body: '{"name":"Bianchi"}', length: '18', chunked: false });
  });
});
