import * as vscode from 'vscode';
import { requestTimeoutMs } from '../../api/requestTimeout';
import { RequestFileRunner } from '../../engine/runner';
import { defaultSystemContext } from '../../engine/systemVariables';
import type { CommandHandlers } from '../../common/commandIds';
import type { ResponseDocuments } from '../../views/responseDocuments';
import { followActive, type RequestFileParts } from './activeParts';
import { requestFileCommands } from './commands';
import { isRequestDocument, ParsedDocuments } from './documents';
import { AssertionFailures } from './assertionFailures';
import { registerLanguageFeatures } from './languageFeatures';
import { runInTerminalCommands } from './runInTerminal';
import { saveToFileCommands } from './saveToFile';
import { importCommands } from './importCommands';
import { copyAsCodeFileCommands } from './copyAsCode';
import { catalogueFileCommands } from './catalogueFiles';
import { catalogueContracts } from '../../catalog/contract';
import type { CatalogueSet } from '../../catalog/catalogues';
import type { TestEnvironments } from './testing/runProfiles';
import type { FileEnvironment } from '../../settings/environmentFileSources';
import { registerTestingView, type TestingHooks } from './testing/register';
import { editorFetch } from '../../settings/networkSettings';

export interface RequestFilesDeps {
  /** The active environment's parts: asked for at each use, never kept (see RequestFileParts). */
  active: () => RequestFileParts;
  /** The environment files' variables for the request file with this key (its URI), and when they change. */
  fileEnvironments?: { forKey(key: string): FileEnvironment; onDidChange: vscode.Event<void> };
  /** The one provider of response tabs (src/views). */
  tabs: ResponseDocuments;
  /** The environments: the Testing view has a Run profile for each. */
  environments?: TestEnvironments;
  /** The active environment's catalogues (completion, hover, body checks, `?? schema`, Add to Request File, Generate). */
  catalogues?: CatalogueSet;
}

/** What request files register into and run from: the extension's subscriptions and folder (never its secrets). */
export interface RequestFilesHost {
  subscriptions: vscode.Disposable[];
  extensionPath: string;
  /** The extension's package.json: the settings it contributes (Run Request File in Terminal hands them to the runner). */
  packageJSON: unknown;
  /** Where Copy as Code remembers the last language picked. */
  globalState: vscode.Memento;
}

/**
 * Request files (.http/.rest): their language features, their tests in the Testing view, and the
 * handlers of their commands (send, Send All, cURL, open a Send All row's response, Save to Request
 * File) for the registrar.
 */
export function registerRequestFiles(host: RequestFilesHost, deps: RequestFilesDeps): { handlers: CommandHandlers; testing?: TestingHooks } {
  const { active } = deps;
  const { api, tenants } = followActive(active);
  const environment = () => active().variables();
  let loading: Promise<void> | undefined;
  // List the tenants once a request file is open, so completion and diagnostics never wait for them.
  const loadTenants = (then: () => void) => {
    loading ??= tenants.list().then(then, () => undefined).finally(() => (loading = undefined));
  };

  const runner = new RequestFileRunner({
    sender: {
      api,
      tenants,
      baseUrl: () => active().settings().baseUrl,
      fetch: editorFetch,
      timeoutMs: () => requestTimeoutMs(active().settings()),
    },
    environment,
    fileEnvironment: deps.fileEnvironments && ((key: string) => deps.fileEnvironments!.forKey(key)),
    system: (lookup, dotenv) => defaultSystemContext(lookup, dotenv),
    ...(deps.catalogues ? { contracts: catalogueContracts(deps.catalogues) } : {}),
  });
  const parsed = new ParsedDocuments();
  const failures = new AssertionFailures();
  const features = registerLanguageFeatures({
    api,
    runner,
    parsed,
    environment,
    knownTenants: () => tenants.known(),
    saveRoute: (rule) => active().saveRoute(rule),
    modules: () => active().modules(),
    catalogues: deps.catalogues,
  });
  host.subscriptions.push(
    ...features.disposables,
    failures,
    vscode.workspace.onDidOpenTextDocument((document) => {
      if (isRequestDocument(document) && tenants.known() === undefined) loadTenants(features.refresh);
      // A request file open: its catalogues are needed (routes, completion, body checks).
      if (isRequestDocument(document)) void deps.catalogues?.ready();
    }),
    // Responses stay for the session (as in REST Client): a closed file, or one whose language another
    // extension changes (close + open), still chains. Deleted files drop theirs.
    vscode.workspace.onDidDeleteFiles((event) => event.files.forEach((uri) => runner.forget(uri.toString()))),
  );
  if (vscode.workspace.textDocuments.some(isRequestDocument)) {
    loadTenants(features.refresh);
    void deps.catalogues?.ready();
  }
  if (deps.fileEnvironments) host.subscriptions.push(deps.fileEnvironments.onDidChange(() => features.refresh()));
  const cost = { quota: { reading: (organization: string) => api.quota.reading(organization) }, routeFor: (path: string) => api.routeFor(path), licenceOrganization: (module: string, tenant?: string) => active().licenceOrganization(module, tenant) };
  const testing = deps.environments && registerTestingView(host.subscriptions, { runner, parsed, tenants, cost, environments: deps.environments });
  const handlers = {
    ...features.handlers,
    ...requestFileCommands({
      api,
      tenants,
      runner,
      parsed,
      tabs: deps.tabs,
      history: { add: (entry) => active().history.add(entry) },
      baseUrl: () => active().settings().baseUrl,
      failures,
      cost,
    }),
    ...saveToFileCommands({ history: () => active().history.entries(), knownTenants: () => tenants.known() }),
    ...runInTerminalCommands({
      extensionPath: host.extensionPath,
      packageJSON: host.packageJSON,
      environmentName: () => active().environmentName(),
      activeTenantId: () => active().activeTenantId(),
    }),
    ...catalogueFileCommands(deps.catalogues),
    ...importCommands(),
    ...copyAsCodeFileCommands({ api, tenants, runner, parsed, baseUrl: () => active().settings().baseUrl, state: host.globalState }),
  };
  return { handlers, testing };
}
