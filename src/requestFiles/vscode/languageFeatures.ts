import * as vscode from 'vscode';
import { onSettingsChange, readRequestFilesCodeLens } from '../../settings/editorSettings';
import type { TenantApi, TenantRecord } from '../../api/types';
import { codeLensPlan } from '../../engine/codeLenses';
import { completionSpot, HEADER_NAMES } from '../../engine/completionContext';
import { diagnoseRequestFile, type FileDiagnostic } from '../../engine/diagnostics';
import { HTTP_METHODS } from '../../engine/parser';
import { labelOf, type RequestFileRunner } from '../../engine/runner';
import { systemVariableHelp } from '../../engine/systemVariables';
import { classifyReference, looksSecret, lookupReference, referencesInLine } from '../../engine/variables';
import { COMMAND, INTERNAL_COMMAND, type CommandHandlers } from '../../common/commandIds';
import { assertionCompletions, assertionHover } from './assertionFeatures';
import { isRequestDocument, REQUEST_SELECTOR, type ParsedDocuments } from './documents';
import { quickFixCommands, registerQuickFixes, type QuickFixDeps } from './quickFixActions';
import { catalogueCompletions, catalogueHover } from './catalogueFeatures';
import { BodyChecks } from '../../catalog/bodyChecks';
import type { CatalogueSet } from '../../catalog/catalogues';

export interface LanguageDeps {
  api: Pick<TenantApi, 'routeFor' | 'endpoints'>;
  runner: RequestFileRunner;
  parsed: ParsedDocuments;
  environment(): Record<string, string>;
  /** The tenants when already loaded (no call is made for completion or diagnostics). */
  knownTenants(): readonly TenantRecord[] | undefined;
  saveRoute?: QuickFixDeps['saveRoute'];
  modules?: QuickFixDeps['modules'];
  /** The catalogues: documented paths, parameters and bodies offered, hovered and checked. */
  catalogues?: CatalogueSet;
}

class RequestCodeLenses implements vscode.CodeLensProvider {
  private readonly changes = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changes.event;

  constructor(private readonly parsed: ParsedDocuments) {}

  refresh(): void {
    this.changes.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    if (!readRequestFilesCodeLens()) return [];
    const titles = {
      send: vscode.l10n.t('$(play) Send (Tenant API)'),
      sendAll: vscode.l10n.t('$(run-all) Send All (Tenant API)'),
      copyAsCurl: vscode.l10n.t('Copy as cURL'),
      watch: vscode.l10n.t('$(eye) Watch (Tenant API)'),
    };
    const commands = { send: COMMAND.requestFileSend, sendAll: COMMAND.requestFileSendAll, copyAsCurl: COMMAND.requestFileCopyAsCurl, watch: INTERNAL_COMMAND.requestFileWatch };
    const file = this.parsed.get(document);
    const tooltips = {
      send: (label: string) => vscode.l10n.t('Send {0} with Tenant API Workbench', label),
      sendAll: () => vscode.l10n.t('Send every request of this file in order with Tenant API Workbench'),
      copyAsCurl: (label: string) => vscode.l10n.t('Copy {0} as a cURL command (token and key masked)', label),
      watch: (label: string) => vscode.l10n.t('Send {0} again every minute or more (tenantApi.watch.intervalSeconds) and show what changed', label),
    };
    return codeLensPlan(file).map(
      (lens) =>
        new vscode.CodeLens(new vscode.Range(lens.line, 0, lens.line, 0), {
          title: titles[lens.kind],
          tooltip: tooltips[lens.kind](labelOf(file.requests[lens.index])),
          command: commands[lens.kind],
          arguments: [document.uri, lens.index],
        }),
    );
  }
}

const SEVERITY: Record<FileDiagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
};

function watchDiagnostics(deps: LanguageDeps, collection: vscode.DiagnosticCollection): { disposables: vscode.Disposable[]; refresh(): void } {
  const timers = new Map<string, NodeJS.Timeout>();
  // A body's schema check is answered by the catalogue's worker: asked in the first pass, used in a second.
  const bodyChecks = deps.catalogues && new BodyChecks(deps.catalogues);
  const diagnose = (document: vscode.TextDocument) => {
    const sources = deps.runner.sources(document.uri.toString(), deps.parsed.get(document));
    return diagnoseRequestFile(document.getText(), deps.parsed.get(document), {
      routeFor: (path) => deps.api.routeFor(path),
      environment: sources.environment,
      tenants: deps.knownTenants(),
      system: sources.system,
      bodyCheck: bodyChecks?.lookup,
    });
  };
  const update = async (document: vscode.TextDocument) => {
    if (!isRequestDocument(document)) return;
    const version = document.version;
    let found = diagnose(document);
    const asked = await bodyChecks?.settled();
    if (document.isClosed || document.version !== version) return;
    if (asked) found = diagnose(document);
    collection.set(
      document.uri,
      found.map((item) => {
        const diagnostic = new vscode.Diagnostic(new vscode.Range(item.line, item.start, item.line, item.end), item.message, SEVERITY[item.severity]);
        diagnostic.source = 'Tenant API';
        diagnostic.code = item.code;
        return diagnostic;
      }),
    );
  };
  const later = (document: vscode.TextDocument) => {
    const key = document.uri.toString();
    clearTimeout(timers.get(key));
    timers.set(key, setTimeout(() => void update(document), 250));
  };
  vscode.workspace.textDocuments.forEach((document) => void update(document));
  const disposables = [
    vscode.workspace.onDidOpenTextDocument((document) => void update(document)),
    vscode.workspace.onDidChangeTextDocument((event) => later(event.document)),
    vscode.workspace.onDidCloseTextDocument((document) => {
      collection.delete(document.uri);
      deps.parsed.forget(document);
    }),
    { dispose: () => timers.forEach((timer) => clearTimeout(timer)) },
  ];
  return { disposables, refresh: () => vscode.workspace.textDocuments.forEach((document) => void update(document)) };
}

function completions(deps: LanguageDeps): vscode.CompletionItemProvider {
  return {
    async provideCompletionItems(document, position) {
      const file = deps.parsed.get(document);
      const spot = completionSpot(file, document.lineAt(position.line).text, position.line, position.character);
      const range = new vscode.Range(position.translate(0, -spot.prefix.length), position);
      const documented = await catalogueCompletions(deps.catalogues, spot, range, document.lineAt(position.line).text);
      const item = (label: string, kind: vscode.CompletionItemKind, detail?: string, insert?: string) => {
        const created = new vscode.CompletionItem(label, kind);
        created.range = range;
        if (detail) created.detail = detail;
        if (insert) created.insertText = insert;
        return created;
      };
      const assertionItems = assertionCompletions(spot.kind, range);
      if (assertionItems) return assertionItems;
      switch (spot.kind) {
        case 'method':
          return HTTP_METHODS.map((method) => item(method, vscode.CompletionItemKind.Keyword, undefined, `${method} `));
        case 'path':
          return [...documented, ...deps.api.endpoints().map((endpoint) => item(endpoint.path, vscode.CompletionItemKind.Reference, `${endpoint.method} · ${endpoint.label}`))];
        case 'header': {
          const named = new Set(documented.map((entry) => String(entry.label).toLowerCase()));
          return [...documented, ...HEADER_NAMES.filter((name) => !named.has(name.toLowerCase())).map((name) => item(name, vscode.CompletionItemKind.Property, undefined, `${name}: `))];
        }
        case 'query':
        case 'body':
          return documented;
        case 'tenant':
          return (deps.knownTenants() ?? []).map((tenant) => item(tenant.codiceAmbienteDati, vscode.CompletionItemKind.Value, tenant.descrizioneAmbienteDati));
        case 'variable': {
          const items = [
            ...file.variables.map((variable) => item(variable.name, vscode.CompletionItemKind.Variable, vscode.l10n.t('file variable'))),
            ...Object.keys(deps.runner.sources(document.uri.toString(), file).environment).map((name) => item(name, vscode.CompletionItemKind.Variable, vscode.l10n.t('environment variable'))),
            ...file.requests.flatMap((request) =>
              request.name
                ? [
                    item(`${request.name}.response.body.$`, vscode.CompletionItemKind.Reference, vscode.l10n.t('response body (JSONPath)')),
                    item(`${request.name}.response.headers.`, vscode.CompletionItemKind.Reference, vscode.l10n.t('response header')),
                  ]
                : [],
            ),
            ...systemVariableHelp().map((help) => {
              const created = item(help.name, vscode.CompletionItemKind.Function, undefined, help.snippet);
              created.documentation = help.documentation;
              return created;
            }),
          ];
          const unique = new Map(items.map((entry) => [String(entry.label), entry]));
          return [...unique.values()];
        }
        default:
          return [];
      }
    },
  };
}

function hovers(deps: LanguageDeps): vscode.HoverProvider {
  return {
    provideHover(document, position) {
      const line = document.lineAt(position.line).text;
      const assertion = assertionHover(line, position) ?? catalogueHover(deps.catalogues, line, position);
      if (assertion) return assertion;
      const found = referencesInLine(line).find((reference) => position.character >= reference.start && position.character <= reference.end);
      if (!found) return undefined;
      const file = deps.parsed.get(document);
      const reference = classifyReference(found.expression);
      const resolved = lookupReference(found.expression, deps.runner.sources(document.uri.toString(), file));
      const markdown = new vscode.MarkdownString();
      markdown.appendCodeblock(`{{${found.expression}}}`, 'text');
      if (resolved.problems.length > 0) {
        markdown.appendText(resolved.problems[resolved.problems.length - 1].message);
      } else {
        const secret = resolved.secrets.length > 0 || (reference.kind === 'name' && looksSecret(reference.name));
        const shown = secret ? vscode.l10n.t('(secret, masked)') : resolved.text.length > 500 ? `${resolved.text.slice(0, 500)}…` : resolved.text;
        if (reference.kind === 'system' && !secret) markdown.appendText(vscode.l10n.t('Changes at every send; now: {0}', shown));
        else markdown.appendCodeblock(shown, 'text');
      }
      return new vscode.Hover(markdown, new vscode.Range(position.line, found.start, position.line, found.end));
    },
  };
}

function symbols(deps: LanguageDeps): vscode.DocumentSymbolProvider {
  return {
    provideDocumentSymbols(document) {
      return deps.parsed.get(document).requests.map((request) => {
        const range = new vscode.Range(request.startLine, 0, request.endLine, document.lineAt(request.endLine).text.length);
        const selection = new vscode.Range(request.requestLine, 0, request.requestLine, document.lineAt(request.requestLine).text.length);
        return new vscode.DocumentSymbol(
          request.name ?? `${request.method} ${request.url}`,
          request.name ? `${request.method} ${request.url}` : '',
          request.name ? vscode.SymbolKind.Function : vscode.SymbolKind.Event,
          range,
          selection,
        );
      });
    },
  };
}

/** `refresh` checks every open request file again (e.g. once the tenants are known). */
export function registerLanguageFeatures(deps: LanguageDeps): { disposables: vscode.Disposable[]; refresh(): void; handlers: CommandHandlers } {
  const lenses = new RequestCodeLenses(deps.parsed);
  const collection = vscode.languages.createDiagnosticCollection('tenant-api-requests');
  const diagnostics = watchDiagnostics(deps, collection);
  const disposables = [
    collection,
    vscode.languages.registerCodeLensProvider(REQUEST_SELECTOR, lenses),
    onSettingsChange((affects) => {
      if (affects('requestFiles.codeLens')) lenses.refresh();
    }),
    ...diagnostics.disposables,
    vscode.languages.registerCompletionItemProvider(REQUEST_SELECTOR, completions(deps), '{', '@', ' ', '/'),
    vscode.languages.registerHoverProvider(REQUEST_SELECTOR, hovers(deps)),
    vscode.languages.registerDocumentSymbolProvider(REQUEST_SELECTOR, symbols(deps), { label: 'Tenant API' }),
    ...registerQuickFixes(REQUEST_SELECTOR, { ...deps, refresh: diagnostics.refresh }),
    // A catalogue read (or changed): its routes and schemas change what the files' diagnostics say.
    deps.catalogues?.onDidChange(() => diagnostics.refresh()) ?? { dispose() {} },
  ];
  return { disposables, refresh: diagnostics.refresh, handlers: quickFixCommands({ ...deps, refresh: diagnostics.refresh }) };
}
