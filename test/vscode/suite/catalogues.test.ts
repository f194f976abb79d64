// Catalogues (tenantApi.catalogues) driven as a user: the sandbox's OpenAPI descriptions in the
// Tenants view, an operation opened from its row and answered by the sandbox, Send Request's first
// step offering the documented operations (a path parameter asked, a body started from the schema),
// completion offering a documented query parameter, a body that breaks its schema warned at its
// place, and a `?? schema` assertion failing in the Testing view at its line.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Sandbox } from '../../sandbox';
import { OPENAPI_DOCUMENTS } from '../../sandbox/api/openapi';
import { driver } from './helpers/driver';
import { openFile } from './helpers/requestFileEditor';
import { configure, endWorkbenchSuite, extensionExports, startSignedInAsMario, waitFor, workbenchApi, type TreeItemSnapshot } from './helpers/workbench';

const SIDEBAR = '[id="workbench.parts.sidebar"]';
const SUGGESTIONS = '.editor-widget.suggest-widget.visible .monaco-list';
const QUICK_TITLE = (text: string) => `.quick-input-widget .quick-input-title:has-text("${text}")`;
const QUICK_ROW = (text: string) => `.quick-input-widget .monaco-list-row:has-text("${text}")`;

/** A description of our own, in the workspace: an order to create, a 404 it documents strictly, a resource by its name (the sandbox answers /api/configurazioni), a configuration to create. */
const ORDERS = `openapi: 3.0.3
info: {title: Ordini, version: "1"}
paths:
  /api/{risorsa}:
    get:
      operationId: risorsa
      summary: Una risorsa per nome
      tags: [Risorse]
      parameters:
        - {name: risorsa, in: path, required: true, description: "Il nome della risorsa", schema: {type: string}}
        - {name: X-Causale, in: header, required: true, description: "Perché la chiedi", schema: {type: string}}
        - {name: Authorization-Key, in: header, required: true, schema: {type: string}}
        - {name: ordine, in: query, required: false, schema: {type: string}}
      responses:
        "200": {description: the resource}
  /api/ordini:
    get:
      operationId: ordini
      tags: [Ordini]
      responses:
        "404":
          description: documented strictly on purpose
          content:
            application/json:
              schema: {type: object, required: [codice], properties: {codice: {type: string}}}
    post:
      operationId: creaOrdine
      tags: [Ordini]
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [codice, quantita]
              properties:
                codice: {type: string}
                quantita: {type: integer, minimum: 1}
      responses:
        "201": {description: created}
  /api/configurazioni:
    post:
      operationId: nuovaConfigurazione
      summary: Una configurazione nuova
      tags: [Ordini]
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [codice, descrizione]
              properties:
                codice: {type: string}
                descrizione: {type: string}
      responses:
        "201": {description: created}
`;

interface TestRunReport {
  results: Array<{ label: string; kind: string; messages: Array<{ line: number; message: string }> }>;
}

function find(items: readonly TreeItemSnapshot[] | undefined, label: string | RegExp): TreeItemSnapshot | undefined {
  for (const item of items ?? []) {
    if (typeof label === 'string' ? item.label === label : label.test(item.label)) return item;
    const inside = find(item.children, label);
    if (inside) return inside;
  }
  return undefined;
}

describe('Catalogues', function () {
  this.timeout(180_000);
  let sandbox: Sandbox;
  let folder: string;
  const written: string[] = [];

  function writeFile(name: string, text: string): string {
    const file = path.join(folder, name);
    fs.writeFileSync(file, text);
    written.push(file);
    return file;
  }

  before(async function () {
    if (!driver.available()) this.skip();
    sandbox = await startSignedInAsMario();
    folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const orders = writeFile('cat-ordini.yaml', ORDERS);
    await configure({
      catalogues: [
        ...OPENAPI_DOCUMENTS.map(({ file, host, module }) => ({ source: `${sandbox.baseUrl}/openapi/${file}`, host, ...(module ? { module } : {}) })),
        { source: orders, host: 'base', module: 'core' },
      ],
    });
  });

  after(async () => {
    for (const file of written.splice(0)) fs.rmSync(file, { force: true });
    await configure({ catalogues: undefined });
    await endWorkbenchSuite(sandbox);
  });

  it('lists the operations by tag under the tenants and the key group; a row opened is sent and answered by the sandbox', async () => {
    const api = await workbenchApi();
    const milano = sandbox.tenants.find((tenant) => tenant.codiceAmbienteDati === 'RC-MI')!;
    const tree = await waitFor(async () => {
      const roots = await api.treeSnapshot(6);
      return find(roots, 'GET /efat/api/v1/ditte') && find(roots, 'GET /api/configurazioni') ? roots : undefined;
    }, { timeoutMs: 30_000, what: 'the catalogues\' operations in the tree' });
    const tenant = find(tree, milano.descrizioneAmbienteDati)!;
    const efat = find(tenant.children, 'Fatturazione elettronica')!;
    assert.equal(efat.description, '2 operations');
    assert.deepEqual(efat.children?.map((group) => group.label), ['Ditte', 'Riepilogo']);
    assert.equal(find(efat.children, 'GET /efat/api/v1/ditte')?.description, 'The tenant\'s companies, a page at a time');
    const keyGroup = tree[0].children?.find((child) => child.contextValue === 'keyGroup');
    assert.ok(find(keyGroup?.children, 'Configurazioni'), 'a base-URL catalogue under the licence key\'s organization');
    assert.equal(find(tenant.children, 'Configurazioni'), undefined, 'not under a tenant');

    // Through the view: the tenant, its catalogue and group expanded by clicks, the operation clicked.
    await driver.click('.activitybar a[aria-label^="Tenant API"]', { timeoutMs: 15_000 });
    // By level too: the tenant's built-in resource "Ditte" (level 3) is not the catalogue's group "Ditte" (level 4).
    const row = (label: string, level?: number) => `${SIDEBAR} .monaco-list-row[aria-label^="${label}"]${level ? `[aria-level="${level}"]` : ''}`;
    for (const [label, level] of [[milano.descrizioneAmbienteDati, 2], ['Fatturazione elettronica', 3], ['Ditte', 4]] as const) {
      await driver.waitFor(row(label, level), { timeoutMs: 20_000 });
      if ((await driver.count(`${row(label, level)}[aria-expanded="false"]`)) > 0) await driver.click(row(label, level));
      await driver.waitFor(`${row(label, level)}[aria-expanded="true"]`, { timeoutMs: 10_000 });
    }
    const before = sandbox.requests.length;
    await driver.click(row('GET /efat/api/v1/ditte', 5), { timeoutMs: 10_000 });
    const sent = await waitFor(() => {
      const calls = sandbox.requests.slice(before).filter((request) => request.path === '/efat/api/v1/ditte' && request.status !== 0);
      return calls.length > 0 ? calls : undefined;
    }, { timeoutMs: 30_000, what: 'the operation sent to the sandbox' });
    assert.deepEqual(sent.map((request) => [request.status, request.headers['user-tenant']]), [[200, milano.id]]);
    const editor = await waitFor(() => vscode.window.visibleTextEditors.find((candidate) => candidate.document.uri.scheme === 'tenant-api-response' && /efat\/api\/v1\/ditte/.test(candidate.document.lineAt(0).text)), { timeoutMs: 30_000, what: 'the response tab of the operation' });
    assert.match(editor.document.getText(), /"ambienteDati": "RC-MI"/);
  });

  it('Send Request\'s first step offers the documented operations; one chosen asks only its parameter and is answered, a body starts from its schema', async () => {
    const before = sandbox.requests.length;
    type Summary = { status?: number; path?: string } | undefined;
    const withParameter = Promise.resolve(vscode.commands.executeCommand('tenantApi.sendRequest')) as Promise<Summary>;
    await driver.waitFor(QUICK_TITLE('Send Request: path'), { timeoutMs: 15_000 });
    // Found by its summary; the method and the path with its parameter as the label.
    await driver.type('risorsa per nome');
    const row = QUICK_ROW('GET /api/{risorsa}');
    await driver.waitFor(row, { timeoutMs: 30_000 });
    const shown = await driver.text(row);
    assert.match(shown, /Una risorsa per nome/);
    assert.match(shown, /Parameters: \{risorsa\}, X-Causale \(header, required\), ordine \(query\)/);
    await driver.waitFor(`${row}.focused`, { timeoutMs: 10_000 });
    await driver.press('Enter');
    // Only its parameter is asked: the route, licence key and tenant come from the catalogue.
    await driver.waitFor(QUICK_TITLE('Send Request: risorsa'), { timeoutMs: 15_000 });
    assert.match(await driver.text('.quick-input-widget'), /Il nome della risorsa · path parameter of GET \/api\/\{risorsa\}, required/);
    await driver.type('configurazioni');
    await driver.press('Enter');
    // Its required header next (the licence key it documents is the extension's own: not asked); the optional query not asked.
    await driver.waitFor(QUICK_TITLE('Send Request: X-Causale'), { timeoutMs: 15_000 });
    await driver.type('verifica');
    await driver.press('Enter');
    const summary = await withParameter;
    assert.deepEqual([summary?.status, summary?.path], [200, '/api/configurazioni']);
    const sent = sandbox.requests.slice(before).filter((request) => request.path.startsWith('/api/'));
    assert.deepEqual(sent.map((request) => [request.method, request.path, request.status, Boolean(request.headers['authorization-key']), request.headers['x-causale']]), [['GET', '/api/configurazioni', 200, true, 'verifica']]);
    const editor = await waitFor(() => vscode.window.visibleTextEditors.find((candidate) => candidate.document.uri.scheme === 'tenant-api-response' && /GET .*\/api\/configurazioni/.test(candidate.document.lineAt(0).text)), { timeoutMs: 30_000, what: 'the response tab of the operation' });
    assert.match(editor.document.getText(), /"organizzazione":/);

    // A documented body: the body step opens with a sample of its schema.
    const withBody = Promise.resolve(vscode.commands.executeCommand('tenantApi.sendRequest')) as Promise<Summary>;
    await driver.waitFor(QUICK_TITLE('Send Request: path'), { timeoutMs: 15_000 });
    await driver.type('POST /api/configurazioni');
    await driver.waitFor(`${QUICK_ROW('Una configurazione nuova')}.focused`, { timeoutMs: 10_000 });
    await driver.press('Enter');
    await driver.waitFor(QUICK_TITLE('Send Request: body'), { timeoutMs: 15_000 });
    await driver.press('Enter');
    await withBody;
    const posted = sandbox.requests.slice(before).find((request) => request.method === 'POST' && request.path === '/api/configurazioni');
    assert.deepEqual(JSON.parse(posted?.body ?? 'null'), { codice: 'string', descrizione: 'string' });
  });

  it('completion offers a documented query parameter with its description', async () => {
    const file = writeFile('cat-complete.http', 'GET /api/configurazioni?\n');
    const editor = await openFile(file);
    editor.selection = new vscode.Selection(0, 24, 0, 24);
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    await driver.waitFor('.editor-group-container.active .monaco-editor.focused', { timeoutMs: 10_000 });
    await driver.type('dim');
    await vscode.commands.executeCommand('editor.action.triggerSuggest');
    const shown = await waitFor(async () => {
      const text = await driver.text(SUGGESTIONS, { timeoutMs: 2000 }).catch(() => '');
      return text.includes('dimensionePagina') ? text : undefined;
    }, { timeoutMs: 30_000, what: 'dimensionePagina in the completion list' });
    assert.doesNotMatch(shown, /pagina\b.*Accept/s);
    await driver.press('Enter');
    await waitFor(() => editor.document.lineAt(0).text === 'GET /api/configurazioni?dimensionePagina=' || undefined, { what: `the parameter inserted (now "${editor.document.lineAt(0).text}")` });
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('a body that breaks its schema is a warning at the place it breaks, naming the path and the rule', async () => {
    const file = writeFile('cat-body.http', ['POST /api/ordini', 'Content-Type: application/json', '', '{', '  "codice": 5', '}', ''].join('\n'));
    const editor = await openFile(file);
    const found = await waitFor(() => {
      const items = vscode.languages.getDiagnostics(editor.document.uri).filter((diagnostic) => diagnostic.code === 'schema');
      return items.length >= 2 ? items : undefined;
    }, { timeoutMs: 30_000, what: 'the schema warnings' });
    const byLine = found.map((item) => [item.range.start.line, item.range.start.character, item.severity, item.message]).sort();
    assert.deepEqual(byLine.map(([line, character, severity]) => [line, character, severity]), [[3, 0, vscode.DiagnosticSeverity.Warning], [4, 12, vscode.DiagnosticSeverity.Warning]]);
    assert.match(String(byLine[0][3]), /POST \/api\/ordini: \$ must have required property 'quantita' \(required\)/);
    assert.match(String(byLine[1][3]), /\$\.codice must be string \(type\)/);
    await driver.waitFor('.monaco-editor .squiggly-warning', { timeoutMs: 15_000 });
  });

  it('?? schema fails in the Testing view at its line, naming the place in the body and the rule', async () => {
    const lines = ['# @name conf', 'GET /api/configurazioni?dimensionePagina=1', '', '?? schema', '', '###', '# @name ordini', 'GET /api/ordini', '', '?? status == 404', '?? schema', ''];
    writeFile('cat-schema.http', lines.join('\n'));
    const hooks = (await extensionExports()) as { testing?: { lastRun(): TestRunReport | undefined } };
    const previous = hooks.testing!.lastRun();
    await vscode.commands.executeCommand('workbench.view.testing.focus');
    const row = (label: string) => `.test-explorer .monaco-list-row:has-text("${label}")`;
    await driver.click(row('cat-schema.http'), { timeoutMs: 30_000 });
    await driver.click(`${row('cat-schema.http')} .action-label.codicon-testing-run-icon`, { timeoutMs: 10_000 });
    const report = await waitFor(() => (hooks.testing!.lastRun() !== previous ? hooks.testing!.lastRun() : undefined), { timeoutMs: 60_000, what: 'the test run' });
    assert.deepEqual(Object.fromEntries(report.results.map((result) => [result.label, result.kind])), { conf: 'passed', ordini: 'failed' });
    const [message] = report.results.find((result) => result.label === 'ordini')!.messages;
    assert.equal(message.line, 10);
    assert.match(message.message, /GET \/api\/ordini for 404: \$ must have required property 'codice' \(required\)/);
    await waitFor(async () => /1\/2/.test(await driver.text('.test-explorer')) || undefined, { what: 'the Testing view to say 1/2' });
  });
});
