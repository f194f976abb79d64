// The table view and the usage panel as a user meets them, read inside their webviews in the browser:
// a listing of the sandbox opened as a table from its response tab's CodeLens (rows, a sort by a click
// on a heading, a filter typed, rows selected with the keyboard and copied, a row opened as JSON, the
// view kept across a hide and show), and the usage panel opened from the quota status bar item (a point
// per reading the sandbox reported, a pause after a 429, the calls of the last hour, live updates).
// Saves the README's screenshots (into media/ with --update-screenshots).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Sandbox } from '../../sandbox';
import { ditta } from '../../sandbox/api/data';
import { driver } from './helpers/driver';
import { clickLens, clickLensIn, openFile, tabsLabelled } from './helpers/requestFileEditor';
import { inWebview, webviewCount, webviewText } from './helpers/webviews';
import { endWorkbenchSuite, startSignedInAsMario, waitFor, workbenchApi } from './helpers/workbench';

const EDITOR = '[id="workbench.parts.editor"]';
const QUOTA_ITEM = '[id="tenant-api.tenant-api-workbench.tenantApi.quota"]';
const ROSSI = 'Rossi Costruzioni S.r.l.';
const ROWS = 300;
const cell = (position: number, column: number) => `.body .row[data-position="${position}"]:not(.loading) .cell:nth-child(${column})`;

/** A record as the table copies it: its keys, nested objects one level as a.b, values as the answer has them. */
function flat(record: object): Array<[string, string]> {
  return Object.entries(record).flatMap(([key, value]): Array<[string, string]> =>
    value !== null && typeof value === 'object' ? Object.entries(value).map(([sub, inner]) => [`${key}.${sub}`, String(inner)]) : [[key, String(value)]],
  );
}

const csvLine = (fields: string[]) => fields.map((field) => (/[",\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field)).join(',');

describe('table view and usage panel', function () {
  this.timeout(240_000);
  let sandbox: Sandbox;
  let folder: string;
  const screenshots = () => (process.env.TENANT_API_TEST_UPDATE_SCREENSHOTS === '1' ? 'media' : 'test/vscode/screenshots');

  before(async function () {
    if (!driver.available()) this.skip();
    sandbox = await startSignedInAsMario();
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'table-usage-'));
    fs.writeFileSync(path.join(folder, 'ditte.http'), ['# @name ditte', '# @tenant RC-MI', `GET /efat/api/v1/ditte?dimensionePagina=${ROWS}`, ''].join('\n'));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    await endWorkbenchSuite(sandbox);
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('table view: opens a listing from its response tab, sorts, filters, copies, opens a row, and saves the screenshots', async () => {
    const records = Array.from({ length: ROWS }, (_, index) => ditta('RC-MI', index));
    const columns = flat(records[0]).map(([key]) => key);
    const file = await openFile(path.join(folder, 'ditte.http'));
    await clickLens(file, 2, 'Send ditte with Tenant API Workbench');
    const tab = await waitFor(() => tabsLabelled('GET ditte')[0], { timeoutMs: 30_000, what: 'the response tab' });
    const tabDocument = await vscode.workspace.openTextDocument((tab.input as vscode.TabInputText).uri);

    // The response tab's CodeLens names the rows; the table opens beside the tab, in the same group.
    await clickLensIn(tabDocument, `${EDITOR} .codelens-decoration a:has-text("Open as Table (${ROWS} rows)")`, 0, tab.group.viewColumn);
    const started = performance.now();
    assert.equal(await webviewText(cell(0, 2), (text) => text !== '', { timeoutMs: 30_000, what: 'the first row' }), 'RC-MI-000001');
    console.log(`      table of ${ROWS} rows: first row shown ${(performance.now() - started).toFixed(0)} ms after the click (load average ${os.loadavg()[0].toFixed(1)})`);
    const headings = (await webviewText('.heading-row')).split('\n').map((text) => text.trim()).filter(Boolean);
    assert.deepEqual(headings, columns);
    assert.equal(await webviewText('#row-count'), `${ROWS} rows`);
    assert.equal(await webviewText(cell(0, columns.indexOf('sedeLegale.comune') + 1)), records[0].sedeLegale.comune);
    assert.equal(await webviewCount(`${cell(0, 1)}.kind-number`), 1, 'the id is a number (aligned right)');
    assert.equal(await webviewCount(`[role="grid"][aria-rowcount="${ROWS + 1}"][aria-colcount="${columns.length}"]`), 1);
    assert.match(await webviewText('#notices'), /The list "elementi" of the answer \(its largest\): 300 items\./);

    // Sort: a click on a heading sorts ascending, a second descending.
    const heading = inWebview(`.heading[data-column="${columns.indexOf('codiceDitta')}"]`);
    await driver.click(heading);
    await webviewText('.heading[aria-sort="ascending"]');
    await driver.click(heading);
    await webviewText(cell(0, 2), (text) => text === 'RC-MI-000300', { what: 'the last record first' });
    assert.equal(await webviewCount('.heading[aria-sort="descending"]'), 1);

    // Filter: typed in the box, the rows holding the text in any column (case ignored).
    const needle = 'verona';
    const expected = records.filter((record) => flat(record).some(([, value]) => value.toLowerCase().includes(needle))).length;
    assert.ok(expected > 0 && expected < ROWS, `${expected} records hold ${needle}`);
    await driver.click(inWebview('#filter'));
    await driver.type('Verona');
    await webviewText('#row-count', (text) => text === `${expected} of ${ROWS} rows`, { what: `${expected} of ${ROWS} rows` });
    await driver.screenshot(`${screenshots()}/screenshot-table.png`, { selector: EDITOR });
    await driver.press(['Control+a', 'Backspace']);
    await webviewText('#row-count', (text) => text === `${ROWS} rows`);

    // Copy: the first row clicked, two more with Shift+Down, Ctrl+C: CSV of the shown columns.
    await vscode.env.clipboard.writeText('');
    await driver.click(inWebview(cell(0, 3)));
    await driver.press(['Shift+ArrowDown', 'Shift+ArrowDown']);
    await webviewText('#row-count', (text) => text === `${ROWS} rows · 3 selected`);
    await driver.press('Control+c');
    const copied = await waitFor(async () => (await vscode.env.clipboard.readText()) || undefined, { what: 'the copied rows' });
    const lines = [columns.join(','), ...[299, 298, 297].map((index) => csvLine(flat(records[index]).map(([, value]) => value)))];
    assert.equal(copied, lines.join('\r\n') + '\r\n');
    await webviewText('#status', (text) => text === 'Copied 3 rows as CSV.');
    await driver.click(inWebview('#copy-all'));
    await webviewText('#status', (text) => text === `Copied ${ROWS} rows as CSV.`);
    assert.equal((await vscode.env.clipboard.readText()).split('\r\n').length, ROWS + 2);

    // Enter on the keyboard's row opens it as JSON.
    await driver.click(inWebview(cell(1, 3)));
    await driver.press('Enter');
    const row = await waitFor(() => vscode.workspace.textDocuments.find((document) => /· row 299$/.test(document.uri.path)), { what: 'the row as JSON' });
    assert.deepEqual(JSON.parse(row.getText()), records[298]);

    // Hidden and shown again: the sort, the scroll and the selection are as they were.
    await driver.click(`${EDITOR} .tab[aria-label^="Table: "]`);
    await webviewText(cell(0, 2), (text) => text === 'RC-MI-000300');
    await driver.click(inWebview(cell(0, 3)));
    await driver.press(['Control+End', ' ']);
    await webviewText(cell(ROWS - 1, 2), (text) => text === 'RC-MI-000001', { what: 'the last row scrolled to' });
    await webviewText('#row-count', (text) => text === `${ROWS} rows · 2 selected`);
    await vscode.window.showTextDocument((tab.input as vscode.TabInputText).uri, { viewColumn: tab.group.viewColumn, preview: false });
    await waitFor(() => (vscode.window.tabGroups.activeTabGroup.activeTab?.label.startsWith('Table: ') ? undefined : true), { what: 'the table hidden' });
    await driver.click(`${EDITOR} .tab[aria-label^="Table: "]`);
    await webviewText(cell(ROWS - 1, 2), (text) => text === 'RC-MI-000001', { what: 'the last row still in view after the table was shown again' });
    assert.equal(await webviewCount('.heading[aria-sort="descending"]'), 1);
    assert.equal(await webviewCount(`.body .row[data-position="${ROWS - 1}"][aria-selected="true"]`), 1);
    assert.equal(await webviewText('#row-count'), `${ROWS} rows · 2 selected`);
  });

  it('usage panel: opens from the quota status bar item with a point per reading, a 429 pause and the last hour, live, and saves the screenshots', async () => {
    const api = await workbenchApi();
    const milano = sandbox.tenants.find((tenant) => tenant.codiceAmbienteDati === 'RC-MI')!;
    const send = async () => {
      const summary = (await vscode.commands.executeCommand('tenantApi.sendRequest', { method: 'GET', path: '/efat/api/v1/ditte', tenantId: milano.id, preview: false })) as {
        status?: number;
      };
      assert.equal(summary?.status, 200);
    };
    const before = sandbox.usage('org-rossi').used;
    await send();
    // A 429 that names no limit: the queue pauses, then the call is sent again.
    sandbox.injectFault({ kind: 'status', status: 429, pathPrefix: '/efat/api/v1/ditte' });
    await send();
    await send();
    const after = sandbox.usage('org-rossi').used;
    await waitFor(() => api.statusBar().text.includes(String(after)) || undefined, { what: `the status bar at ${after}` });

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await driver.click(QUOTA_ITEM, { timeoutMs: 10_000 });
    const article = `article[data-organization="${ROSSI}"]`;
    await webviewText(`${article} h3`, (text) => text.startsWith(ROSSI), { timeoutMs: 30_000, what: 'the organization in the panel' });
    const used = async () => {
      const dots = await webviewCount(`${article} circle.reading`);
      const values: number[] = [];
      for (let value = 1; value <= after + 1; value++) if ((await webviewCount(`${article} circle.reading[data-used="${value}"]`)) > 0) values.push(value);
      return { dots, values };
    };
    const shown = await used();
    for (let value = before + 1; value <= after; value++) assert.ok(shown.values.includes(value), `a point at ${value} (points at ${shown.values.join(', ')})`);
    assert.equal(Math.max(...shown.values), after);
    assert.match(await webviewText(`${article} .lines`), new RegExp(`Used this week: ${after} of 10,000`));
    assert.ok((await webviewCount(`${article} path.mark.pause`)) >= 1, 'the pause after the 429 is marked on the week');
    assert.ok((await webviewCount('svg.calls path.mark.pause')) >= 1, 'and on the last hour');
    assert.match(await webviewText('.rate .lines'), /Paused after a 429: (once|[2-9]\d* times) in the last hour/);
    // Every call this window made to the sandbox is a call of the last hour.
    const calls = await waitFor(async () => {
      const bars = await webviewText('.rate .lines');
      const total = Number(/Last hour: ([\d,]+) calls/.exec(bars)?.[1].replace(/,/g, ''));
      return total === sandbox.requests.length ? total : undefined;
    }, { what: `${sandbox.requests.length} calls in the last hour` });
    assert.ok(calls >= 4);

    // Live: one more answer, one more point, the panel open.
    await send();
    await webviewText(`${article} .lines`, (text) => text.includes(`Used this week: ${after + 1} of 10,000`), { what: 'the new reading' });
    assert.equal(await webviewCount(`${article} circle.reading[data-used="${after + 1}"]`), 1);
    await driver.screenshot(`${screenshots()}/screenshot-usage.png`, { selector: EDITOR });

    // Show API Usage per Organization stays one click away.
    await driver.click(inWebview('#show-list'));
    await driver.waitFor(`.quick-input-list .monaco-list-row:has-text("${ROSSI}")`, { timeoutMs: 10_000 });
    await driver.press('Escape');
  });
});
