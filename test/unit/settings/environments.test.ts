import * as assert from 'node:assert/strict';
import {
  applicationKey,
  chooseActiveEnvironment,
  environmentId,
  parseEnvironments,
  type EnvironmentSettings,
} from '../../../src/settings/environments';

const defaults: EnvironmentSettings = {
  authUrl: 'http://127.0.0.1:4000/',
  baseUrl: 'http://127.0.0.1:4001',
  clientId: 'sandbox-app',
  scopes: ['openid', 'api'],
  allowedHosts: ['127.0.0.1'],
  routes: [{ prefix: '/x/', host: 'base', module: 'x' }],
  endpoints: [],
  variables: {},
};

describe('environments (tenantApi.environments)', () => {
  it('without the setting there is only the default environment, made of the top-level settings', () => {
    const { environments, problems } = parseEnvironments(undefined, defaults);
    assert.deepEqual(problems, []);
    assert.equal(environments.length, 1);
    const [only] = environments;
    assert.equal(only.id, 'default');
    assert.equal(only.isDefault, true);
    assert.equal(only.protected, false);
    assert.equal(only.settings.authUrl, 'http://127.0.0.1:4000');
    assert.deepEqual(only.settings.allowedHosts, ['127.0.0.1']);
    assert.deepEqual(parseEnvironments([], defaults).environments.map((e) => e.id), ['default']);
  });

  it('a named environment overlays only what it sets', () => {
    const { environments, problems } = parseEnvironments(
      [{ name: 'Test app', clientId: 'tests-app', variables: { year: 2026, code: 'A1', on: true } }],
      defaults,
    );
    assert.deepEqual(problems, []);
    const test = environments[1];
    assert.equal(test.name, 'Test app');
    assert.equal(test.id, '@test%20app');
    assert.equal(test.settings.clientId, 'tests-app');
    assert.equal(test.settings.authUrl, 'http://127.0.0.1:4000');
    assert.equal(test.settings.baseUrl, 'http://127.0.0.1:4001');
    assert.deepEqual(test.settings.scopes, ['openid', 'api']);
    assert.deepEqual(test.settings.routes, defaults.routes);
    assert.deepEqual(test.settings.allowedHosts, ['127.0.0.1'], 'same base URL: the allowed hosts come along');
    assert.deepEqual(test.settings.variables, { year: '2026', code: 'A1', on: 'true' });
    assert.deepEqual(test.overrides, ['clientId', 'variables']);
  });

  it('an environment with a base URL of its own does not inherit the allowed hosts of the default', () => {
    const { environments } = parseEnvironments(
      [
        { name: 'Production', baseUrl: 'https://api.example.com', authUrl: 'https://auth.example.com', protected: true },
        { name: 'Staging', baseUrl: 'https://api.staging.example.com', allowedHosts: ['staging.example.com'] },
      ],
      defaults,
    );
    assert.deepEqual(environments[1].settings.allowedHosts, []);
    assert.equal(environments[1].protected, true);
    assert.deepEqual(environments[2].settings.allowedHosts, ['staging.example.com']);
    assert.equal(environments[2].protected, false);
  });

  it('skips unusable entries and fields with a sentence each, and keeps the rest', () => {
    const { environments, problems } = parseEnvironments(
      [
        'Production',
        { baseUrl: 'https://x' },
        { name: 'default' },
        { name: 'Prod', protected: 'yes', baseURL: 'https://typo', scopes: [], clientId: 'prod-app' },
        { name: 'PROD' },
        { name: 'a'.repeat(41) },
        { name: 'line\nbreak' },
      ],
      defaults,
    );
    assert.deepEqual(environments.map((e) => e.name), ['Default', 'Prod']);
    const prod = environments[1];
    assert.equal(prod.protected, false);
    assert.equal(prod.settings.clientId, 'prod-app');
    assert.deepEqual(prod.settings.scopes, ['openid', 'api']);
    assert.deepEqual(problems, [
      'tenantApi.environments[0] is ignored: it is not an object.',
      'tenantApi.environments[1] is ignored: it has no "name".',
      'tenantApi.environments[2] is ignored: "default" is the name of the top-level settings.',
      'Environment "Prod": "protected" must be true or false; the default is used.',
      'Environment "Prod": the field "baseURL" is unknown and ignored.',
      'Environment "Prod": "scopes" must be a non-empty list of texts; the default is used.',
      'tenantApi.environments[4] is ignored: another environment is already called "PROD".',
      `tenantApi.environments[5] is ignored: the name "${'a'.repeat(40)}…" is longer than 40 characters.`,
      'tenantApi.environments[6] is ignored: the name "line?break" has control characters.',
    ]);
    assert.deepEqual(parseEnvironments({ name: 'x' }, defaults).problems, ['tenantApi.environments must be a list of environments; it is ignored.']);
  });

  it('refuses an allowed host that is a public suffix, in the top-level setting and in an environment, naming it', () => {
    const { environments, problems } = parseEnvironments(
      [{ name: 'Azure', baseUrl: 'https://acme.azurewebsites.net', allowedHosts: ['azurewebsites.net', 'acme.example.com'] }],
      { ...defaults, allowedHosts: ['127.0.0.1', '*.co.uk', 'github.io'] },
    );
    assert.deepEqual(problems, [
      '"*.co.uk" in tenantApi.allowedHosts is ignored: it is a public suffix, so it would trust every site under it. Name your own domain instead.',
      '"github.io" in tenantApi.allowedHosts is ignored: it is a public suffix, so it would trust every site under it. Name your own domain instead.',
      '"azurewebsites.net" in the allowedHosts of environment "Azure" is ignored: it is a public suffix, so it would trust every site under it. Name your own domain instead.',
    ]);
    assert.deepEqual(environments[0].settings.allowedHosts, ['127.0.0.1']);
    assert.deepEqual(environments[1].settings.allowedHosts, ['acme.example.com']);
  });

  it('ids never contain a slash and do not depend on letter case', () => {
    assert.equal(environmentId('Prod/EU'), '@prod%2Feu');
    assert.equal(environmentId(' Sandbox '), environmentId('sandbox'));
  });

  it('the active environment: the saved one, else a configured default, else the first named one', () => {
    const named = parseEnvironments([{ name: 'Sandbox' }, { name: 'Prod' }], defaults).environments;
    assert.equal(chooseActiveEnvironment(named, '@prod').name, 'Prod');
    assert.equal(chooseActiveEnvironment(named, '@gone').id, 'default');
    assert.equal(chooseActiveEnvironment(named, undefined).id, 'default');
    const unconfigured = parseEnvironments([{ name: 'Sandbox', authUrl: 'http://127.0.0.1:1', baseUrl: 'http://127.0.0.1:2' }], { ...defaults, authUrl: '', baseUrl: '' }).environments;
    assert.equal(chooseActiveEnvironment(unconfigured, undefined).name, 'Sandbox');
    assert.equal(chooseActiveEnvironment(unconfigured.slice(0, 1), undefined).id, 'default');
  });

  it('the application key is the authorization server and client id: same app, same key', () => {
    assert.equal(applicationKey({ authUrl: 'HTTPS://Auth.Example.com/', clientId: 'app' }), applicationKey({ authUrl: 'https://auth.example.com', clientId: ' app ' }));
    assert.notEqual(applicationKey({ authUrl: 'https://auth.example.com', clientId: 'app' }), applicationKey({ authUrl: 'https://auth.example.com', clientId: 'tests' }));
    assert.notEqual(applicationKey({ authUrl: 'https://auth.example.com', clientId: 'app' }), applicationKey({ authUrl: 'https://auth2.example.com', clientId: 'app' }));
    const { environments } = parseEnvironments([{ name: 'Other base', baseUrl: 'http://127.0.0.1:5000' }], defaults);
    assert.equal(applicationKey(environments[0].settings), applicationKey(environments[1].settings));
  });
});
