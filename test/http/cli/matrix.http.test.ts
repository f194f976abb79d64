// The built runner as a child process against the sandbox, running matrices as a CI job would: a file
// across tenants of two organizations (each with its own keys) and the rows of a data file, a tenant
// skipped for want of a key with the variable to set, --tag and --name, and every report read back by a
// strict reader (JUnit against its schema, the HTML as a document with nothing from outside, the
// Markdown's tables), the Markdown appended to $GITHUB_STEP_SUMMARY.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startSandbox, type Sandbox } from '../../sandbox';
import { elements, parseXml } from '../../helpers/xmlCheck';
import { junitSchemaErrors, markdownTables, readHtml } from '../../helpers/reportReaders';
import { buildRunner, runRunner, sandboxWorkspace, type RunnerResult } from './runnerProcess';

const MATRIX = [
  '# @tenant RC-MI, RC-TO, BA-PR',
  '# @name ditte',
  '# @tag smoke',
  'GET /efat/api/v1/ditte?dimensionePagina={{size}}',
  '?? status == 200',
  '?? body $.dimensionePagina == {{size}}',
  '###',
  '# @tenant RC-MI, BA-PR',
  '# @name conf',
  'GET /api/configurazioni?dimensionePagina=1',
  '?? status == 200',
  '?? body $.organizzazione == org-rossi',
].join('\n');

describe('tenant-api run as a matrix of tenants and data rows, against the sandbox', function () {
  this.timeout(120_000);
  let sandbox: Sandbox;
  let folder: string;
  let env: Record<string, string>;
  const outputs: string[] = [];
  const key = (organization: string, module: string) => sandbox.licenceKeys.find((k) => k.organizationId === organization && k.module === module)!.key;
  const tenantId = (code: string) => sandbox.tenants.find((tenant) => tenant.codiceAmbienteDati === code)!.id;
  const read = (name: string) => {
    const text = fs.readFileSync(path.join(folder, name), 'utf8');
    outputs.push(text);
    return text;
  };
  const run = async (command: string[], extra: Record<string, string> = {}): Promise<RunnerResult> => {
    const result = await runRunner(['run', ...command, '--env', 'Sandbox'], folder, { ...env, ...extra });
    outputs.push(result.stdout, result.stderr);
    return result;
  };

  before(async () => {
    buildRunner();
    sandbox = await startSandbox({});
    folder = sandboxWorkspace(sandbox, sandbox.clients.password.clientId);
    fs.writeFileSync(path.join(folder, 'matrix.http'), MATRIX);
    fs.writeFileSync(path.join(folder, 'rows.csv'), 'label,size\nsmall,1\n"big, really",3\n');
    env = {
      TENANT_API_CLIENT_SECRET: sandbox.clients.password.clientSecret,
      TENANT_API_USERNAME: 'mario.rossi',
      TENANT_API_PASSWORD: sandbox.users.find((user) => user.username === 'mario.rossi')!.password,
      TENANT_API_KEY_CORE_ROSSI: key('org-rossi', 'core'),
      TENANT_API_KEY_EFAT_ROSSI: key('org-rossi', 'efat'),
      TENANT_API_KEY_CORE_BIANCHI: key('org-bianchi', 'core'),
      TENANT_API_TENANTS_ROSSI: 'RC-MI,RC-TO',
      TENANT_API_TENANTS_BIANCHI: 'BA-PR',
    };
  });
  beforeEach(() => sandbox.resetLimits());
  after(async () => {
    await sandbox?.close();
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('tenants x rows: each call with its organization\'s key, a tenant without one skipped with the variable to set; every report read back strictly', async () => {
    const summary = path.join(folder, 'step-summary.md');
    fs.writeFileSync(summary, '# earlier step\n');
    const before = sandbox.requests.length;
    const reporters = ['--reporter', 'junit=out/m.xml', '--reporter', 'json=out/m.json', '--reporter', 'html=out/m.html', '--reporter', 'markdown=out/m.md'];
    const result = await run(['matrix.http', '--data', 'rows.csv', ...reporters], { GITHUB_STEP_SUMMARY: summary });
    // conf for BA-PR is Bianchi's configuration: its assertion on org-rossi fails there, as it should.
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(result.stdout, /SKIP --- GET \/efat\/api\/v1\/ditte\?dimensionePagina=1 \(ditte \[BA-PR\] #1 small, \d+ ms\)\n\s+No licence key of the module "efat" for the tenant BA-PR: set TENANT_API_KEY_EFAT_BIANCHI/);
    assert.match(result.stdout, /10 requests: 6 passed, 2 failed, 2 skipped; 8 calls/);
    assert.match(result.stdout, /Tenants: RC-MI, RC-TO, BA-PR/);
    assert.match(result.stdout, /Quota spent: ROSSI: 6 calls, \d+\/10000 this week; BIANCHI: 2 calls, \d+\/5000 this week/);

    const calls = sandbox.requests.slice(before).filter((request) => request.path !== '/v10/user-tenants');
    const sentFor = calls.map((request) => [request.path.split('?')[0], request.headers['user-tenant'] ?? '-', request.headers['authorization-key']]);
    assert.deepEqual(sentFor, [1, 2].flatMap(() => [
      ['/efat/api/v1/ditte', tenantId('RC-MI'), key('org-rossi', 'efat')],
      ['/efat/api/v1/ditte', tenantId('RC-TO'), key('org-rossi', 'efat')],
      ['/api/configurazioni', '-', key('org-rossi', 'core')],
      ['/api/configurazioni', '-', key('org-bianchi', 'core')],
    ]), 'row by row, request by request, tenant by tenant; BA-PR\'s efat call never made with Rossi\'s key');
    assert.deepEqual(calls.map((request) => request.url.match(/dimensionePagina=(\d)/)?.[1]), ['1', '1', '1', '1', '3', '3', '1', '1'], 'each row\'s size');

    const xml = read('out/m.xml');
    assert.deepEqual(await junitSchemaErrors(xml), []);
    const root = parseXml(xml);
    assert.deepEqual([root.attributes.tests, root.attributes.failures, root.attributes.skipped], ['10', '2', '2']);
    const cases = elements(root, 'testcase');
    assert.deepEqual(cases.slice(0, 5).map((testcase) => testcase.attributes.name.split(':')[0]), ['ditte [RC-MI] #1 small', 'ditte [RC-TO] #1 small', 'ditte [BA-PR] #1 small', 'conf [RC-MI] #1 small', 'conf [BA-PR] #1 small']);
    assert.match(elements(cases[2], 'skipped')[0].attributes.message, /set TENANT_API_KEY_EFAT_BIANCHI/);
    const failure = elements(cases[4], 'failure')[0];
    assert.match(failure.text, /\?\? body \$\.organizzazione == org-rossi\n {2}expected: org-rossi\n {2}actual: org-bianchi/);
    const properties = Object.fromEntries(elements(elements(root, 'testsuite')[0], 'property').map((property) => [property.attributes.name, property.attributes.value]));
    assert.equal(properties.environment, 'Sandbox');
    assert.equal(properties.tenants, 'RC-MI, RC-TO, BA-PR');
    assert.match(properties.duration, /^\d+\.\d s$/);
    assert.match(properties['quota.BIANCHI'], /^2 calls, \d+\/5000 this week$/);
    assert.equal(properties['client.answers429'], '0');

    const json = JSON.parse(read('out/m.json'));
    assert.deepEqual([json.total, json.passed, json.failed, json.skipped], [10, 6, 2, 2]);
    assert.deepEqual(Object.keys(json.statistics).sort(), ['answers429', 'calls', 'rateLimitWaitMs', 'rateLimitWaits', 'retries']);
    assert.equal(json.statistics.calls, 9, 'the 8 calls and the tenant listing');
    assert.deepEqual(json.data, { file: 'rows.csv', rows: 2 });
    assert.deepEqual(json.files[0].requests[1].row, { number: 1, label: 'small' });
    assert.deepEqual(json.quota.map((spent: { organization: string; calls: number }) => [spent.organization, spent.calls]), [['ROSSI', 6], ['BIANCHI', 2]]);

    const html = readHtml(read('out/m.html'));
    assert.deepEqual(html.errors, [], 'the HTML parses without an error');
    assert.deepEqual(html.externalReferences, [], 'nothing is loaded from outside the file');
    const csp = html.elements.find((element) => element.attrs.some((attribute) => attribute.value === 'Content-Security-Policy'));
    assert.match(csp?.attrs.find((attribute) => attribute.name === 'content')?.value ?? '', /default-src 'none'/);
    const rows = html.elements.filter((element) => element.tagName === 'tr' && element.attrs.some((attribute) => attribute.name === 'class'));
    assert.deepEqual(rows.map((row) => row.attrs.find((attribute) => attribute.name === 'class')!.value.split(' ')[0]).slice(0, 4), ['failed', 'failed', 'skipped', 'skipped'], 'failures first');
    assert.equal(html.elements.filter((element) => element.tagName === 'input' && element.attrs.some((attribute) => attribute.value === 'radio')).length, 8, 'filters: all, failed, skipped, passed; every tenant and each of three');
    assert.match(html.text, /BIANCHI/);

    const markdown = read('out/m.md');
    const [figures, table] = markdownTables(markdown);
    assert.ok(figures.some((row) => row.Figure === 'quota.ROSSI'));
    assert.equal(table.length, 10);
    assert.deepEqual(table.slice(0, 2).map((row) => [row.Result, row.Request, row.Tenant, row.Row]), [['❌ failed', 'conf', 'BA-PR', '1 small'], ['❌ failed', 'conf', 'BA-PR', '2 big, really']]);
    assert.match(table[0].Details, /expected org-rossi, found org-bianchi/);
    assert.equal(fs.readFileSync(summary, 'utf8'), `# earlier step\n${markdown}\n`, 'appended to the job summary');
  });

  it('--tag and --name select requests; --tenant A,B and * run the requests that name none once per tenant; nothing selected is exit 2', async () => {
    fs.writeFileSync(path.join(folder, 'plain.http'), '# @name ditte\n# @tag smoke\nGET /efat/api/v1/ditte?dimensionePagina=1\n?? status == 200\n###\n# @name slow\nGET /efat/api/v1/ditte?dimensionePagina=2\n?? status == 200\n');
    const tagged = await run(['plain.http', '--tag', 'smoke', '--tenant', 'RC-MI,RC-TO', '--reporter', 'junit=out/t.xml']);
    assert.equal(tagged.code, 0, tagged.stdout + tagged.stderr);
    const cases = elements(parseXml(read('out/t.xml')), 'testcase').map((testcase) => testcase.attributes.name.split(':')[0]);
    assert.deepEqual(cases, ['ditte [RC-MI]', 'ditte [RC-TO]']);
    const every = await run(['plain.http', '--name', '^SLOW$', '--tenant', '*']);
    assert.equal(every.code, 0, every.stdout + every.stderr);
    assert.match(every.stdout, /slow \[RC-MI\].*\n.*slow \[RC-TO\].*\n.*slow \[BA-PR\]/, 'every tenant of Mario, in the listing\'s order: BA-PR has no efat key of its own…');
    assert.match(every.stdout, /3 requests: 2 passed, 0 failed, 1 skipped/);
    const none = await run(['plain.http', '--tag', 'nightly']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /No request matches --tag nightly/);
  });

  it('a data file that is not CSV or JSON, or a column that is no variable name: exit 2 with the reason, nothing sent', async () => {
    const before = sandbox.requests.length;
    fs.writeFileSync(path.join(folder, 'bad.csv'), 'size,other\n1,2,3\n');
    const bad = await run(['matrix.http', '--data', 'bad.csv']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--data: bad\.csv is not CSV with a header row/);
    fs.writeFileSync(path.join(folder, 'bad.json'), '[{"1st": 2}]');
    const column = await run(['matrix.http', '--data', 'bad.json']);
    assert.equal(column.code, 2);
    assert.match(column.stderr, /the column "1st" is not a variable name/);
    assert.equal(sandbox.requests.slice(before).filter((request) => request.path !== '/v10/user-tenants').length, 0, 'nothing sent');
  });

  it('no secret in stdout, stderr or any report', () => {
    assert.ok(outputs.length >= 10);
    const all = outputs.join('\n');
    for (const secret of Object.values(env).filter((value) => value.length > 8 && value !== 'mario.rossi' && !/,/.test(value))) assert.ok(!all.includes(secret), `${secret.slice(0, 4)}… appears`);
    assert.doesNotMatch(all, /eyJ[A-Za-z0-9_-]{5,}\./);
  });
});
