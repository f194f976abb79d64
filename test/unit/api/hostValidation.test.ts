import * as assert from 'node:assert/strict';
import {
  checkAddressShape,
  isLoopbackHost,
  isPublicSuffix,
  publicSuffixEntries,
  normalizeAllowedHost,
  registrableDomain,
  validateBaseUrl,
  validateCredentialHost,
} from '../../../src/api/hostValidation';

const policy = (baseUrl: string, allowedHosts: string[] = []) => ({ baseUrl, allowedHosts });
const ok = (address: string, p = policy('https://api.example.com')) => validateCredentialHost(address, p).ok;

describe('host validation', () => {
  it('knows loopback hosts', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '[::1]', '::1', 'LOCALHOST']) assert.ok(isLoopbackHost(host), host);
    for (const host of ['128.0.0.1', '127.0.0.256', 'localhost.evil.com', '10.0.0.1', '[::2]', '127.0.0.1.nip.io']) assert.ok(!isLoopbackHost(host), host);
  });

  it('allows plain http only for loopback', () => {
    assert.ok(checkAddressShape('http://127.0.0.1:4402').ok);
    assert.ok(checkAddressShape('http://localhost:8080/x').ok);
    assert.ok(checkAddressShape('http://[::1]:9000').ok);
    const refused = checkAddressShape('http://api.example.com');
    assert.ok(!refused.ok && /plain http/.test(refused.reason));
    assert.ok(!checkAddressShape('ftp://api.example.com').ok);
    assert.ok(!checkAddressShape('not a url').ok);
    assert.ok(!checkAddressShape('https://user:pw@api.example.com').ok, 'no credentials inside the URL');
  });

  it('needs a base URL', () => {
    const verdict = validateBaseUrl('  ');
    assert.ok(!verdict.ok && /tenantApi\.baseUrl/.test(verdict.reason));
  });

  it('by default allows the base URL domain and its subdomains only', () => {
    assert.ok(ok('https://api.example.com/x'));
    assert.ok(ok('https://cluster1.example.com'));
    assert.ok(ok('https://a.b.example.com'));
    assert.ok(ok('https://example.com'));
    assert.ok(!ok('https://example.com.evil.net'));
    assert.ok(!ok('https://evilexample.com'));
    assert.ok(!ok('https://other.org'));
    assert.ok(!ok('http://cluster1.example.com'), 'https is still required');
  });

  it('finds the registrable domain with the Public Suffix List (private section included)', () => {
    assert.equal(registrableDomain('api.example.co.uk'), 'example.co.uk');
    assert.equal(registrableDomain('api.cluster.example.it'), 'example.it');
    assert.equal(registrableDomain('acme.azurewebsites.net'), 'acme.azurewebsites.net');
    assert.equal(registrableDomain('eu.acme.github.io'), 'acme.github.io');
    assert.equal(registrableDomain('api.example.com.au'), 'example.com.au');
    assert.equal(registrableDomain('127.0.0.1'), undefined);
    assert.equal(registrableDomain('localhost'), undefined);
    assert.equal(registrableDomain('azurewebsites.net'), undefined, 'a public suffix has no registrable domain');
  });

  it('by default never trusts a neighbour under a shared public suffix', () => {
    const cases: Array<[base: string, trusted: string[], refused: string[]]> = [
      ['https://acme.azurewebsites.net', ['https://eu.acme.azurewebsites.net'], ['https://attacker.azurewebsites.net', 'https://azurewebsites.net']],
      ['https://acme.github.io', ['https://api.acme.github.io'], ['https://attacker.github.io', 'https://github.io']],
      ['https://api.acme.co.uk', ['https://cluster.acme.co.uk', 'https://acme.co.uk'], ['https://attacker.co.uk', 'https://co.uk']],
      ['https://api.acme.herokuapp.com', ['https://eu.api.acme.herokuapp.com'], ['https://attacker.herokuapp.com']],
      ['https://acme.s3.amazonaws.com', [], ['https://attacker.s3.amazonaws.com']],
      ['https://azurewebsites.net', [], ['https://attacker.azurewebsites.net']],
      ['https://10.0.0.5', [], ['https://10.0.0.6', 'https://x.10.0.0.5']],
    ];
    for (const [base, trusted, refused] of cases) {
      for (const address of trusted) assert.ok(ok(address, policy(base)), `${base} trusts ${address}`);
      for (const address of refused) assert.ok(!ok(address, policy(base)), `${base} must not trust ${address}`);
      assert.ok(ok(base, policy(base)), 'the base host itself');
    }
  });

  it('uses tenantApi.allowedHosts instead of the default, always keeping the base host', () => {
    const p = policy('https://api.example.com', ['clusters.example.net', '*.other.org']);
    assert.ok(ok('https://api.example.com', p));
    assert.ok(ok('https://eu.clusters.example.net', p));
    assert.ok(ok('https://clusters.example.net', p));
    assert.ok(ok('https://x.other.org', p));
    assert.ok(!ok('https://cluster1.example.com', p), 'the default no longer applies');
    assert.ok(!ok('https://example.net', p), 'a parent of an entry is not allowed');
  });

  it('ignores an allowed-hosts entry that is a public suffix: it would trust every neighbour', () => {
    for (const suffix of ['co.uk', 'azurewebsites.net', 'github.io', '*.github.io', 'https://azurewebsites.net', 'com']) {
      const p = policy('https://acme.azurewebsites.net', [suffix, 'clusters.example.net']);
      assert.ok(!ok('https://attacker.azurewebsites.net', p), `${suffix} must not trust a neighbour`);
      assert.ok(!ok('https://attacker.github.io', p), `${suffix} must not trust a neighbour`);
      assert.ok(!ok('https://attacker.co.uk', p), `${suffix} must not trust a neighbour`);
      assert.ok(ok('https://eu.clusters.example.net', p), 'the other entries still apply');
    }
    const onlySuffix = policy('https://acme.azurewebsites.net', ['azurewebsites.net']);
    assert.ok(!ok('https://attacker.azurewebsites.net', onlySuffix));
    assert.ok(ok('https://eu.acme.azurewebsites.net', onlySuffix), 'with no usable entry, the default applies');
  });

  it('knows which entries are a public suffix (ICANN and private sections), as written', () => {
    for (const host of ['co.uk', 'azurewebsites.net', 'github.io', 'com', 's3.amazonaws.com']) assert.ok(isPublicSuffix(host), host);
    for (const host of ['example.co.uk', 'acme.azurewebsites.net', 'localhost', 'intranet', '127.0.0.1', 'example.com']) assert.ok(!isPublicSuffix(host), host);
    assert.deepEqual(publicSuffixEntries(['example.com', ' *.GitHub.io ', 'co.uk', 'bad host']), [' *.GitHub.io ', 'co.uk']);
  });

  it('accepts the usual ways of writing an entry', () => {
    assert.equal(normalizeAllowedHost('https://Example.com:8443/path'), 'example.com');
    assert.equal(normalizeAllowedHost('*.example.com'), 'example.com');
    assert.equal(normalizeAllowedHost('.example.com'), 'example.com');
    assert.equal(normalizeAllowedHost('example.com:443'), 'example.com');
    assert.equal(normalizeAllowedHost(''), undefined);
    assert.equal(normalizeAllowedHost('exa mple.com'), undefined);
  });

  it('treats the sandbox loopback hosts as the base host', () => {
    const p = policy('http://127.0.0.1:4402');
    assert.ok(ok('http://127.0.0.1:4403', p));
    assert.ok(!ok('http://127.0.0.2:4403', p), 'another loopback address is another host');
    assert.ok(!ok('https://cluster.example.com', p));
  });
});
