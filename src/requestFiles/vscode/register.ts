import * as vscode from 'vscode';
import type { ApiSettings } from '../../api';
import type { TenantResolver } from '../../api/tenantResolver';
import type { RouteRule, TenantApi } from '../../api/types';
import type { HistoryEntry } from '../../engine/historyEntry';
import { RequestFileRunner } from '../../engine/runner';
import { defaultSystemContext } from '../../engine/systemVariables';
import type { CommandHandlers } from '../../common/commandIds';
import type { ResponseDocuments } from '../../views/responseDocuments';
import { requestFileCommands } from './commands';
import { isRequestDocument, ParsedDocuments } from './documents';
import { AssertionFailures } from './assertionFailures';
import { registerLanguageFeatures } from './languageFeatures';
import { runInTerminalCommands } from './runInTerminal';
import { saveToFileCommands } from './saveToFile';
import type { TestEnvironments } from './testing/runProfiles';
import { registerTestingView, type TestingHooks } from './testing/register';

export interface RequestFilesDeps {
  api: Pick<TenantApi, 'send' | 'routeFor' | 'endpoints' | 'quota'>;
  /** The one tenant resolver (of the active environment at each use). */
  tenants: TenantResolver;
  /** The active environment's variables (issue "Environments"); none until environments exist. */
  environment?: () => Record<string, string>;
  /** The API settings in force (base URL, time limit of a call). */
  settings: () => ApiSettings;
  /** The request history (Send Request's): request-file sends go into it; Save to Request File reads it. */
  history?: () => { entries(): HistoryEntry[]; add(entry: HistoryEntry): Promise<void> };
  /** The one provider of response tabs (src/views). */
  tabs: ResponseDocuments;
  /** Adds a route rule to the active environment's tenantApi.routes (the quick fix of an unknown path). */
  saveRoute?: (rule: RouteRule) => Promise<void>;
  /** The licence modules the active environment knows. */
  modules?: () => string[];
  /** The organization of the licence key set for a module (what a run's calls count against). */
  licenceOrganization?: (module: string) => Promise<string | undefined>;
  /** The active environment as the runner's --env takes it (Run Request File in Terminal). */
  environmentName?: () => string;
  /** The active tenant's id (Run Request File in Terminal hands it to the runner). */
  activeTenantId?: () => string | undefined;
  /** The environments: the Testing view has a Run profile for each. */
  environments?: TestEnvironments;
}

/**
 * Request files (.http/.rest): their language features, their tests in the Testing view, and the
 * handlers of their commands (send, Send All, cURL, open a Send All row's response, Save to Request
 * File) for the registrar.
 */
export function registerRequestFiles(context: vscode.ExtensionContext, deps: RequestFilesDeps): { handlers: CommandHandlers; testing?: TestingHooks } {
  const environment = deps.environment ?? (() => ({}));
  const { tenants } = deps;
  let loading: Promise<void> | undefined;
  // List the tenants once a request file is open, so completion and diagnostics never wait for them.
  const loadTenants = (then: () => void) => {
    loading ??= tenants.list().then(then, () => undefined).finally(() => (loading = undefined));
  };

  const runner = new RequestFileRunner({
    sender: {
      api: deps.api,
      tenants,
      baseUrl: () => deps.settings().baseUrl,
      fetch: (input, init) => fetch(input, init),
      timeoutMs: () => deps.settings().requestTimeoutSeconds * 1000,
    },
    environment,
    system: (lookup) => defaultSystemContext(lookup),
  });
  const parsed = new ParsedDocuments();
  const failures = new AssertionFailures();
  const features = registerLanguageFeatures({
    api: deps.api,
    runner,
    parsed,
    environment,
    knownTenants: () => tenants.known(),
    saveRoute: deps.saveRoute,
    modules: deps.modules,
  });
  context.subscriptions.push(
    ...features.disposables,
    failures,
    vscode.workspace.onDidOpenTextDocument((document) => {
      if (isRequestDocument(document) && tenants.known() === undefined) loadTenants(features.refresh);
    }),
    // Responses stay for the session (as in REST Client): a closed file, or one whose language another
    // extension changes (close + open), still chains. Deleted files drop theirs.
    vscode.workspace.onDidDeleteFiles((event) => event.files.forEach((uri) => runner.forget(uri.toString()))),
  );
  if (vscode.workspace.textDocuments.some(isRequestDocument)) loadTenants(features.refresh);
  // Read at each use: the active environment's parts (its quota readings) are rebuilt when its settings change.
  const cost = { quota: { reading: (organization: string) => deps.api.quota.reading(organization) }, routeFor: (path: string) => deps.api.routeFor(path), licenceOrganization: deps.licenceOrganization };
  const testing = deps.environments && registerTestingView(context, { runner, parsed, cost, environments: deps.environments });
  const handlers = {
    ...features.handlers,
    ...requestFileCommands({
      api: deps.api,
      tenants,
      runner,
      parsed,
      tabs: deps.tabs,
      history: { add: async (entry) => deps.history?.().add(entry) },
      baseUrl: () => deps.settings().baseUrl,
      failures,
      cost,
    }),
    ...saveToFileCommands({ history: () => deps.history?.().entries() ?? [], knownTenants: () => tenants.known() }),
    ...runInTerminalCommands({
      extensionPath: context.extensionPath,
      packageJSON: context.extension.packageJSON,
      environmentName: deps.environmentName ?? (() => 'default'),
      activeTenantId: deps.activeTenantId ?? (() => undefined),
    }),
  };
  return { handlers, testing };
}
