import * as assert from 'node:assert/strict';
import { apiErrors, type ApiError } from '../../../src/api/errors';
import { ERROR_ACTIONS } from '../../../src/api/errorActions';
import type { ApiErrorKind, ApiResponse } from '../../../src/api/types';
import {
  FIX_RESOURCE_COMMAND,
  notificationActions,
  outcomeOfError,
  outcomeOfResponse,
  type NextAction,
  type OutcomeRequest,
} from '../../../src/commands/requestOutcome';

const request: OutcomeRequest = { method: 'GET', path: '/efat/api/v1/ditte', tenantId: 't-mi', preview: true };
const details = { method: 'GET', url: 'https://c1.example.com/efat/api/v1/ditte', status: 403 };
const answer = (status: number, statusText: string): ApiResponse => ({
  method: 'GET',
  url: details.url,
  status,
  statusText,
  headers: {},
  bodyText: '{"error":"x"}',
  timeMs: 5,
  sizeBytes: 13,
  requestHeaders: {},
  attempts: 1,
  warnings: [],
});

/** A button as one short string: `Label -> command(args)` or `Label -> resend{...}`. */
function shown(next: NextAction): string {
  return 'command' in next ? `${next.label} -> ${next.command}(${next.args.join(',')})` : `${next.label} -> resend${JSON.stringify(next.resend)}`;
}

describe('request outcome', () => {
  // error, buttons of the notification, tree problem (message -> what the item runs), notified
  const table: Array<[ApiError, string[], string | undefined, boolean]> = [
    [apiErrors.signInRequired(), ['Sign In -> tenantApi.signIn()'], 'sign-in needed -> fix tenantApi.signIn() then reopen', true],
    [apiErrors.unauthorizedAfterRefresh(details), ['Sign In -> tenantApi.signIn()'], 'sign-in needed -> fix tenantApi.signIn() then reopen', true],
    [apiErrors.licenceMissing('efat'), ['Set Licence Key -> tenantApi.setLicenceKey(efat)'], 'licence key missing -> fix tenantApi.setLicenceKey(efat) then reopen', true],
    [apiErrors.licenceWrongModule('efat', details), ['Set Licence Key -> tenantApi.setLicenceKey(efat)'], 'licence key refused -> fix tenantApi.setLicenceKey(efat) then reopen', true],
    [apiErrors.licenceUnknown(undefined, details), ['Set Licence Key -> tenantApi.setLicenceKey()'], 'licence key refused -> fix tenantApi.setLicenceKey() then reopen', true],
    [apiErrors.weeklyQuota('Rossi', details), ['Resume Calls -> tenantApi.resumeOrganization(Rossi)', 'Show API Usage -> tenantApi.showQuota()'], 'weekly quota reached -> tenantApi.showQuota()', true],
    [apiErrors.organizationStopped('Rossi'), ['Resume Calls -> tenantApi.resumeOrganization(Rossi)', 'Show API Usage -> tenantApi.showQuota()'], 'weekly quota reached -> tenantApi.showQuota()', true],
    [apiErrors.quotaReached('Rossi', 10, 10), ['Send Anyway -> resend{"sendOverQuota":true}', 'Show API Usage -> tenantApi.showQuota()'], 'weekly quota reached -> tenantApi.showQuota()', true],
    [apiErrors.hostNotAllowed('The host x is not allowed.', details), ['Open Settings -> workbench.action.openSettings(tenantApi.allowedHosts)'], undefined, true],
    [apiErrors.invalidRequest('no base URL'), ['Open Settings -> workbench.action.openSettings(tenantApi)'], undefined, true],
    [apiErrors.rateLimit('second', details), ['Retry -> resend{}'], undefined, true],
    [apiErrors.network('reset', details), ['Retry -> resend{}'], undefined, true],
    [apiErrors.proxy('The proxy http://proxy.corp:3128 could not be reached.', details), ['Open Settings -> workbench.action.openSettings(http.proxy)'], undefined, true],
    [apiErrors.certificate('The certificate of c1.example.com is not trusted.', details), ['Open Settings -> workbench.action.openSettings(http.systemCertificates)'], undefined, true],
    [apiErrors.timeout(30, details), ['Retry -> resend{}'], undefined, true],
    [apiErrors.queueFull(1000), ['Retry -> resend{}'], undefined, true],
    [apiErrors.tenantRequired('/efat/x'), [], undefined, true],
    [apiErrors.cancelled(), [], undefined, false],
    [apiErrors.http(404, 'Not Found', 'Unknown path', { ...details, response: answer(404, 'Not Found') }), [], undefined, false],
    [apiErrors.http(502, 'Bad Gateway', undefined, { ...details, bodyText: 'upstream' }), [], undefined, false],
    [apiErrors.http(500, 'Internal Server Error', undefined, details), [], undefined, true],
  ];

  for (const [error, buttons, problem, notified] of table) {
    it(`${error.kind}: ${error.message.slice(0, 60)}`, () => {
      const outcome = outcomeOfError(error, request);
      assert.equal(outcome.ok, false);
      assert.equal(outcome.kind, error.kind);
      assert.equal(outcome.summary, error.message);
      assert.equal(outcome.notify, notified);
      assert.deepEqual(outcome.actions.map(shown), buttons);
      if (!problem) {
        assert.equal(outcome.treeProblem, 'keep');
        return;
      }
      assert.ok(typeof outcome.treeProblem === 'object', String(outcome.treeProblem));
      const { message, action } = outcome.treeProblem.set;
      assert.ok(action);
      if (action.command === FIX_RESOURCE_COMMAND) {
        const [fix] = action.args as Array<{ tenantId: string; method: string; path: string; fix: string; fixArgs: unknown[] }>;
        assert.deepEqual([fix.tenantId, fix.method, fix.path], ['t-mi', 'GET', '/efat/api/v1/ditte']);
        assert.equal(`${message} -> fix ${fix.fix}(${fix.fixArgs.join(',')}) then reopen`, problem);
        assert.equal(action.title, outcome.actions[0].label, 'the item and the first button say the same');
      } else {
        assert.equal(`${message} -> ${action.command}(${(action.args ?? []).join(',')})`, problem);
      }
    });
  }

  it('the notification of every failure sends the request again in one click: a fix that does it, or Re-run', () => {
    // kind -> the notification's buttons: those that send again are marked "(sends again)".
    const again = (next: NextAction) => `${next.label}${'resend' in next || next.resendAfter ? ' (sends again)' : ''}`;
    const expected: Array<[ApiError, string[]]> = [
      [apiErrors.signInRequired(), ['Sign In (sends again)']],
      [apiErrors.licenceMissing('core'), ['Set Licence Key (sends again)']],
      [apiErrors.weeklyQuota('Rossi', details), ['Resume Calls (sends again)', 'Show API Usage']],
      [apiErrors.quotaReached('Rossi', 10, 10), ['Send Anyway (sends again)', 'Show API Usage']],
      [apiErrors.network('reset', details), ['Retry (sends again)']],
      [apiErrors.hostNotAllowed('The host x is not allowed.', details), ['Open Settings', 'Re-run (sends again)']],
      [apiErrors.tenantRequired('/efat/x'), ['Re-run (sends again)']],
      [apiErrors.http(500, 'Internal Server Error', undefined, details), ['Re-run (sends again)']],
    ];
    for (const [error, buttons] of expected) {
      assert.deepEqual(notificationActions(outcomeOfError(error, request)).map(again), buttons, error.kind);
    }
    const rerun = notificationActions(outcomeOfError(new Error('odd'), request));
    assert.deepEqual(rerun, [{ label: 'Re-run', resend: {} }], 'the same request, unchanged');
  });

  it('a failure whose button fixes the cause and sends again says so in its notice instead of "try again"', () => {
    const signedOut = outcomeOfError(apiErrors.signInRequired(), request);
    assert.match(signedOut.summary, /Sign in and try again\./, 'the message, where no button sends it (a test result, a script)');
    assert.equal(signedOut.notice, 'You are not signed in to the Tenant API. Sign in: the request goes as soon as you are.');
    assert.equal(outcomeOfError(apiErrors.licenceMissing('efat'), request).notice, 'No licence key is set for the module "efat". Set one: the request goes as soon as it is set.');
    for (const error of [apiErrors.unauthorizedAfterRefresh(details), apiErrors.licenceWrongModule('efat', details), apiErrors.licenceUnknown('efat', details), apiErrors.organizationStopped('Rossi')]) {
      const outcome = outcomeOfError(error, request);
      assert.ok(outcome.actions.some((next) => 'command' in next && next.resendAfter), error.message);
      assert.match(outcome.notice ?? '', /goes (again )?as soon as/, error.message);
      assert.doesNotMatch(outcome.notice ?? '', /try again|"Tenant API: /, 'no command to type, no try again');
    }
    assert.equal(outcomeOfError(apiErrors.timeout(30, details), request).notice, undefined, 'Retry is a button of its own: the message stays');
  });

  it('covers every error kind', () => {
    const kinds = new Set(table.map(([error]) => error.kind));
    assert.deepEqual([...kinds].sort(), (Object.keys(ERROR_ACTIONS) as ApiErrorKind[]).sort());
  });

  it('shows the server\'s error answer in its tab instead of a notification, but notifies a scripted call', () => {
    const error = apiErrors.http(404, 'Not Found', 'Unknown path', { ...details, response: answer(404, 'Not Found') });
    assert.equal(outcomeOfError(error, request).notify, false);
    assert.equal(outcomeOfError(error, { ...request, preview: false }).notify, true);
  });

  it('marks no resource when no tenant was called', () => {
    assert.equal(outcomeOfError(apiErrors.licenceMissing('core'), { ...request, tenantId: undefined }).treeProblem, 'keep');
  });

  it('says what any other failure was, with no action, and leaves the tree as it is', () => {
    assert.deepEqual(outcomeOfError(new TypeError('bad state'), request), {
      ok: false,
      kind: 'unknown',
      summary: 'bad state',
      notify: true,
      actions: [],
      treeProblem: 'keep',
    });
    assert.equal(outcomeOfError('plain text', request).summary, 'plain text');
  });

  it('clears the resource\'s problem on an answer, and sums it up in one line', () => {
    assert.deepEqual(outcomeOfResponse(answer(200, 'OK')), { ok: true, kind: 'response', summary: '200 OK', notify: false, actions: [], treeProblem: 'clear' });
    assert.equal(outcomeOfResponse(answer(304, '')).summary, '304');
  });
});
