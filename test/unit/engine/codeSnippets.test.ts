// Copy as Code: every language carries the platform's headers and reads each secret from an environment variable.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildSnippet, SNIPPET_LANGUAGES, type SnippetRequest } from '../../../src/engine/codeSnippets';

const platform: SnippetRequest = {
  method: 'POST',
  url: 'https://cluster-1.example.com/efat/api/v1/ditte?pagina=1',
  headers: { 'X-Api-Token': 'hdr-secret-991', 'X-Trace': 't-1' },
  body: '{"descrizione": "Nuova"}',
  platform: { route: { prefix: '/efat/', host: 'cluster', module: 'efat', tenantScoped: true }, tenantId: 'tenant-42' },
  secrets: ['hdr-secret-991'],
};

/** How each language reads an environment variable, as a pattern. */
const READS: Record<string, (name: string) => RegExp> = {
  javascript: (name) => new RegExp(`process\\.env\\.${name}\\b`),
  python: (name) => new RegExp(`os\\.environ\\["${name}"\\]`),
  csharp: (name) => new RegExp(`Environment\\.GetEnvironmentVariable\\("${name}"\\)`),
  java: (name) => new RegExp(`System\\.getenv\\("${name}"\\)`),
  go: (name) => new RegExp(`os\\.Getenv\\("${name}"\\)`),
  php: (name) => new RegExp(`getenv\\('${name}'\\)`),
  powershell: (name) => new RegExp(`\\$env:${name}\\b`),
  curl: (name) => new RegExp(`\\$${name}\\b`),
};

describe('engine/codeSnippets', () => {
  it('offers the languages integrators use', () => {
    assert.deepEqual(SNIPPET_LANGUAGES.map((language) => language.id), ['javascript', 'python', 'csharp', 'java', 'go', 'php', 'powershell', 'curl']);
  });

  for (const language of SNIPPET_LANGUAGES) {
    it(`${language.label}: every platform header, each secret from the environment, no secret in the code`, () => {
      const snippet = buildSnippet(language.id, platform);
      for (const header of ['Accept', 'Authorization', 'Authorization-Key', 'User-Tenant', 'X-Api-Token', 'X-Trace']) assert.match(snippet.code, new RegExp(`["' ]${header}["':]`), `${header} in\n${snippet.code}`);
      // C# and PowerShell set the body's type on the content rather than as a header.
      assert.match(snippet.code, /Content-?Type\b.*application\/json/);
      assert.deepEqual(snippet.variables, ['TENANT_API_TOKEN', 'TENANT_API_KEY_EFAT', 'X_API_TOKEN']);
      for (const variable of snippet.variables) assert.match(snippet.code, READS[language.id](variable), `${variable} read in\n${snippet.code}`);
      assert.match(snippet.code, /tenant-42/);
      assert.ok(!snippet.code.includes('hdr-secret-991') && !snippet.code.includes('__TENANT_API_ENV_'), snippet.code);
    });
  }

  it('JavaScript and cURL snippets are valid code (node --check, bash -n)', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'snippets-'));
    try {
      fs.writeFileSync(path.join(folder, 'snippet.mjs'), buildSnippet('javascript', platform).code);
      execFileSync(process.execPath, ['--check', path.join(folder, 'snippet.mjs')]);
      fs.writeFileSync(path.join(folder, 'snippet.sh'), buildSnippet('curl', platform).code);
      execFileSync('bash', ['-n', path.join(folder, 'snippet.sh')]);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('the cURL snippet, run, sends the values of its environment variables', () => {
    const code = buildSnippet('curl', platform).code.replace(/^curl /, 'printf "%s\\n" ');
    const out = execFileSync('bash', ['-c', code], { env: { PATH: process.env.PATH, TENANT_API_TOKEN: 'T0', TENANT_API_KEY_EFAT: 'K0', X_API_TOKEN: 'X0' } }).toString();
    assert.match(out, /^Authorization: Bearer T0$/m);
    assert.match(out, /^Authorization-Key: K0$/m);
    assert.match(out, /^X-Api-Token: X0$/m);
  });

  it('another host gets no credentials; a licence-free route no Authorization-Key; a secret in the URL is masked', () => {
    const other = buildSnippet('python', { method: 'GET', url: 'https://elsewhere.example/x?k=url-secret-7', headers: {}, secrets: ['url-secret-7'] });
    assert.ok(!/Authorization|os\.environ/.test(other.code), other.code);
    assert.match(other.code, /\*\*\*/);
    const listing = buildSnippet('go', { method: 'GET', url: 'https://api.example.com/v10/user-tenants', headers: {}, platform: { route: { prefix: '/v10/', host: 'base' } } });
    assert.deepEqual(listing.variables, ['TENANT_API_TOKEN']);
    assert.ok(!/Authorization-Key|Content-Type/.test(listing.code), listing.code);
    assert.match(listing.code, /import \(\n\t"os"\n/);
  });
});
