import * as assert from 'node:assert/strict';
import { ApiError, apiErrors } from '../../../src/api/errors';
import { OAuthError } from '../../../src/auth/oauthErrors';
import { REDACTED, registerSecret } from '../../../src/common/redact';
import { checkExtraHeaders, crossOriginHeaders, maskHeaders } from '../../../src/api/requestHeaders';

describe('secrets echoed by a server', () => {
  const key = `KEY${Date.now()}ECHO`;
  const token = `opaque-token-${Date.now()}`;
  registerSecret(key);
  registerSecret(token);

  it('never reach an ApiError message or the server words in its details', () => {
    const echo = `key ${key} is not valid for token ${token}`;
    const errors = [
      apiErrors.http(400, 'Bad Request', echo, { serverMessage: echo, serverError: key, bodyText: `{"message":"${echo}"}` }),
      apiErrors.tenantRefused(echo, { serverMessage: echo }),
      apiErrors.network(echo, {}),
      new ApiError('http', echo, { host: `https://${key}.example.com` }),
    ];
    for (const error of errors) {
      const everything = [error.message, error.describe(), JSON.stringify(error.details)].join('\n');
      assert.ok(!everything.includes(key) && !everything.includes(token), everything);
      assert.ok(error.message.includes(REDACTED), error.message);
    }
  });

  it("never reach an OAuthError message (the authorization server's error_description)", () => {
    const error = new OAuthError('invalid_grant', `refresh token ${token} was revoked`, 400);
    assert.ok(!error.message.includes(token) && !error.description?.includes(token), error.message);
    assert.equal(error.error, 'invalid_grant', 'the error code is kept: sessions end on it');
  });
});

describe('ApiError messages', () => {
  const details = { method: 'GET', url: 'https://api.example.com/api/configurazioni', status: 403, serverError: 'licence_module_mismatch' };

  it('says what to do for each kind (the action it offers is in test/unit/commands/requestOutcome.test.ts)', () => {
    const cases: Array<[ApiError, string, RegExp]> = [
      [apiErrors.signInRequired(), 'auth', /not signed in/],
      [apiErrors.unauthorizedAfterRefresh(details), 'auth', /Sign in again/],
      [apiErrors.licenceMissing('efat'), 'licenceMissing', /No licence key is set for the module "efat".*Set Licence Key/],
      [apiErrors.licenceWrongModule('efat', details), 'licenceWrongModule', /belongs to another module.*"efat"/],
      [apiErrors.licenceUnknown('core', details), 'licenceUnknown', /does not know the licence key set for the module "core"/],
      [apiErrors.rateLimit('second', details), 'rateLimit', /per-second request limit/],
      [apiErrors.notRetriedAfterRateLimit('minute', { method: 'POST' }), 'rateLimit', /per-minute.*POST request is not sent again/],
      [apiErrors.weeklyQuota('Rossi', details), 'weeklyQuota', /weekly request limit of the organization "Rossi"/],
      [apiErrors.quotaReached('Rossi', 10, 10), 'quotaReached', /has used 10 of its 10 weekly requests.*send it anyway/],
      [apiErrors.tenantRequired('/efat/x'), 'tenant', /choose a tenant/],
      [apiErrors.hostNotAllowed('The host x is not among the allowed hosts (y).', details), 'hostValidation', /Not sent: The host x.*allowedHosts/],
      [apiErrors.network('the connection was reset (ECONNRESET)', details), 'network', /could not be reached: the connection was reset/],
      [apiErrors.timeout(30, details), 'timeout', /longer than 30 seconds/],
      [apiErrors.cancelled(), 'cancelled', /cancelled/],
      [apiErrors.queueFull(1000), 'queueFull', /Too many calls.*1000/],
      [apiErrors.http(404, 'Not Found', 'Unknown path', details), 'http', /404 Not Found: Unknown path/],
      [apiErrors.http(500, 'Internal Server Error', undefined, details), 'http', /500 Internal Server Error\.$/],
      [apiErrors.invalidRequest('bad'), 'invalidRequest', /not valid: bad/],
    ];
    for (const [error, kind, message] of cases) {
      assert.ok(error instanceof ApiError && error instanceof Error);
      assert.equal(error.kind, kind);
      assert.match(error.message, message);
    }
  });

  it('keeps the details a developer needs and describes them on one line', () => {
    const error = apiErrors.licenceWrongModule('efat', details);
    assert.equal(error.details.module, 'efat');
    assert.equal(error.details.status, 403);
    assert.equal(error.describe(), `[licenceWrongModule] ${error.message} (GET https://api.example.com/api/configurazioni) status 403 server error licence_module_mismatch`);
  });
});

describe('request headers', () => {
  it('ignores, with a warning, extra headers that would replace the ones the client sets', () => {
    const { headers, warnings } = checkExtraHeaders({ 'X-Trace': '1', authorization: 'Bearer stolen', 'Authorization-Key': 'x', 'user-tenant': 't', Accept: 'text/html' });
    assert.deepEqual(headers, { 'X-Trace': '1' });
    assert.equal(warnings.length, 4);
    assert.match(warnings[0], /authorization is set by the extension/);
  });

  it('refuses malformed header names and values', () => {
    assert.throws(() => checkExtraHeaders({ 'Bad Name': 'x' }), /not a valid header name/);
    assert.throws(() => checkExtraHeaders({ 'X-A': 'a\r\nInjected: 1' }), /line break/);
  });

  it('masks the token and the key, and drops credentials for another host', () => {
    const sent = { Authorization: 'Bearer eyJsecret', 'Authorization-Key': 'RSSCORE4F7K2M9Q1X8ZT', 'User-Tenant': 't1', Accept: 'application/json' };
    const masked = maskHeaders(sent, 'Rossi core');
    assert.deepEqual(masked, { Authorization: 'Bearer ***', 'Authorization-Key': '*** (Rossi core)', 'User-Tenant': 't1', Accept: 'application/json' });
    assert.ok(!JSON.stringify(masked).includes('secret') && !JSON.stringify(masked).includes('RSSCORE'));
    assert.deepEqual(crossOriginHeaders(sent, []).headers, { Accept: 'application/json' });
  });
});
