import * as assert from 'node:assert/strict';
import { chooseFlows, whyUnavailable, type FlowEnvironment } from '../../../src/auth/flows';

describe('sign-in flow choice', () => {
  const localDesktop: FlowEnvironment = { uiKind: 'desktop', uriScheme: 'vscode' };
  const remoteDesktop: FlowEnvironment = { uiKind: 'desktop', uriScheme: 'vscode', remoteName: 'ssh-remote' };
  const browser: FlowEnvironment = { uiKind: 'web', uriScheme: 'code-oss', remoteName: undefined };
  const codespace: FlowEnvironment = { uiKind: 'web', uriScheme: 'vscode', remoteName: 'codespaces' };

  const table: Array<[string, FlowEnvironment, string[]]> = [
    ['local desktop', localDesktop, ['uriHandler', 'loopback', 'deviceCode']],
    ['desktop with a remote extension host (SSH, WSL, container)', remoteDesktop, ['uriHandler', 'deviceCode']],
    ['browser-hosted editor (code-server, vscode.dev)', browser, ['uriHandler', 'deviceCode']],
    ['browser-hosted remote (Codespaces)', codespace, ['uriHandler', 'deviceCode']],
    ['local desktop, server without device authorization', { ...localDesktop, deviceAuthorizationSupported: false }, ['uriHandler', 'loopback']],
    ['browser, server without device authorization', { ...browser, deviceAuthorizationSupported: false }, ['uriHandler']],
    ['desktop without a URI scheme', { uiKind: 'desktop', uriScheme: '' }, ['loopback', 'deviceCode']],
  ];
  for (const [name, environment, flows] of table) {
    it(`auto: ${name} -> ${flows.join(', ')}`, () => assert.deepEqual(chooseFlows('auto', environment), flows));
  }

  it('an explicit choice is tried even where auto would skip it', () => {
    assert.deepEqual(chooseFlows('loopback', browser), ['loopback']);
    assert.deepEqual(chooseFlows('uriHandler', localDesktop), ['uriHandler']);
    assert.deepEqual(chooseFlows('deviceCode', remoteDesktop), ['deviceCode']);
  });

  it('the device flow is not tried when the server does not offer it', () => {
    assert.deepEqual(chooseFlows('deviceCode', { ...localDesktop, deviceAuthorizationSupported: false }), []);
  });

  it('says why a flow cannot work', () => {
    assert.match(whyUnavailable('loopback', remoteDesktop) ?? '', /remote/);
    assert.match(whyUnavailable('loopback', browser) ?? '', /browser/);
    assert.equal(whyUnavailable('uriHandler', browser), undefined);
  });
});
