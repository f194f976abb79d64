// tenant-api import, then run, as a child process against the sandbox: a Postman collection and its
// environment export, a file of cURL commands, environment files read by the run (a private value a
// secret), and bad input refused with one line and nothing written or sent.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startSandbox, type Sandbox } from '../../sandbox';
import { buildRunner, passwordGrantEnv, runRunner, sandboxWorkspace, type RunnerResult } from './runnerProcess';

const V21 = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

function collection(baseUrl: string) {
  return {
    info: { name: 'Piattaforma', schema: V21 },
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{token}}' }] },
    variable: [{ key: 'baseUrl', value: baseUrl }],
    item: [
      {
        name: 'Tenant',
        request: { method: 'GET', header: [{ key: 'Accept', value: 'application/json' }, { key: 'Authorization', value: 'Bearer {{token}}' }], url: { raw: '{{baseUrl}}/v10/user-tenants', host: ['{{baseUrl}}'], path: ['v10', 'user-tenants'] } },
        event: [{ listen: 'test', script: { exec: ['pm.test("ok", function () {', '  pm.response.to.have.status(200);', '});'] } }],
      },
      {
        name: 'Anagrafiche',
        item: [
          {
            name: 'Configurazioni',
            request: {
              method: 'GET',
              header: [{ key: 'X-Trace', value: '{{traceCode}}' }],
              url: { raw: '{{baseUrl}}/api/configurazioni?dimensionePagina={{pageSize}}&pagina=1&codice={{traceCode}}', host: ['{{baseUrl}}'], path: ['api', 'configurazioni'], query: [{ key: 'dimensionePagina', value: '{{pageSize}}' }, { key: 'pagina', value: '1' }, { key: 'debug', value: '1', disabled: true }, { key: 'codice', value: '{{traceCode}}' }] },
            },
            event: [
              { listen: 'test', script: { exec: ['pm.expect(pm.response.code).to.eql(200);'] } },
              { listen: 'prerequest', script: { exec: ['pm.variables.set("x", 1);'] } },
            ],
          },
          {
            // A cluster's path is written alone: the tenant picks the host.
            name: 'Ditte',
            request: { method: 'GET', url: '/efat/api/v1/ditte?dimensionePagina=1' },
            event: [{ listen: 'test', script: { exec: ['pm.response.to.have.status(200);'] } }],
          },
        ],
      },
    ],
  };
}

const environment = {
  name: 'Sandbox',
  values: [
    { key: 'pageSize', value: '3', enabled: true },
    { key: 'traceCode', value: 'tr4ce-secret-881', enabled: true, type: 'secret' },
  ],
  _postman_variable_scope: 'environment',
};

describe('tenant-api import, then run, against the sandbox', function () {
  this.timeout(120_000);
  let sandbox: Sandbox;
  let folder: string;
  let passwordEnv: Record<string, string>;
  const run = (command: string[], env: Record<string, string> = {}): Promise<RunnerResult> => runRunner(command, folder, env);

  before(async () => {
    buildRunner();
    sandbox = await startSandbox({});
    folder = sandboxWorkspace(sandbox, sandbox.clients.password.clientId);
    passwordEnv = passwordGrantEnv(sandbox);
  });
  beforeEach(() => sandbox.resetLimits());
  after(async () => {
    await sandbox?.close();
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('imports a collection and its environment into one folder, then runs it: each request sent, its status checked, the secret never shown', async () => {
    fs.writeFileSync(path.join(folder, 'piattaforma.postman_collection.json'), JSON.stringify(collection(sandbox.baseUrl)));
    fs.writeFileSync(path.join(folder, 'Sandbox.postman_environment.json'), JSON.stringify(environment));
    const imported = await run(['import', 'piattaforma.postman_collection.json', '--out', 'api']);
    assert.equal(imported.code, 0, imported.stdout + imported.stderr);
    assert.deepEqual(imported.stdout.trim().split('\n'), [
      `Wrote ${path.join('api', 'Piattaforma.http')} (1 request)`,
      `Wrote ${path.join('api', 'Piattaforma', 'Anagrafiche.http')} (2 requests)`,
      `Wrote ${path.join('api', 'http-client.env.json')} (environment variables)`,
    ]);
    assert.match(imported.stderr, /^the collection: The bearer auth was dropped/m);
    assert.match(imported.stderr, /^item "Tenant": The header Authorization was dropped/m);
    assert.match(imported.stderr, /^item "Anagrafiche › Configurazioni": The pre-request script was not imported \(scripts are never run\): pm\.variables\.set/m);
    const environmentImport = await run(['import', 'Sandbox.postman_environment.json', '--out', 'api']);
    assert.equal(environmentImport.code, 0, environmentImport.stderr);
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(folder, 'api', 'http-client.env.json'), 'utf8')), { $shared: { baseUrl: sandbox.baseUrl }, Sandbox: { pageSize: '3' } });
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(folder, 'api', 'http-client.private.env.json'), 'utf8')), { Sandbox: { traceCode: 'tr4ce-secret-881' } });

    const before = sandbox.requests.length;
    const result = await run(['run', 'api', '--env', 'Sandbox', '--tenant', 'RC-MI', '--reporter', 'json=out/api.json'], passwordEnv);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /3 requests: 3 passed, 0 failed/);
    const sent = sandbox.requests.slice(before);
    const configurazioni = sent.find((request) => request.path === '/api/configurazioni');
    assert.ok(configurazioni, sent.map((request) => request.url).join('\n'));
    assert.match(configurazioni.url, /\?dimensionePagina=3&pagina=1&codice=tr4ce-secret-881$/, 'the environment export\'s values, the disabled parameter left out');
    assert.equal(configurazioni.headers['x-trace'], 'tr4ce-secret-881', 'the private value was sent');
    assert.match(result.stdout, /configurazioni\?dimensionePagina=3&pagina=1&codice=\*\*\* /, 'masked where the run shows the request');
    assert.equal(sent.find((request) => request.path === '/efat/api/v1/ditte')?.status, 200);
    const report = fs.readFileSync(path.join(folder, 'out', 'api.json'), 'utf8');
    assert.ok(!`${result.stdout}${result.stderr}${report}`.includes('tr4ce-secret-881'), 'the private value is in no output or report');
  });

  it('imports a file of cURL commands and runs it: credentials and -k dropped and named', async () => {
    const commands = [
      '# from the platform\'s documentation',
      `curl '${sandbox.baseUrl}/v10/user-tenants' \\`,
      "  -H 'Accept: application/json' \\",
      "  -H 'Authorization: Bearer eyJhbGciOiJub25lIn0.e30.'",
      '',
      `curl -k -G "${sandbox.baseUrl}/api/configurazioni" -d pagina=1 -d dimensionePagina=2`,
    ].join('\n');
    fs.writeFileSync(path.join(folder, 'docs.sh'), commands);
    const imported = await run(['import', 'docs.sh', '--out', 'curl']);
    assert.equal(imported.code, 0, imported.stderr);
    assert.equal(imported.stdout.trim(), `Wrote ${path.join('curl', 'docs.http')} (2 requests)`);
    assert.match(imported.stderr, /^line 2: The header Authorization was dropped/m);
    assert.match(imported.stderr, /^line 6: -k was dropped: the extension never skips certificate checks/m);
    assert.ok(!fs.readFileSync(path.join(folder, 'curl', 'docs.http'), 'utf8').includes('eyJ'));
    const before = sandbox.requests.length;
    const result = await run(['run', 'curl/docs.http', '--env', 'Sandbox'], passwordEnv);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.deepEqual(sandbox.requests.slice(before).map((request) => `${request.path} ${request.status}`), ['/v10/user-tenants 200', '/api/configurazioni 200']);
  });

  it('refuses bad input with one line and the place, writing and sending nothing', async () => {
    fs.writeFileSync(path.join(folder, 'broken.json'), '{"info": {"name": "x"},\n "item": [ }');
    const broken = await run(['import', 'broken.json', '--out', 'broken']);
    assert.equal(broken.code, 2);
    assert.equal(broken.stderr.trim(), broken.stderr.trim().split('\n')[0], 'one line');
    assert.match(broken.stderr, /^broken\.json: line 2, column 12: /);
    fs.writeFileSync(path.join(folder, 'notcurl.sh'), 'curl https://example.com\nwget https://example.com\n');
    const notCurl = await run(['import', 'notcurl.sh', '--format', 'curl', '--out', 'broken']);
    assert.equal(notCurl.code, 2);
    assert.equal(notCurl.stderr.trim(), 'line 2: "wget" is not a cURL command.');
    assert.equal(fs.existsSync(path.join(folder, 'broken')), false, 'nothing written');

    fs.mkdirSync(path.join(folder, 'badenv'));
    fs.writeFileSync(path.join(folder, 'badenv', 'list.http'), 'GET /v10/user-tenants\n');
    fs.writeFileSync(path.join(folder, 'badenv', 'http-client.private.env.json'), '{\n  "Sandbox": {\n    "a": 1,\n  }\n}\n');
    const before = sandbox.requests.length;
    const badEnv = await run(['run', 'badenv', '--env', 'Sandbox'], passwordEnv);
    assert.equal(badEnv.code, 2, badEnv.stdout + badEnv.stderr);
    assert.match(badEnv.stderr, /Environment file badenv\/http-client\.private\.env\.json:4:3: /);
    assert.equal(sandbox.requests.length, before, 'nothing sent');
  });
});
