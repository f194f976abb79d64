import * as assert from 'node:assert/strict';
import { maskValues, redact, redactingLogger, registerSecret, forgetSecret, redactValue } from '../../../src/common/redact';
import { recordingLogger, unsignedJwt } from './fakes';

describe('redaction', () => {
  const jwt = unsignedJwt({ sub: 'user-1', exp: 1 });

  const cases: Array<[string, string, string[]]> = [
    ['callback URL', 'http://127.0.0.1:5000/auth-callback?code=abc123XYZ&state=s1234567&iss=http%3A%2F%2Fauth', ['abc123XYZ', 's1234567']],
    ['vscode URI', 'vscode://tenant-api.tenant-api-workbench/auth-callback?code=c0de&state=st4te', ['c0de', 'st4te']],
    ['fragment', 'https://x/cb#access_token=tok3n&id_token=idt0k&token_type=Bearer', ['tok3n', 'idt0k']],
    ['form body', 'grant_type=authorization_code&code=QWERTY&code_verifier=verif123&client_secret=sekrit&redirect_uri=vscode%3A%2F%2Fx', ['QWERTY', 'verif123', 'sekrit']],
    ['refresh body', 'grant_type=refresh_token&refresh_token=opaque-rt-value', ['opaque-rt-value']],
    ['device', 'device_code=dev1ce&user_code=WDJB-MJHT', ['dev1ce', 'WDJB-MJHT']],
    ['token JSON', '{"access_token":"opaque1234","token_type":"Bearer","refresh_token":"rt-xyz","id_token":"x.y.z","expires_in":300}', ['opaque1234', 'rt-xyz', 'x.y.z']],
    ['header line', 'Authorization: Bearer abc.def.ghi', ['abc.def.ghi']],
    ['basic header', 'authorization: Basic dXNlcjpwYXNz', ['dXNlcjpwYXNz']],
    ['licence key header', 'Authorization-Key: LIC-CORE-0001', ['LIC-CORE-0001']],
    ['headers JSON', '{"Authorization":"Bearer sometoken123","Authorization-Key":"LIC-123456"}', ['sometoken123', 'LIC-123456']],
    ['bare JWT', `the token ${jwt} here`, [jwt, jwt.split('.')[1]]],
    ['bearer in prose', 'sent bearer abcdefgh12345 to the server', ['abcdefgh12345']],
    ['URL inside a URL (browser-hosted callback)', 'http://x/callback?vscode-reqid=1&vscode-query=code%3Dsecretcode%26state%3Dsecretstate', ['secretcode', 'secretstate']],
  ];
  for (const [name, input, secrets] of cases) {
    it(`hides secrets in a ${name}`, () => {
      const output = redact(input);
      for (const secret of secrets) assert.ok(!output.includes(secret), `${secret} leaked in ${output}`);
      assert.match(output, /\[redacted/);
    });
  }

  it('keeps what is not secret', () => {
    const line = 'POST http://127.0.0.1:9000/connect/token grant_type=refresh_token error=invalid_grant error_description=grant%20request%20is%20invalid';
    const output = redact(line);
    assert.match(output, /grant_type=refresh_token/);
    assert.match(output, /error=invalid_grant/);
    assert.match(output, /127\.0\.0\.1:9000\/connect\/token/);
    assert.equal(redact('Signed in as Mario Rossi (user-1) with uriHandler.'), 'Signed in as Mario Rossi (user-1) with uriHandler.');
  });

  it('hides registered secrets wherever they appear, until forgotten', () => {
    registerSecret('opaque-licence-XYZ');
    assert.equal(redact('key opaque-licence-XYZ used'), 'key [redacted] used');
    forgetSecret('opaque-licence-XYZ');
    assert.equal(redact('key opaque-licence-XYZ used'), 'key opaque-licence-XYZ used');
  });

  it('masks the given values wherever they appear, from three characters (a shorter one would eat the text)', () => {
    assert.equal(maskValues('/x?k=s3cr3t&again=s3cr3t', ['s3cr3t']), '/x?k=***&again=***');
    assert.equal(maskValues('page=ab&q=abc', ['ab', 'abc'], '[hidden]'), 'page=ab&q=[hidden]');
  });

  it('redacts errors and objects given as values', () => {
    assert.ok(!redactValue(new Error('failed for code=abcdef')).includes('abcdef'));
    assert.ok(!redactValue({ refresh_token: 'rt-secret-1' }).includes('rt-secret-1'));
  });

  it('the redacting logger passes every message and argument through redact', () => {
    const inner = recordingLogger();
    const logger = redactingLogger(inner);
    logger.info('GET /auth-callback?code=abc123&state=def456', { access_token: 'tok-123456' });
    logger.error(new Error(`bad token ${jwt}`));
    const all = inner.lines.join('\n');
    for (const secret of ['abc123', 'def456', 'tok-123456', jwt]) assert.ok(!all.includes(secret), secret);
    assert.equal(inner.lines.length, 2);
  });
});
