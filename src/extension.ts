import * as vscode from 'vscode';
import { createApplicationScheduler, createTenantApi, QuotaTracker } from './api';
import type { ApiClient, ApplicationScheduler, LicenceKeyStore, SharedLedgerFactory } from './api';
import { TenantDirectory } from './api/tenantDirectory';
import { tenantResolver, type TenantResolver } from './api/tenantResolver';
import { registerAuthentication, type Authentication } from './auth/vscode/register';
import { authCommands } from './commands/authCommands';
import { environmentCommands } from './commands/environmentCommands';
import { workbenchCommands, type WorkbenchCommands } from './commands';
import { licenceKeyCommands } from './commands/licenceKeyCommands';
import { registerCommands } from './commands/registrar';
import { protectedCallPrompt } from './commands/protectedCallPrompt';
import { registerRequestFiles } from './requestFiles/vscode/register';
import type { RequestFileParts } from './requestFiles/vscode/activeParts';
import { wholeResponses } from './views/wholeResponses';
import { workbenchTestApi, type WorkbenchTestApi } from './commands/workbenchTestApi';
import { followSignIn } from './commands/signInEffects';
import type { CommandHandlers } from './common/commandIds';
import { activationExports } from './common/activationExports';
import { delegateTo } from './common/delegate';
import { KeyedPool } from './common/keyedPool';
import { useTranslator } from './common/l10n';
import { redactingLogger } from './common/redact';
import { windowCoordination, type WindowCoordination } from './coordination';
import { redisLedgerFactory } from './coordination/redis/editorLedger';
import { watchApiSettings } from './settings/apiSettings';
import { readLedgerUrl } from './settings/ledgerSettings';
import { EnvironmentState } from './settings/activeEnvironment';
import { EnvironmentScopes, type EnvironmentScope } from './settings/environmentScope';
import { knownModules, migrateLegacySecrets } from './settings/environmentSecrets';
import { readEnvironmentList, watchEnvironments } from './settings/environmentSettings';
import { watchEnvironmentFiles } from './settings/environmentFileWatcher';
import { editorFetch } from './settings/networkSettings';
import { saveRouteRule } from './settings/routeSettings';
import { watchCatalogues } from './settings/catalogueSettings';
import type { CatalogueSet } from './catalog/catalogues';
import type { RouteRule } from './api/types';
import { applicationKey, applicationOf, sameApplication } from './settings/environments';
import { registerViews, TENANTS_VIEW_ID, type ViewsDeps } from './views';
import { ResponseDocuments } from './views/responseDocuments';
import { SwitchableTreeView } from './views/switchableTreeView';
import type { TreeNode } from './views/tenantTreeModel';
import { EnvironmentStatusBar } from './views/environmentStatusBar';
import { WatchStatusBar } from './views/watchStatusBar';
import { TablePanels } from './views/table/tablePanels';
import { applicationUsage, type ApplicationUsage } from './views/usage/applicationUsage';
import { UsagePanel } from './views/usage/usagePanel';
import { Watches } from './commands/watches';
import { watchCommands } from './commands/watchCommands';

/**
 * The composition root: builds each part and hands it what it needs. It alone holds the extension's
 * context (its secret storage is every environment's): each environment's parts get an EnvironmentScope.
 */
export async function activate(context: vscode.ExtensionContext) {
  const started = performance.now();
  useTranslator((message, ...args) => vscode.l10n.t(message, ...args));

  const log = vscode.window.createOutputChannel('Tenant API', { log: true });
  context.subscriptions.push(log);
  const logger = redactingLogger(log);

  // Before any store reads them: the secrets of the layout before environments move into the default one.
  await migrateLegacySecrets(context.secrets, knownModules(readEnvironmentList().environments)).catch((error: unknown) =>
    logger.error(`Moving the stored secrets into the default environment failed; the next start tries again: ${String(error)}`),
  );

  const environments = watchEnvironments(context, logger);
  // Read when first needed (the tree, a request file, a schema assertion), never here.
  const catalogues = watchCatalogues(context.subscriptions, environments, logger);
  const environmentFiles = watchEnvironmentFiles(context.subscriptions, logger);
  const globalSettings = watchApiSettings(context.subscriptions);
  // Several windows, one client: one refresh and one rate-limit ledger per application for all windows.
  const windows = windowCoordination(logger);
  // One quota tracker per application: its organizations' readings, from this window and the others.
  const quotas = new KeyedPool(() => new QuotaTracker());
  const sharedLedger = applicationLedgers(windows, readLedgerUrl());
  const schedulers = new KeyedPool((key) => createApplicationScheduler(globalSettings, logger, { ledger: sharedLedger(key), quota: quotas.get(key) }));
  context.subscriptions.push(schedulers, quotas);
  const { usage, usageChanges } = usageRecords(context, quotas, schedulers);

  const views = {
    tenantsView: new SwitchableTreeView<TreeNode>(TENANTS_VIEW_ID, { showCollapseAll: true }),
    // Response tabs name the environment when it is not the default.
    responses: new ResponseDocuments(() => (environments.active().isDefault ? undefined : environments.active().name)),
  };
  context.subscriptions.push(views.tenantsView, views.responses);
  const { watches, watchStatusBar } = startWatches(context, environments, views.responses, logger, () => scopes.current());
  const shared: SharedParts = { log, schedulers, quotas, usage, views, windows, watches, catalogues };

  const storage = { secrets: context.secrets, globalState: context.globalState, extensionId: context.extension.id };
  const scopes = new EnvironmentScopes(storage, environments, (scope) => buildEnvironment(scope, shared), logger, (previous, next) => !sameApplication(previous, next));
  const statusBar = new EnvironmentStatusBar(environments);
  context.subscriptions.push(scopes, statusBar);
  // Parts that outlive a switch (request files, watches, the commands) ask for the active environment's parts at each use.
  const active = () => scopes.current();
  const fileEnvironments = { forKey: (key: string) => environmentFiles.forDocument(key, environments.active()), onDidChange: environmentFiles.onDidChange };
  const requestFiles = registerRequestFiles({ subscriptions: context.subscriptions, extensionPath: context.extensionPath, globalState: context.globalState, packageJSON: context.extension.packageJSON }, { active: () => active().requestFiles, tabs: views.responses, environments, catalogues, fileEnvironments });
  // Every command, from one place: the active environment's run in its parts at each use.
  const watchHandlers = watchCommands({ watches, responses: views.responses, history: () => active().commands.history.entries() });
  const viewCommands = { ...wholeResponses.commands(), ...webviewPanels(context, views.responses, usage, usageChanges, environments, active) };
  registerCommands(context.subscriptions, { ...environmentCommands(environments, environmentFiles), ...requestFiles.handlers, ...viewCommands, ...watchHandlers }, () => active().handlers);

  // For the in-editor tests only (development and test runs): nothing secret is exported in production.
  // They follow a switch of environment (a test may keep the object).
  const testHooksAllowed = context.extensionMode !== vscode.ExtensionMode.Production;
  return activationExports(testHooksAllowed, () => ({
    auth: delegateTo(() => active().auth),
    licenceKeys: delegateTo(() => active().licenceKeys),
    workbench: delegateTo(() => active().workbench),
    environments: {
      active: () => {
        const { id, name, protected: isProtected } = environments.active();
        return { id, name, protected: isProtected };
      },
      statusBar: () => statusBar.current(),
      /** What a reloaded window would make active: the same reading of the settings and globalState as activation's. */
      afterReload: () => new EnvironmentState(context.globalState, readEnvironmentList()).active().name,
      scheduler: () => active().client.scheduler,
    },
    watches: watchTestHooks(watches, watchStatusBar),
    testing: requestFiles.testing,
    activationMs: performance.now() - started,
  }));
}

/** Each application's usage (readings, stops, pauses, calls per minute), kept across reloads for the usage panel. */
function usageRecords(context: vscode.ExtensionContext, quotas: KeyedPool<QuotaTracker>, schedulers: KeyedPool<ApplicationScheduler>) {
  const usageChanges = new vscode.EventEmitter<void>();
  const usage = new KeyedPool((key) => applicationUsage(key, context.globalState, quotas.get(key), schedulers.get(key).scheduler, () => usageChanges.fire()));
  context.subscriptions.push(usage, usageChanges);
  return { usage, usageChanges };
}

/** The table view of the response tabs and the usage panel (the active environment's application's): their commands. */
function webviewPanels(
  context: vscode.ExtensionContext,
  responses: ResponseDocuments,
  usage: KeyedPool<ApplicationUsage>,
  usageChanges: vscode.EventEmitter<void>,
  environments: ReturnType<typeof watchEnvironments>,
  active: () => Pick<EnvironmentParts, 'licenceKeys' | 'client'>,
) {
  const tables = new TablePanels(context.extensionUri, responses);
  const usagePanel = new UsagePanel(context.extensionUri, {
    usage: () => usage.get(applicationKey(environments.active().settings)),
    keyOrganizations: async () => (await active().licenceKeys.list(active().client.modules())).map((key) => key.organization),
    onDidChange: (listener) => vscode.Disposable.from(usageChanges.event(listener), environments.onDidChange(() => listener())),
  });
  context.subscriptions.push(tables, usagePanel);
  return { ...tables.commands(), ...usagePanel.commands() };
}

/** Each application's ledger: with tenantApi.ledger.url in Redis, shared with other machines too; else this machine's windows'. */
function applicationLedgers(windows: WindowCoordination, ledgerUrl: string | undefined): (key: string) => SharedLedgerFactory {
  return (key) => {
    const local = windows.sharedLedger(() => applicationOf(key));
    return ledgerUrl ? redisLedgerFactory(ledgerUrl, () => applicationOf(key), local, (message) => void vscode.window.showWarningMessage(message)) : local;
  };
}

/**
 * Watches outlive a rebuild of the environment's parts: they send through whichever client is active
 * (its throttle); a switch pauses the previous environment's (one removed from the settings stops them).
 */
function startWatches(
  context: vscode.ExtensionContext,
  environments: ReturnType<typeof watchEnvironments>,
  responses: ResponseDocuments,
  logger: ReturnType<typeof redactingLogger>,
  active: () => Pick<EnvironmentParts, 'client' | 'resolver'>,
) {
  const watches = new Watches({
    api: () => active().client,
    tenants: () => active().resolver,
    environmentName: () => environments.active().name,
    responses,
    state: context.workspaceState,
    logger,
  });
  const watchStatusBar = new WatchStatusBar(watches);
  context.subscriptions.push(
    watches,
    watchStatusBar,
    environments.onDidChange(({ switched, previous, active }) => {
      if (!switched) return;
      if (environments.get(previous.id)) watches.pauseEnvironment(previous.name, active.name);
      else watches.stopEnvironment(previous.name, 'environmentRemoved');
    }),
  );
  return { watches, watchStatusBar };
}

/** The in-editor tests' view of the watches, and the scaled minute (as the sandbox's timeScale): the rule itself is unchanged. */
function watchTestHooks(watches: Watches, statusBar: WatchStatusBar) {
  return {
    list: () => watches.list(),
    pinned: () => watches.pinned(),
    statusBar: () => statusBar.current(),
    setTimeScale: (scale: number) => watches.setTimeScale(scale),
    clearPins: () => watches.clearPins(),
  };
}

interface SharedParts {
  log: vscode.LogOutputChannel;
  /** One scheduler and one quota tracker per application (authUrl + clientId): they outlive a switch. */
  schedulers: KeyedPool<ApplicationScheduler>;
  quotas: KeyedPool<QuotaTracker>;
  /** Each application's usage record: the active one's starts recording when its environment is built. */
  usage: KeyedPool<ApplicationUsage>;
  views: NonNullable<ViewsDeps['shared']>;
  windows: WindowCoordination;
  watches: Watches;
  catalogues: CatalogueSet;
}

/** The active environment's parts, built in its scope: asked for at each use (scopes.current()), never kept. */
interface EnvironmentParts {
  auth: Authentication;
  licenceKeys: LicenceKeyStore;
  client: ApiClient;
  resolver: TenantResolver;
  commands: WorkbenchCommands;
  handlers: CommandHandlers;
  workbench: WorkbenchTestApi;
  requestFiles: RequestFileParts;
}

/** The active environment's parts (sign-in, client, tenants, commands, views), in its scope. */
function buildEnvironment(scope: EnvironmentScope, { log, schedulers, quotas, usage, views: shared, windows, watches, catalogues }: SharedParts): EnvironmentParts {
  const { environment } = scope;
  const settings = () => environment().settings;
  usage.get(applicationKey(settings()));
  const named = () => (environment().isDefault ? {} : { name: environment().name });
  const auth = registerAuthentication(scope, {
    log,
    refreshLock: windows.refreshLock,
    peers: windows.sessionPeers(settings, environment().id),
    environment: () => ({ ...settings(), ...named() }),
  });
  const apiSettings = watchApiSettings(scope.subscriptions, settings);
  const api = createTenantApi({
    secrets: scope.secrets,
    tokens: auth,
    settings: apiSettings,
    logger: auth.logger,
    scheduler: schedulers.get(applicationKey(settings())).scheduler,
    quota: quotas.get(applicationKey(settings())),
    beforeSend: protectedCallPrompt(environment),
    cacheScope: () => environment().id,
    fetch: editorFetch,
    catalogueRoutes: () => catalogues.routes(),
  });
  const { client, licenceKeys } = api;
  // A sign-out stops this environment's watches; signed in (at start, again, or switched back), its paused ones go on and its pinned ones start.
  const signIn = followSignIn(auth, { clearCache: () => client.clearCache(), stopWatches: () => watches.stopEnvironment(environment().name, 'signedOut'), resumeWatches: () => watches.resumeEnvironment() });
  const tenants = new TenantDirectory({ listTenants: () => client.listTenants(), sessions: auth, counted: client.onDidCount, logger: auth.logger });
  scope.subscriptions.push(signIn, api, tenants);

  const views = registerViews(scope, { auth, api: client, tenants, logger: auth.logger, licenceKeys, shared, catalogues });
  const resolver = tenantResolver(tenants, views.activeTenant);
  const keyCommands = licenceKeyCommands({
    licenceKeys,
    modules: () => client.modules(),
    prefixesOf: (module) => client.routeTable().prefixesOf(module),
    quota: client.quota,
    holders: {
      keys: () => licenceKeys.list(client.modules()),
      tenants: () => tenants.tenants(),
      signedIn: () => auth.activeAccount() !== undefined,
      organizationOf: (tenantId) => tenants.organizationOf(tenantId),
      activeTenantId: () => views.activeTenant.get()?.id,
    },
  });
  const saveRoute = (rule: RouteRule) => saveRouteRule(environment(), rule);
  const commands = workbenchCommands(scope, {
    auth,
    api: client,
    tenants,
    resolver,
    views,
    readLicenceKey: async (module) => (await licenceKeys.get(module))?.key,
    baseUrl: () => settings().baseUrl,
    modules: () => client.modules(),
    saveRoute,
    logger: auth.logger,
    catalogues,
  });
  const requestFiles: RequestFileParts = {
    api: client,
    tenants: resolver,
    settings: apiSettings,
    variables: () => settings().variables,
    history: commands.history,
    saveRoute,
    modules: () => client.modules(),
    licenceOrganization: async (module, tenant) => {
      const record = tenant === undefined ? undefined : await resolver.find(tenant).catch(() => undefined);
      return (await licenceKeys.forTenant(module, record, client.modules()))?.organization;
    },
    environmentName: () => (environment().isDefault ? 'default' : environment().name),
    activeTenantId: () => views.activeTenant.get()?.id,
  };
  const handlers = { ...authCommands(auth, log), ...keyCommands, ...commands.handlers };
  return { auth, licenceKeys, client, resolver, commands, handlers, workbench: workbenchTestApi(views, commands), requestFiles };
}

export function deactivate(): void {}
