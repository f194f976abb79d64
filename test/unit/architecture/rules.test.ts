// Each rule of the architecture test, broken once on purpose: the check must see it.
import * as assert from 'node:assert/strict';
import { configurationViolations, extensionContextViolations, importViolations, LAYERS, lengthViolations, staleExemptions } from './rules';
import { readFacts } from './sourceFacts';

describe('architecture rules', () => {
  const cases: Array<[string, string, RegExp | undefined]> = [
    ['src/api/x.ts', "import * as vscode from 'vscode';", /src\/api has no vscode/],
    ['src/api/x.ts', "export type { Uri } from 'vscode';", /src\/api has no vscode/],
    ['src/api/x.ts', "type U = import('vscode').Uri;", /src\/api has no vscode/],
    ['src/api/x.ts', "const v = require('vscode');", /src\/api has no vscode/],
    ['src/common/x.ts', "import type { Disposable } from 'vscode';", /src\/common has no vscode/],
    ['src/auth/x.ts', "import { window } from 'vscode';", /src\/auth has no vscode outside/],
    ['src/auth/vscode/x.ts', "import { window } from 'vscode';", undefined],
    ['src/views/x.ts', "import type { HistoryEntry } from '../commands/requestHistory';", /src\/views imports no layer above it/],
    ['src/views/x.ts', "import { registerWorkbenchCommands } from '../commands';", /src\/views imports no layer above it/],
    ['src/commands/x.ts', "import type { Views } from '../views';", undefined],
    // Each broken once: the engine is plain Node below every front end, no import runs up.
    ['src/engine/x.ts', "import * as vscode from 'vscode';", /src\/engine has no vscode/],
    ['src/engine/x.ts', "import { buildCurlCommand } from '../commands/curlCommand';", /src\/engine imports no layer above it/],
    ['src/engine/x.ts', "import { dataSelector } from '../views/responsePresentation';", /src\/engine imports no layer above it/],
    ['src/engine/x.ts', "import { COMMANDS } from '../requestFiles/vscode/commands';", /src\/engine imports no layer above it/],
    ['src/engine/x.ts', "import { dataSelector } from '../api/dataSelector';", undefined],
    ['src/api/x.ts', "import type { AccessTokenSource } from '../auth/types';", /src\/api imports no layer above it/],
    ['src/settings/x.ts', "import type { FlowSetting } from '../auth/flows';", /src\/settings imports no layer above it/],
    ['src/settings/x.ts', "import { sanitizeThresholds } from '../views/quotaPresentation';", /src\/settings imports no layer above it/],
    ['src/common/x.ts', "import { activate } from '../extension';", /src\/common imports no layer above it/],
    ['src/requestFiles/vscode/x.ts', "import { callPlatform } from '../../engine/sender';", undefined],
    // The runner: plain Node over the engine, no editor front end, imported by nothing.
    ['src/cli/x.ts', "import * as vscode from 'vscode';", /src\/cli has no vscode/],
    ['src/cli/x.ts', "import { ResponseDocuments } from '../views/responseDocuments';", /src\/cli has no vscode and no editor front end/],
    ['src/cli/x.ts', "import { registerRequestFiles } from '../requestFiles/vscode/register';", /src\/cli has no vscode and no editor front end/],
    ['src/cli/x.ts', "import { RequestFileRunner } from '../engine/runner';", undefined],
    ['src/extension.ts', "import { runCli } from './cli/commands';", /src\/extension does not import src\/cli/],
    ['src/engine/x.ts', "import { runCli } from '../cli/commands';", /src\/engine imports no layer above it/],
    // The Redis ledger stays below the local broker and the settings.
    ['src/coordination/redis/x.ts', "import { openRuntimeDir } from '../runtimeDir';", /src\/coordination\/redis imports only/],
    ['src/coordination/redis/x.ts', "import { readLedgerUrl } from '../../settings/ledgerSettings';", /src\/coordination\/redis imports only/],
    ['src/coordination/redis/x.ts', "import { apiErrors } from '../../api/errors';", undefined],
    // The webviews' scripts: browser code, joined to the extension by the messages' shapes only.
    ['src/webview/x/main.ts', "import * as vscode from 'vscode';", /src\/webview runs in the browser/],
    ['src/webview/x/main.ts', "import { randomBytes } from 'node:crypto';", /src\/webview runs in the browser/],
    ['src/webview/x/main.ts', "import { ResponseDocuments } from '../../views/responseDocuments';", /src\/webview runs in the browser/],
    ['src/webview/x/main.ts', "import type { TableFrame } from '../../views/table/tableProtocol';", undefined],
    ['src/views/table/x.ts', "import { Grid } from '../../webview/table/grid';", /nothing imports src\/webview/],
    ['src/api/x.ts', "// import * as vscode from 'vscode';\nconst s = \"import 'vscode'\";", undefined],
  ];
  for (const [file, text, expected] of cases) {
    it(`${expected ? 'refuses' : 'allows'} in ${file}: ${text.split('\n')[0]}`, () => {
      const found = importViolations([readFacts(file, text)]);
      if (expected) {
        assert.equal(found.length, 1, found.join('\n'));
        assert.match(found[0], expected);
      } else {
        assert.deepEqual(found, []);
      }
    });
  }

  // Every layer, importing the one just above it.
  LAYERS.slice(0, -1).forEach(({ folder }, index) => {
    const upper = LAYERS[index + 1].folder.slice('src/'.length);
    it(`refuses in ${folder} an import of src/${upper}, the layer above`, () => {
      const found = importViolations([readFacts(`${folder}/x.ts`, `import { y } from '../${upper}/y';`)]);
      assert.equal(found.length, 1, found.join('\n'));
      assert.match(found[0], new RegExp(`^${folder}/x.ts:1 .*${folder} imports no layer above it`));
    });
  });

  it('refuses a configuration read outside src/settings, and only a real one', () => {
    const read = "const c = vscode.workspace.getConfiguration('tenantApi');";
    assert.deepEqual(configurationViolations([readFacts('src/views/x.ts', read)]), [
      'src/views/x.ts:1 uses getConfiguration: only src/settings reads settings (every setting is read in one place)',
    ]);
    const listen = "a;\nvscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('tenantApi.quota'));";
    assert.equal(configurationViolations([readFacts('src/commands/x.ts', listen)]).length, 2);
    assert.deepEqual(configurationViolations([readFacts('src/settings/x.ts', read)]), []);
    const mention = "/** refreshed on onDidChangeConfiguration */\nconst s = 'getConfiguration';";
    assert.deepEqual(configurationViolations([readFacts('src/api/x.ts', mention)]), []);
  });

  it('refuses the extension\'s context outside the composition root, in any spelling, and only a real one', () => {
    const uses = [
      "export function register(context: vscode.ExtensionContext) {\n  return context.secrets;\n}",
      "import type { ExtensionContext } from 'vscode';",
      "type Storage = Pick<import('vscode').ExtensionContext, 'secrets'>;",
    ];
    for (const text of uses) {
      const found = extensionContextViolations([readFacts('src/requestFiles/vscode/x.ts', text)]);
      assert.equal(found.length, 1, text);
      assert.match(found[0], /^src\/requestFiles\/vscode\/x.ts:1 names ExtensionContext: only src\/extension.ts holds/);
    }
    assert.deepEqual(extensionContextViolations([readFacts('src/extension.ts', uses[0])]), []);
    const mention = "/** not the ExtensionContext */\nconst s = 'ExtensionContext';";
    assert.deepEqual(extensionContextViolations([readFacts('src/views/x.ts', mention)]), []);
  });

  it('measures every kind of function and refuses one longer than the limit', () => {
    const body = (n: number) => Array.from({ length: n - 2 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const text = [
      `function short() {\n${body(80)}\n}`,
      `function long() {\n${body(81)}\n}`,
      `const arrow = () => {\n${body(81)}\n};`,
      `class K {\n  method() {\n${body(81)}\n  }\n}`,
    ].join('\n');
    const found = lengthViolations([readFacts('src/x.ts', text)], 80, []);
    assert.deepEqual(
      found.map((line) => line.replace(/:\d+/, '')),
      ['src/x.ts long is 81 lines (at most 80)', 'src/x.ts arrow is 81 lines (at most 80)', 'src/x.ts method is 81 lines (at most 80)'],
    );
  });

  it('exempts only the functions listed, and calls an exemption stale once its function is short', () => {
    const body = Array.from({ length: 90 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const long = readFacts('src/x.ts', `function execute() {\n${body}\n}\nfunction other() {\n${body}\n}`);
    const exemptions = [{ file: 'src/x.ts', name: 'execute', why: 'being split' }];
    assert.deepEqual(lengthViolations([long], 80, exemptions).map((line) => line.split(' ')[1]), ['other']);
    assert.deepEqual(staleExemptions([long], 80, exemptions), []);
    const short = readFacts('src/x.ts', 'function execute() {\n  return 1;\n}');
    assert.equal(staleExemptions([short], 80, exemptions).length, 1);
  });
});
