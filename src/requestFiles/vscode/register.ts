import * as vscode from 'vscode';
import type { ApiSettings } from '../../api';
import type { TenantResolver } from '../../api/tenantResolver';
import type { RouteRule, TenantApi } from '../../api/types';
import type { HistoryEntry } from '../../engine/historyEntry';
import { RequestFileRunner } from '../../engine/runner';
import { defaultSystemContext } from '../../engine/systemVariables';
import { registerRequestFileCommands } from './commands';
import { isRequestDocument, ParsedDocuments } from './documents';
import { registerLanguageFeatures } from './languageFeatures';
import { FileResponseTabs } from './responseTabs';
import { registerSaveToFile } from './saveToFile';

export interface RequestFilesDeps {
  api: Pick<TenantApi, 'send' | 'routeFor' | 'endpoints'>;
  /** The one tenant resolver (of the active environment at each use). */
  tenants: TenantResolver;
  /** The active environment's variables (issue "Environments"); none until environments exist. */
  environment?: () => Record<string, string>;
  /** The API settings in force (base URL, time limit of a call). */
  settings: () => ApiSettings;
  /** The ad-hoc request history, for Save to Request File. */
  history?: () => HistoryEntry[];
  /** Adds a route rule to the active environment's tenantApi.routes (the quick fix of an unknown path). */
  saveRoute?: (rule: RouteRule) => Promise<void>;
  /** The licence modules the active environment knows. */
  modules?: () => string[];
}

/** Request files (.http/.rest): running them (CodeLens, keybinding, Send All, cURL) and their language features. */
export function registerRequestFiles(context: vscode.ExtensionContext, deps: RequestFilesDeps): void {
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
  const tabs = new FileResponseTabs();
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
    tabs,
    ...features.disposables,
    ...registerRequestFileCommands({ api: deps.api, tenants, runner, parsed, tabs, baseUrl: () => deps.settings().baseUrl }),
    vscode.workspace.onDidOpenTextDocument((document) => {
      if (isRequestDocument(document) && tenants.known() === undefined) loadTenants(features.refresh);
    }),
    // Responses stay for the session (as in REST Client): a closed file, or one whose language another
    // extension changes (close + open), still chains. Deleted files drop theirs.
    vscode.workspace.onDidDeleteFiles((event) => event.files.forEach((uri) => runner.forget(uri.toString()))),
    registerSaveToFile({ history: deps.history ?? (() => []), knownTenants: () => tenants.known() }),
  );
  if (vscode.workspace.textDocuments.some(isRequestDocument)) loadTenants(features.refresh);
}
