// Response tabs as a user meets them, against the sandbox in a real editor:
// a tab per different request named after its tenant, the same request reusing its tab, one tab when
// tenantApi.responses.tabPerRequest is off, the request shown with its credentials masked, and a
// base-URL resource (/api/configurazioni) named after the licence key's organization, not a tenant.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Sandbox } from '../../sandbox';
import { driver } from './helpers/driver';
import {
  configure,
  endWorkbenchSuite,
  loadedTree,
  setLicenceKeys,
  signInAs,
  signOutEveryone,
  startWorkbenchSandbox,
  waitFor,
  workbenchApi,
  type WorkbenchTestApi,
} from './helpers/workbench';

interface Summary {
  ok: boolean;
  status?: number;
  document?: string;
  error?: { kind: string; message: string };
}

const RESPONSE_SCHEME = 'tenant-api-response';
const ROSSI = 'Rossi Costruzioni S.r.l.';

/** The open response tabs, by label. */
function responseTabs(): string[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === RESPONSE_SCHEME)
    .map((tab) => tab.label);
}

function textOf(summary: Summary): string {
  const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === summary.document);
  assert.ok(document, `the response tab of ${JSON.stringify(summary)} is open`);
  return document.getText();
}

function headerBlock(text: string): string {
  return text
    .split('\n')
    .filter((line) => line.startsWith('//'))
    .join('\n');
}

describe('response tabs', function () {
  this.timeout(120_000);
  let sandbox: Sandbox;
  let api: WorkbenchTestApi;
  const tenant = (code: string) => sandbox.tenants.find((candidate) => candidate.codiceAmbienteDati === code)!;
  const send = async (args: Record<string, unknown>): Promise<Summary> => {
    const summary = (await vscode.commands.executeCommand('tenantApi.sendRequest', args)) as Summary;
    assert.ok(summary.document, JSON.stringify(summary));
    return summary;
  };
  const ditte = (code: string) => send({ method: 'GET', path: '/efat/api/v1/ditte', tenantId: tenant(code).id, query: { dimensionePagina: 1 } });

  before(async () => {
    api = await workbenchApi();
    await signOutEveryone();
    sandbox = await startWorkbenchSandbox();
    await signInAs(sandbox, 'mario.rossi');
    await setLicenceKeys(sandbox, 'org-rossi');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  afterEach(async () => {
    await configure({ 'responses.tabPerRequest': undefined });
  });

  after(async () => {
    await endWorkbenchSuite(sandbox);
  });

  it('keeps one tab per tenant, each titled with its tenant code', async () => {
    const milano = await ditte('RC-MI');
    const torino = await ditte('RC-TO');
    assert.notEqual(milano.document, torino.document);
    assert.deepEqual(responseTabs().sort(), ['GET ditte · RC-MI · 200', 'GET ditte · RC-TO · 200']);
    assert.match(textOf(milano), /\n\/\/ Tenant: .* \(RC-MI\) /);
    assert.match(textOf(torino), /\n\/\/ Tenant: .* \(RC-TO\) /);
  });

  it('reuses the tab of a request sent again, with the new response in it', async () => {
    const first = await ditte('RC-MI');
    const before = textOf(first);
    const again = await ditte('RC-MI');
    assert.equal(again.document, first.document, 'the same tab');
    assert.equal(responseTabs().length, 2, responseTabs().join(' | '));
    const usage = (text: string) => /Service-Limit-Info: api-usage=(\d+)\//.exec(text)?.[1];
    assert.notEqual(usage(textOf(again)), usage(before), 'the tab shows the second response');
  });

  it('Re-run in a response tab\'s title bar sends that tab\'s request again, without asking which', async () => {
    const milano = await ditte('RC-MI');
    await ditte('RC-TO');
    await vscode.window.showTextDocument(vscode.Uri.parse(milano.document!), { preview: false });
    const before = sandbox.requests.length;
    await driver.click('.editor-group-container.active .editor-actions .action-label.codicon-history', { timeoutMs: 10_000 });
    const sent = await waitFor(() => sandbox.requests.slice(before).find((request) => request.path === '/efat/api/v1/ditte'), { what: 'the re-run' });
    assert.equal(sent.headers['user-tenant'], tenant('RC-MI').id, 'the tab\'s request, not the last one sent');
    assert.equal(await driver.count('.quick-input-widget:not([style*="display: none"]) .quick-input-list .monaco-list-row'), 0, 'no history picker');
  });

  it('shows every response in one tab when tenantApi.responses.tabPerRequest is off', async () => {
    await configure({ 'responses.tabPerRequest': false });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await ditte('RC-MI');
    await ditte('RC-TO');
    const last = await send({ method: 'GET', path: '/api/configurazioni' });
    assert.deepEqual(responseTabs(), [`GET configurazioni · ${ROSSI} · 200`]);
    assert.match(textOf(last), /^\/\/ GET http:\/\/127\.0\.0\.1:\d+\/api\/configurazioni\n/);
  });

  it('shows the request as sent in the header block, its token, licence key and secret headers masked', async () => {
    const before = sandbox.requests.length;
    const summary = await send({
      method: 'POST',
      path: '/api/configurazioni',
      body: { descrizione: 'Nuova' },
      headers: { 'X-Trace': 'resp-1', 'X-Api-Token': 'not-for-your-eyes-42' },
    });
    // The sandbox serves /api/configurazioni for GET only: the 405 is shown like any answer.
    assert.equal(summary.status, 405, JSON.stringify(summary.error));
    const received = sandbox.requests.slice(before).find((request) => request.path === '/api/configurazioni');
    assert.ok(received, 'the sandbox got the POST');
    const token = received.headers['authorization'].replace(/^Bearer /, '');
    const key = received.headers['authorization-key'];
    assert.ok(token.length > 20 && key, 'the real credentials went to the server');
    const header = headerBlock(textOf(summary));
    assert.match(header, /\n\/\/ Request headers\n/);
    assert.match(header, /\n\/\/ {3}Authorization: \[redacted\]\n/);
    assert.match(header, /\n\/\/ {3}Authorization-Key: \[redacted\] \(org-rossi core\)\n/);
    assert.match(header, /\n\/\/ {3}X-Api-Token: \[redacted\]\n/);
    assert.match(header, /\n\/\/ {3}X-Trace: resp-1\n/);
    assert.match(header, /\n\/\/ Request body \(\d+ B\)\n\/\/ {3}\{"descrizione":"Nuova"\}\n/);
    assert.ok(header.indexOf('// Request headers') < header.indexOf('// Response headers'));
    for (const secret of [token, key, 'not-for-your-eyes-42']) assert.ok(!textOf(summary).includes(secret), 'a credential is in the response tab');
  });

  it('in a request file too: a secret header masked by the same rule, a base path named after the key\'s organization', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'responses-'));
    const file = path.join(folder, 'secret.http');
    fs.writeFileSync(file, '# @name conf\n# @tenant BA-PR\nGET /api/configurazioni\nX-Api-Token: file-secret-77\nX-Trace: file-1\n');
    try {
      const result = (await vscode.commands.executeCommand('tenantApi.requestFile.send', vscode.Uri.file(file), 0)) as Summary & { title?: string };
      assert.equal(result.status, 200, JSON.stringify(result));
      // "# @tenant BA-PR" names the request; no User-Tenant goes with a base-URL path, the key selects the data.
      assert.equal(result.title, `GET conf · ${ROSSI} · 200`);
      const header = headerBlock(textOf(result));
      assert.match(header, /\n\/\/ Data of the licence key's organization: Rossi Costruzioni S\.r\.l\. \(key org-rossi core, module core; no tenant is sent\)\n/);
      assert.doesNotMatch(header, /Tenant: |Bianchi/);
      assert.match(header, /\n\/\/ {3}X-Api-Token: \[redacted\]\n/);
      assert.match(header, /\n\/\/ {3}X-Trace: file-1\n/);
      assert.ok(!textOf(result).includes('file-secret-77'), 'the secret header\'s value is in the tab');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('says the licence key\'s organization selects /api/configurazioni, in the tree and in the response', async () => {
    const roots = await loadedTree(api);
    const account = roots.find((root) => root.contextValue === 'account');
    const children = account?.children ?? [];
    for (const item of children.filter((child) => child.contextValue.startsWith('tenant'))) {
      assert.ok(!(item.children ?? []).some((resource) => resource.label === 'Configurazioni'), `Configurazioni is listed under ${item.label}`);
    }
    const group = children.find((child) => child.contextValue === 'keyGroup');
    assert.ok(group, JSON.stringify(children));
    const configurazioni = group.children?.find((resource) => resource.label === 'Configurazioni');
    assert.equal(configurazioni?.description, `${ROSSI} · GET /api/configurazioni`);
    assert.equal(configurazioni?.command, 'tenantApi.openResource');

    // Opened under Bianchi's tenant, as the tree used to list it: still the key's organization's data.
    const before = sandbox.requests.length;
    const bianchi = tenant('BA-PR');
    const summary = (await vscode.commands.executeCommand('tenantApi.openResource', {
      tenantId: bianchi.id,
      method: 'GET',
      path: '/api/configurazioni',
    })) as Summary;
    assert.equal(summary.status, 200, JSON.stringify(summary.error));
    const received = sandbox.requests.slice(before).find((request) => request.path === '/api/configurazioni');
    assert.equal(received?.headers['user-tenant'], undefined, 'no tenant was sent');
    const header = headerBlock(textOf(summary));
    assert.match(header, new RegExp(`\\n// Data of the licence key's organization: ${ROSSI.replace(/\./g, '\\.')} \\(key org-rossi core, module core; no tenant is sent\\)\\n`));
    assert.doesNotMatch(header, /Tenant: |Bianchi/);
    assert.ok(responseTabs().includes(`GET configurazioni · ${ROSSI} · 200`), responseTabs().join(' | '));
  });
});
