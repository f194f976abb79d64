import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { buildCurlCommand, curlForPath, quote, usesMaskedVariables } from '../../../src/engine/curlCommand';

const request = {
  method: 'GET',
  url: 'https://c1.example.com/efat/api/v1/ditte?q=a%20b',
  headers: {
    'user-tenant': '0f8fad5b-d9cb-469f-a165-70867728950e',
    authorization: 'Bearer ***',
    accept: 'application/json',
    'authorization-key': '***',
    'content-length': '0',
  },
};

describe('curlCommand', () => {
  it('masks the token and the key as shell variables by default', () => {
    const command = buildCurlCommand(request);
    assert.equal(
      command,
      [
        "curl 'https://c1.example.com/efat/api/v1/ditte?q=a%20b'",
        "-H 'accept: application/json'",
        '-H "authorization: Bearer $TENANT_API_TOKEN"',
        '-H "authorization-key: $TENANT_API_KEY"',
        "-H 'user-tenant: 0f8fad5b-d9cb-469f-a165-70867728950e'",
      ].join(' \\\n  '),
    );
    assert.equal(usesMaskedVariables(command), true);
    assert.doesNotMatch(command, /\*\*\*/);
  });

  it('includes the real values only when given', () => {
    const command = buildCurlCommand(request, { token: 'tok.en', licenceKey: 'KEY-1' });
    assert.match(command, /-H 'authorization: Bearer tok\.en'/);
    assert.match(command, /-H 'authorization-key: KEY-1'/);
    assert.equal(usesMaskedVariables(command), false);
  });

  it('adds the method and the body for a POST, quoted for the shell', () => {
    const command = buildCurlCommand({
      method: 'post',
      url: 'https://api.example.com/api/x',
      headers: { 'content-type': 'application/json' },
      body: `{"nome":"l'azienda"}`,
    });
    assert.match(command, /^curl -X POST 'https:\/\/api\.example\.com\/api\/x'/);
    assert.match(command, /--data-raw '\{"nome":"l'\\''azienda"\}'$/);
  });

  it('quotes so that a POSIX shell reads back the exact value', function () {
    const nasty = `a'b"c$HOME \`x\` \\ end`;
    const echoed = execFileSync('/bin/sh', ['-c', `printf %s ${quote(nasty)}`]).toString();
    assert.equal(echoed, nasty);
  });

  it('the whole command is valid shell: the masked variables expand', () => {
    const command = buildCurlCommand(request).replace(/^curl/, 'printf "%s\\n"');
    const out = execFileSync('/bin/sh', ['-c', command], { env: { TENANT_API_TOKEN: 'T', TENANT_API_KEY: 'K' } }).toString();
    assert.ok(out.includes('authorization: Bearer T\n'));
    assert.ok(out.includes('authorization-key: K\n'));
  });

  it('adds no Content-Type to a request without a body (a GET), keeps it with one', () => {
    const headers = { Accept: 'application/json', 'Content-Type': 'application/json' };
    const get = buildCurlCommand({ method: 'GET', url: 'https://h/x', headers });
    assert.doesNotMatch(get, /content-type/i);
    assert.match(get, /-H 'Accept: application\/json'/);
    assert.doesNotMatch(buildCurlCommand({ method: 'DELETE', url: 'https://h/x', headers }), /content-type/i);
    assert.match(buildCurlCommand({ method: 'POST', url: 'https://h/x', headers, body: '{}' }), /-H 'Content-Type: application\/json'/);
  });

  it('uses --head for HEAD and no -X for GET', () => {
    assert.match(buildCurlCommand({ method: 'HEAD', url: 'https://h/x', headers: {} }), /^curl --head 'https:\/\/h\/x'$/);
    assert.equal(buildCurlCommand({ method: 'GET', url: 'https://h/x', headers: {} }), "curl 'https://h/x'");
  });

  it('adds the headers the client adds, by the client\'s rule: User-Tenant only on a tenant-scoped route called for a tenant', () => {
    const url = 'https://c1.example.com/efat/x';
    const scoped = curlForPath({ method: 'GET', url, headers: { 'X-A': 'b' } }, { prefix: '/efat/', host: 'cluster', module: 'efat', tenantScoped: true }, 't-1');
    assert.match(scoped, /-H "Authorization: Bearer \$TENANT_API_TOKEN"/);
    assert.match(scoped, /-H "Authorization-Key: \$TENANT_API_KEY_EFAT"/, "the runner's variable of the module");
    assert.match(scoped, /-H 'User-Tenant: t-1'/);
    assert.match(scoped, /-H 'X-A: b'/);
    // Copy as cURL from the history added it whenever the route needed a tenant; the client does not send it here.
    const unscoped = curlForPath({ method: 'GET', url }, { prefix: '/efat/', host: 'cluster' }, 't-1');
    assert.doesNotMatch(unscoped, /User-Tenant/);
    assert.doesNotMatch(unscoped, /Authorization-Key/, 'no module, no licence key');
  });
});
