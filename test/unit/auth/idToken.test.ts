import * as assert from 'node:assert/strict';
import { validateIdToken } from '../../../src/auth/idToken';
import { IdTokenError } from '../../../src/auth/oauthErrors';
import { unsignedJwt } from './fakes';


describe('id_token checks', () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);
  const expected = { issuer: 'http://127.0.0.1:9000', clientId: 'tenant-api-workbench', nonce: 'n-1', now };
  const good = {
    iss: 'http://127.0.0.1:9000',
    sub: 'user-1',
    aud: 'tenant-api-workbench',
    exp: now / 1000 + 300,
    iat: now / 1000,
    nonce: 'n-1',
    name: 'Mario Rossi',
  };
  const failsOn = (claim: string, token: string, options = expected) =>
    assert.throws(() => validateIdToken(token, options), (error: unknown) => {
      assert.ok(error instanceof IdTokenError, String(error));
      assert.equal(error.claim, claim);
      return true;
    });

  it('accepts a token that passes every check and returns its claims', () => {
    const claims = validateIdToken(unsignedJwt(good), expected);
    assert.equal(claims.sub, 'user-1');
    assert.equal(claims.name, 'Mario Rossi');
  });

  it('accepts an issuer that differs only by a trailing slash, and an audience array', () => {
    const claims = validateIdToken(unsignedJwt({ ...good, iss: 'http://127.0.0.1:9000/', aud: ['other', 'tenant-api-workbench'], azp: 'tenant-api-workbench' }), expected);
    assert.equal(claims.sub, 'user-1');
    assert.equal(claims.iss, 'http://127.0.0.1:9000/');
    assert.deepEqual(claims.aud, ['other', 'tenant-api-workbench']);
  });

  it('refuses a string that is not a JWT', () => failsOn('format', 'not-a-jwt'));
  it('refuses another issuer', () => failsOn('iss', unsignedJwt({ ...good, iss: 'https://evil.example.com' })));
  it('refuses a missing issuer', () => failsOn('iss', unsignedJwt({ ...good, iss: undefined })));
  it('refuses another audience', () => failsOn('aud', unsignedJwt({ ...good, aud: 'someone-else' })));
  it('refuses an audience array with another authorized party', () =>
    failsOn('azp', unsignedJwt({ ...good, aud: ['tenant-api-workbench', 'x'], azp: 'x' })));
  it('refuses an expired token (beyond the leeway)', () => failsOn('exp', unsignedJwt({ ...good, exp: now / 1000 - 61 })));
  it('accepts a token expired within the leeway', () => {
    const claims = validateIdToken(unsignedJwt({ ...good, exp: now / 1000 - 30 }), expected);
    assert.equal(claims.exp, now / 1000 - 30);
    assert.equal(claims.sub, 'user-1');
  });
  it('refuses a token without exp', () => failsOn('exp', unsignedJwt({ ...good, exp: undefined })));
  it('refuses a token issued in the future', () => failsOn('iat', unsignedJwt({ ...good, iat: now / 1000 + 3600 })));
  it('refuses another nonce', () => failsOn('nonce', unsignedJwt({ ...good, nonce: 'n-2' })));
  it('refuses a missing nonce when one was sent', () => failsOn('nonce', unsignedJwt({ ...good, nonce: undefined })));
  it('skips the nonce check for grants that send none', () => {
    const claims = validateIdToken(unsignedJwt({ ...good, nonce: undefined }), { ...expected, nonce: undefined });
    assert.equal(claims.nonce, undefined);
    assert.equal(claims.sub, 'user-1');
    // Skipped, not loosened: a grant that sent a nonce still needs it back.
    failsOn('nonce', unsignedJwt({ ...good, nonce: undefined }));
  });
  it('refuses a token without sub', () => failsOn('sub', unsignedJwt({ ...good, sub: '' })));
});
