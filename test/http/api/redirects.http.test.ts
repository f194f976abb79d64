import * as assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient } from '../../../src/api/apiClient';
import type { ApiError } from '../../../src/api/errors';
import { LicenceKeyStore } from '../../../src/api/licenceKeyStore';
import { formatResponse } from '../../../src/views/responseFormat';
import { InMemorySecretStore } from '../../helpers/inMemorySecretStore';

/** Redirects over real HTTP (Node's fetch, redirect: 'manual'). */
describe('ApiClient redirects over HTTP', () => {
  const seen: Array<{ server: string; path: string; method?: string; body?: string; headers: IncomingHttpHeaders }> = [];
  let api: Server;
  let other: Server;
  let apiUrl: string;
  let otherUrl: string;

  const listen = (name: string, handler: (path: string) => { status: number; location?: string }) => {
    const server = createServer(async (req, res) => {
      const entry: (typeof seen)[number] = { server: name, path: req.url ?? '', method: req.method, headers: req.headers };
      seen.push(entry);
      let body = '';
      for await (const chunk of req) body += String(chunk);
      entry.body = body;
      const reply = handler(req.url ?? '');
      res.statusCode = reply.status;
      if (reply.location) res.setHeader('Location', reply.location);
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ server: name }));
    });
    return new Promise<Server>((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
  };

  before(async () => {
    other = await listen('other', () => ({ status: 200 }));
    otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    api = await listen('api', (path) => {
      if (path === '/api/moved') return { status: 301, location: '/api/here' };
      if (path === '/api/away') return { status: 302, location: `${otherUrl}/files/x` };
      if (path === '/api/post307') return { status: 307, location: `${otherUrl}/files/upload` };
      if (path === '/api/post308') return { status: 308, location: `${otherUrl}/files/upload` };
      if (path === '/api/post307here') return { status: 307, location: '/api/here' };
      return { status: 200 };
    });
    apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => api.close(resolve));
    await new Promise((resolve) => other.close(resolve));
  });
  beforeEach(() => (seen.length = 0));

  async function client() {
    const keys = new LicenceKeyStore(new InMemorySecretStore());
    await keys.set('core', { key: 'SECRETKEY1', label: 'k', organization: 'o' });
    return new ApiClient({
      settings: () => ({ baseUrl: apiUrl, allowedHosts: [], routes: [], endpoints: [], requestTimeoutSeconds: 5, safetyMarginMs: 0, maxQueueLength: 10, maxRetries: 0 }),
      tokens: { getAccessToken: async () => 'secret-token' },
      licenceKeys: keys,
    });
  }

  it('follows a redirect on the same origin with the credentials', async () => {
    const c = await client();
    const response = await c.send({ method: 'GET', path: '/api/moved' });
    assert.equal(response.status, 200);
    assert.deepEqual(seen.map((s) => [s.server, s.path, s.headers['authorization'], s.headers['authorization-key']]), [
      ['api', '/api/moved', 'Bearer secret-token', 'SECRETKEY1'],
      ['api', '/api/here', 'Bearer secret-token', 'SECRETKEY1'],
    ]);
    c.dispose();
  });

  it('drops the bearer token, the licence key and the tenant when the redirect leaves the origin', async () => {
    const c = await client();
    const response = await c.send({ method: 'GET', path: '/api/away' });
    assert.equal(response.url, `${otherUrl}/files/x`);
    assert.deepEqual(response.json, { server: 'other' });
    const hop = seen.find((s) => s.server === 'other')!;
    assert.equal(hop.headers['authorization'], undefined);
    assert.equal(hop.headers['authorization-key'], undefined);
    assert.equal(hop.headers['user-tenant'], undefined);
    c.dispose();
  });

  it('drops the headers the user wrote too when the redirect leaves the origin, and says so in the header block', async () => {
    const c = await client();
    const response = await c.send({ method: 'GET', path: '/api/away', headers: { 'X-Api-Secret': 'user-secret', 'X-Trace': 'trace-1' } });
    assert.deepEqual(response.json, { server: 'other' });
    const [first, hop] = seen;
    assert.equal(first.headers['x-api-secret'], 'user-secret', 'the API host gets what the user wrote');
    assert.equal(first.headers['x-trace'], 'trace-1');
    assert.equal(hop.server, 'other');
    assert.equal(hop.headers['x-api-secret'], undefined, 'a secret header the user wrote followed the redirect');
    assert.equal(hop.headers['x-trace'], undefined);
    assert.equal(hop.headers['accept'], 'application/json', 'what the client adds that is no credential still goes');
    const note = `Not sent on to ${otherUrl.replace('http://', '')} (a redirect to another host): X-Api-Secret, X-Trace, Authorization, Authorization-Key.`;
    assert.deepEqual(response.warnings, [note]);
    assert.ok(formatResponse(response).text.includes(`// Warning: ${note}`), 'the header block says what was dropped');
    c.dispose();
  });

  it('keeps the headers the user wrote on a redirect within the origin, with no note', async () => {
    const c = await client();
    const response = await c.send({ method: 'GET', path: '/api/moved', headers: { 'X-Api-Secret': 'user-secret' } });
    assert.deepEqual(seen.map((s) => s.headers['x-api-secret']), ['user-secret', 'user-secret']);
    assert.deepEqual(response.warnings, []);
    c.dispose();
  });

  for (const status of [307, 308]) {
    it(`does not send a POST body on to another origin after a ${status}, and says where it would have gone`, async () => {
      const c = await client();
      await assert.rejects(c.send({ method: 'POST', path: `/api/post${status}`, body: { invoice: 1 } }), (error: ApiError) => {
        assert.equal(error.kind, 'hostValidation');
        assert.ok(error.message.includes(`${otherUrl}/files/upload`), error.message);
        assert.equal(error.details.location, `${otherUrl}/files/upload`);
        assert.equal(error.details.status, status);
        return true;
      });
      assert.deepEqual(seen.map((s) => s.server), ['api'], 'nothing reached the other origin');
      c.dispose();
    });
  }

  it('follows a 307 after a POST on the same origin, with the body', async () => {
    const c = await client();
    const response = await c.send({ method: 'POST', path: '/api/post307here', body: { invoice: 1 } });
    assert.equal(response.status, 200);
    assert.deepEqual(seen.map((s) => [s.server, s.path, s.method, s.body]), [
      ['api', '/api/post307here', 'POST', '{"invoice":1}'],
      ['api', '/api/here', 'POST', '{"invoice":1}'],
    ]);
    c.dispose();
  });
});
