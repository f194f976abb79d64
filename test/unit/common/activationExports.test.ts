import * as assert from 'node:assert/strict';
import Module from 'node:module';
import * as path from 'node:path';
import { activationExports } from '../../../src/common/activationExports';

/** The parts of the `vscode` namespace the extension touches at activation (and a few more). */
const NAMESPACE = [
  'authentication', 'commands', 'env', 'l10n', 'languages', 'window', 'workspace', 'extensions',
  'Disposable', 'EventEmitter', 'MarkdownString', 'ProgressLocation', 'QuickInputButtons', 'QuickPickItemKind',
  'StatusBarAlignment', 'ThemeColor', 'ThemeIcon', 'TreeItem', 'TreeItemCollapsibleState', 'Uri', 'ViewColumn',
  'CodeLens', 'CompletionItem', 'CompletionItemKind', 'Diagnostic', 'DiagnosticSeverity', 'DocumentSymbol', 'Hover',
  'CodeAction', 'CodeActionKind', 'Range', 'SymbolKind', 'WorkspaceEdit', 'tests', 'TestRunProfileKind', 'TestMessage', 'TestRunRequest', 'Location',
];

/**
 * A stand-in for the `vscode` module, enough for activate() to run in plain Node: every property is
 * another stand-in, every call returns one (never a thenable), enums are numbers.
 */
function standInVscode(): Record<string, unknown> {
  const make = (name: string): unknown =>
    new Proxy(function () {}, {
      get(_target, property) {
        if (property === 'then') return undefined;
        if (property === Symbol.toPrimitive) return () => name;
        if (property === Symbol.iterator) return function* () {};
        // vscode.l10n.t becomes the translator of src/common/l10n: it must format like the default one.
        if (property === 't') return (message: string, ...args: unknown[]) => message.replace(/\{(\d+)\}/g, (match, index: string) => (args[Number(index)] === undefined ? match : String(args[Number(index)])));
        return make(`${name}.${String(property)}`);
      },
      set: () => true,
      apply: () => make(`${name}()`),
      construct: () => make(`new ${name}`) as object,
    });
  const namespace: Record<string, unknown> = Object.fromEntries(NAMESPACE.map((name) => [name, make(name)]));
  namespace.ExtensionMode = { Production: 1, Development: 2, Test: 3 };
  namespace.UIKind = { Desktop: 1, Web: 2 };
  return namespace;
}

/** Runs the real src/extension.ts activate() (async: it first moves old secrets) against the stand-in, in the given ExtensionMode. */
async function activateIn(extensionMode: number): Promise<Record<string, unknown>> {
  const moduleWithLoad = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const load = moduleWithLoad._load;
  const vscode = standInVscode();
  moduleWithLoad._load = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? vscode : load.call(this, request, ...rest);
  };
  try {
    const entry = path.resolve(__dirname, '../../../src/extension.ts');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const extension = require(entry) as { activate(context: unknown): Promise<Record<string, unknown>> };
    const memento = { get: () => undefined, update: async () => undefined, keys: () => [] };
    const secrets = { get: async () => undefined, store: async () => undefined, delete: async () => undefined, onDidChange: () => ({ dispose() {} }) };
    const context = { extensionMode, subscriptions: [], secrets, globalState: memento, workspaceState: memento, extension: { id: 'tenant-api.tenant-api-workbench' }, extensionUri: {} };
    try {
      return (await extension.activate(context)) ?? {};
    } finally {
      // As the editor does at deactivation: what activate() started (the windows' broker, timers) stops.
      for (const subscription of context.subscriptions as Array<{ dispose?: () => unknown }>) subscription.dispose?.();
    }
  } finally {
    moduleWithLoad._load = load;
  }
}

describe('activation exports', () => {
  it('gives the test hooks only to development and test runs', () => {
    assert.deepEqual(activationExports(false, () => ({ auth: 'secret' })), {});
    assert.deepEqual(activationExports(true, () => ({ auth: 'hooks' })), { auth: 'hooks' });
  });

  it('the real activate() exports nothing secret in production, and the hooks in development and test runs', async () => {
    const production = await activateIn(1);
    assert.deepEqual(Object.keys(production), [], `production exports: ${Object.keys(production).join(', ')}`);
    for (const mode of [2, 3]) {
      const exported = await activateIn(mode);
      assert.ok(exported.auth && exported.licenceKeys && exported.workbench, `mode ${mode}: ${Object.keys(exported).join(', ')}`);
      assert.equal(typeof exported.activationMs, 'number');
    }
  });
});
