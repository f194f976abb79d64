import * as assert from 'node:assert/strict';
import { connectionProblem, problemSentence } from '../../../src/api/connectionProblems';
import { bypassesProxy, displayProxy, parseNoProxy, proxyFor, proxySettingsFromEnvironment, ProxySettingError } from '../../../src/api/proxyRules';

const route = (env: NodeJS.ProcessEnv, url: string) => proxyFor(new URL(url), proxySettingsFromEnvironment(env))?.href;

describe('proxy rules (HTTPS_PROXY, HTTP_PROXY, NO_PROXY)', () => {
  it('an https address takes HTTPS_PROXY, else HTTP_PROXY; an http address only HTTP_PROXY; lower case first', () => {
    assert.equal(route({ HTTPS_PROXY: 'http://s:1', HTTP_PROXY: 'http://p:2' }, 'https://api.example.com/x'), 'http://s:1/');
    assert.equal(route({ HTTP_PROXY: 'http://p:2' }, 'https://api.example.com/x'), 'http://p:2/');
    assert.equal(route({ HTTPS_PROXY: 'http://s:1' }, 'http://api.example.com/x'), undefined);
    assert.equal(route({ http_proxy: 'http://lower:3', HTTP_PROXY: 'http://upper:4' }, 'http://a.example/'), 'http://lower:3/');
    assert.equal(route({ HTTP_PROXY: 'proxy.corp:8080' }, 'http://a.example/'), 'http://proxy.corp:8080/', 'no scheme means http, as curl reads it');
    assert.equal(route({}, 'https://a.example/'), undefined);
  });

  it('NO_PROXY: hosts, domains with or without a leading dot or *., host:port, IPv6, and * for all', () => {
    const rules = parseNoProxy(' example.com,.corp.local  *.test, 127.0.0.1:8080,[::1], ::2');
    const direct = (url: string) => bypassesProxy(new URL(url), rules);
    assert.ok(direct('https://example.com/') && direct('https://api.example.com/'));
    assert.ok(!direct('https://notexample.com/'), 'a domain matches at a dot only');
    assert.ok(direct('http://x.corp.local/') && direct('http://corp.local/') && direct('http://sandbox.test:9/'));
    assert.ok(direct('http://127.0.0.1:8080/') && !direct('http://127.0.0.1:8081/'));
    assert.ok(direct('http://[::1]:5/') && direct('http://[::2]/'));
    assert.ok(direct('https://EXAMPLE.COM./'), 'case and a trailing dot do not matter');
    assert.equal(parseNoProxy('a.com, *'), 'all');
    assert.equal(route({ HTTP_PROXY: 'http://p:2', NO_PROXY: '*' }, 'http://a.example/'), undefined);
  });

  it('a proxy variable that is not a proxy address is named, never its value', () => {
    assert.throws(() => proxySettingsFromEnvironment({ HTTPS_PROXY: 'http://user:secret@' }), (error: unknown) => error instanceof ProxySettingError && error.variable === 'HTTPS_PROXY' && !error.message.includes('secret'));
    assert.throws(() => proxySettingsFromEnvironment({ http_proxy: 'socks5://h:1' }), (error: unknown) => error instanceof ProxySettingError && error.reason === 'scheme');
  });

  it('a proxy is shown without its user name and password', () => {
    assert.equal(displayProxy(new URL('http://alice:s3cret@proxy.corp:3128')), 'http://proxy.corp:3128');
  });
});

describe('connection problems (what failed between us and the server)', () => {
  const target = new URL('https://api.example.com/v10/user-tenants');
  const proxy = new URL('http://alice:s3cret@proxy.corp:3128');
  const fetchFailed = (cause: object) => Object.assign(new TypeError('fetch failed'), { cause });
  const wording = { trustAuthority: () => 'TRUST', proxySetting: () => 'PROXY' };

  it('names the certificate problem from the TLS error code, with or without a proxy', () => {
    const cases: Array<[string, string]> = [
      ['DEPTH_ZERO_SELF_SIGNED_CERT', 'selfSigned'],
      ['SELF_SIGNED_CERT_IN_CHAIN', 'unknownAuthority'],
      ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unknownAuthority'],
      ['CERT_HAS_EXPIRED', 'expired'],
      ['ERR_TLS_CERT_ALTNAME_INVALID', 'wrongHost'],
    ];
    for (const [code, problem] of cases) {
      const found = connectionProblem(fetchFailed({ code, message: 'x' }), target, undefined);
      assert.deepEqual(found, { kind: 'certificate', problem, host: 'api.example.com', code });
    }
    const trust = problemSentence({ kind: 'certificate', problem: 'unknownAuthority', host: 'h', code: 'x' }, wording);
    assert.match(trust, /^The certificate of h is not trusted: it is signed by a certificate authority .*\. TRUST$/);
    assert.doesNotMatch(problemSentence({ kind: 'certificate', problem: 'expired', host: 'h', code: 'x' }, wording), /TRUST/, 'trusting an authority does not mend an expired certificate');
  });

  it('with a proxy: a failed connection is the proxy\'s, a refused tunnel and a 407 are the proxy\'s answers; never its password', () => {
    const unreachable = connectionProblem(fetchFailed({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' }), target, proxy);
    assert.deepEqual(unreachable, { kind: 'proxyUnreachable', proxy: 'http://proxy.corp:3128', reason: 'the connection was refused (ECONNREFUSED)' });
    assert.equal(connectionProblem(fetchFailed({ code: 'ECONNREFUSED' }), target, undefined), undefined, 'without a proxy it is the server\'s');
    assert.deepEqual(connectionProblem(fetchFailed({ code: 'UND_ERR_ABORTED', message: 'Proxy response (407) !== 200 when HTTP Tunneling' }), target, proxy), { kind: 'proxyCredentials', proxy: 'http://proxy.corp:3128' });
    assert.deepEqual(connectionProblem(fetchFailed({ code: 'UND_ERR_INVALID_ARG', message: 'Proxy Authentication Required (407)' }), target, proxy), { kind: 'proxyCredentials', proxy: 'http://proxy.corp:3128' });
    const refused = connectionProblem(fetchFailed({ message: 'Proxy response (503) !== 200 when HTTP Tunneling' }), target, proxy)!;
    assert.deepEqual(refused, { kind: 'proxyRefused', proxy: 'http://proxy.corp:3128', status: 503, host: 'api.example.com' });
    for (const problem of [unreachable!, refused]) assert.doesNotMatch(problemSentence(problem, wording), /s3cret|alice/);
    assert.equal(connectionProblem(new DOMException('aborted', 'AbortError'), target, proxy), undefined, 'a cancel is no network problem');
  });
});
