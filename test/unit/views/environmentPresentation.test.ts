import * as assert from 'node:assert/strict';
import { parseEnvironments } from '../../../src/settings/environments';
import { devEnvironmentDefaults as defaults } from '../settings/devEnvironmentDefaults';
import { environmentPickItems, presentEnvironment, variableOriginItems, variableSummary } from '../../../src/views/environmentPresentation';


const { environments } = parseEnvironments(
  [
    { name: 'Production', authUrl: 'https://auth.example.com', baseUrl: 'https://api.example.com', clientId: 'prod-app', protected: true },
    { name: 'My $(zap) *env*', clientId: 'tests-app' },
  ],
  defaults,
);
const [dev, production, odd] = environments;

describe('environment status bar and quick pick', () => {
  it('is hidden while only the top-level settings exist', () => {
    assert.equal(presentEnvironment(dev, 1).visible, false);
    assert.equal(presentEnvironment(dev, 3).visible, true);
  });

  it('shows the active environment; a protected one stands out and says it asks', () => {
    const plain = presentEnvironment(dev, 3);
    assert.equal(plain.text, '$(server-environment) Default');
    assert.equal(plain.warning, false);
    const shown = presentEnvironment(production, 3);
    assert.equal(shown.text, '$(shield) Production');
    assert.equal(shown.warning, true);
    assert.match(shown.tooltip.join('\n'), /protected/);
    assert.match(shown.tooltip.join('\n'), /not a GET asks first/);
    assert.match(shown.tooltip.join('\n'), /client prod\\-app/);
    assert.equal(shown.accessibilityLabel, 'Tenant API environment: Production, protected');
  });

  it('shows names as written: no icon or Markdown from a name', () => {
    const shown = presentEnvironment(odd, 3);
    assert.equal(shown.text, '$(server-environment) My $\u200b(zap) *env*');
    assert.match(shown.tooltip[0], /My \\\$\\\(zap\\\) \\\*env\\\*/);
  });

  it('says when the default environment points nowhere', () => {
    const empty = parseEnvironments([{ name: 'Sandbox' }], { ...defaults, authUrl: '', baseUrl: '' }).environments[0];
    assert.match(presentEnvironment(empty, 2).tooltip.join('\n'), /Not configured/);
    assert.equal(environmentPickItems([empty], 'default')[0].detail, 'not configured');
  });

  it('lists every environment for the quick pick, the active one marked', () => {
    const items = environmentPickItems(environments, production.id);
    assert.deepEqual(
      items.map((item) => [item.label, item.description, item.detail, item.active]),
      [
        ['$(server-environment) Default', 'top-level settings', 'https://api.dev.example.com', false],
        ['$(shield) Production', 'active · protected', 'https://api.example.com', true],
        ['$(server-environment) My $\u200b(zap) *env*', '', 'https://api.dev.example.com', false],
      ],
    );
  });

  it('says where each variable comes from: the settings or a file, secrets masked, a file winning over the settings said so', () => {
    const sandbox = parseEnvironments([{ name: 'Sandbox', variables: { pageSize: 5, region: 'eu', apiToken: 'settings-secret' } }], defaults).environments[1];
    const files = {
      variables: { region: 'it', user: 'ada', password: 'p4ss' },
      secrets: new Set(['password']),
      dotenv: { KEY: 'dot-value-9' },
      origins: {
        region: { file: '/w/http-client.env.json', secret: false },
        user: { file: '/w/api/http-client.env.json', secret: false },
        password: { file: '/w/http-client.private.env.json', secret: true },
        '$dotenv KEY': { file: '/w/.env', secret: true },
      },
      problems: [],
    };
    const items = variableOriginItems(sandbox, files, (file) => file.replace('/w/', ''));
    assert.deepEqual(
      items.map((item) => [item.label, item.description, item.detail]),
      [
        ['$dotenv KEY', '.env · secret', '•••••• (secret, masked)'],
        ['apiToken', 'settings: tenantApi.environments', '•••••• (secret, masked)'],
        ['pageSize', 'settings: tenantApi.environments', '5'],
        ['password', 'http-client.private.env.json · secret', '•••••• (secret, masked)'],
        ['region', 'http-client.env.json · wins over the settings', 'it'],
        ['user', 'api/http-client.env.json', 'ada'],
      ],
    );
    assert.equal(variableSummary(items), '6 variables: 1 from .env, 2 from settings, 1 from http-client.private.env.json, 2 from http-client.env.json');
    assert.ok(!JSON.stringify(items).includes('p4ss') && !JSON.stringify(items).includes('settings-secret') && !JSON.stringify(items).includes('dot-value-9'));
    assert.match(environmentPickItems([sandbox], sandbox.id, () => items)[0].detail, / · 6 variables: /);
  });
});
