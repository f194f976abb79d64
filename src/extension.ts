import * as vscode from 'vscode';
import { createApplicationScheduler, createTenantApi, QuotaTracker } from './api';
import type { ApplicationScheduler, SharedLedgerFactory } from './api';
import { recordingOrganizations, TenantDirectory } from './api/tenantDirectory';
import { tenantResolver } from './api/tenantResolver';
import { registerAuthentication } from './auth/vscode/register';
import { authCommands } from './commands/authCommands';
import { environmentCommands } from './commands/environmentCommands';
import { workbenchCommands } from './commands';
import { licenceKeyCommands } from './commands/licenceKeyCommands';
import { registerCommands } from './commands/registrar';
import { protectedCallPrompt } from './commands/protectedCallPrompt';
import { registerRequestFiles } from './requestFiles/vscode/register';
import { wholeResponses } from './views/wholeResponses';
import { workbenchTestApi } from './commands/workbenchTestApi';
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
import { EnvironmentScopes } from './settings/environmentContext';
import { knownModules, migrateLegacySecrets } from './settings/environmentSecrets';
import { readEnvironmentList, watchEnvironments } from './settings/environmentSettings';
import { saveRouteRule } from './settings/routeSettings';
import { applicationKey, applicationOf, sameApplication, type Environment } from './settings/environments';
import { registerViews, TENANTS_VIEW_ID, type ViewsDeps } from './views';
import { ResponseDocuments } from './views/responseDocuments';
import { SwitchableTreeView } from './views/switchableTreeView';
import type { TreeNode } from './views/tenantTreeModel';
import { EnvironmentStatusBar } from './views/environmentStatusBar';
import { WatchStatusBar } from './views/watchStatusBar';
import { Watches } from './commands/watches';
import { watchCommands } from './commands/watchCommands';

/** The composition root: builds each part and hands it what it needs. No logic lives here. */
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
  const globalSettings = watchApiSettings(context);
  // Several windows, one client (issue 12): one refresh and one rate-limit ledger per application for all windows.
  const windows = windowCoordination(logger);
  // One quota tracker per application: its organizations' readings, from this window and the others.
  const quotas = new KeyedPool(() => new QuotaTracker());
  const sharedLedger = applicationLedgers(windows, readLedgerUrl());
  const schedulers = new KeyedPool((key) => createApplicationScheduler(globalSettings, logger, { ledger: sharedLedger(key), quota: quotas.get(key) }));
  context.subscriptions.push(schedulers, quotas);

  const views = {
    tenantsView: new SwitchableTreeView<TreeNode>(TENANTS_VIEW_ID, { showCollapseAll: true }),
    // Response tabs name the environment when it is not the default.
    responses: new ResponseDocuments(() => (environments.active().isDefault ? undefined : environments.active().name)),
  };
  context.subscriptions.push(views.tenantsView, views.responses);
  const { watches, watchStatusBar } = startWatches(context, environments, views.responses, logger, () => scopes.current());
  const shared: SharedParts = { log, schedulers, quotas, views, windows, watches };

  const build = (scoped: vscode.ExtensionContext, environment: () => Environment) => buildEnvironment(scoped, environment, shared);
  const scopes = new EnvironmentScopes(context, environments, build, logger, (previous, next) => !sameApplication(previous, next));
  const statusBar = new EnvironmentStatusBar(environments);
  context.subscriptions.push(scopes, statusBar);
  // Request files follow the active environment at each use (its client, tenants, settings, variables),
  // so their editors, CodeLens and response tabs stay open across a switch.
  const active = () => scopes.current();
  const requestFiles = registerRequestFiles(context, {
    api: delegateTo(() => active().apiClient),
    settings: () => active().apiSettings(),
    tenants: delegateTo(() => active().resolver),
    history: () => active().commands.history,
    tabs: views.responses,
    environment: () => environments.active().settings.variables,
    saveRoute: (rule) => saveRouteRule(environments.active(), rule),
    modules: () => active().client.modules(),
    licenceOrganization: async (module) => (await active().licenceKeys.get(module))?.organization,
    environmentName: () => (environments.active().isDefault ? 'default' : environments.active().name),
    activeTenantId: () => active().views.activeTenant.get()?.id,
    environments,
  });
  // Every command, from one place: the active environment's run in its parts at each use.
  const watchHandlers = watchCommands({ watches, responses: views.responses, history: () => active().commands.history.entries() });
  registerCommands(context, { ...environmentCommands(environments), ...requestFiles.handlers, ...wholeResponses.commands(), ...watchHandlers }, () => active().handlers);

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

/** Each application's ledger: with tenantApi.ledger.url (issue 24) in Redis, shared with other machines too; else this machine's windows'. */
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
  active: () => Pick<ReturnType<typeof buildEnvironment>, 'apiClient' | 'resolver'>,
) {
  const watches = new Watches({
    api: () => active().apiClient,
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
  views: NonNullable<ViewsDeps['shared']>;
  windows: WindowCoordination;
  watches: Watches;
}

/** The active environment's parts (sign-in, client, tenants, commands, views), in its own extension context. */
function buildEnvironment(scoped: vscode.ExtensionContext, environment: () => Environment, { log, schedulers, quotas, views: shared, windows, watches }: SharedParts) {
  const settings = () => environment().settings;
  const named = () => (environment().isDefault ? {} : { name: environment().name });
  const auth = registerAuthentication(scoped, {
    log,
    refreshLock: windows.refreshLock,
    peers: windows.sessionPeers(settings, environment().id),
    environment: () => ({ ...settings(), ...named() }),
  });
  const apiSettings = watchApiSettings(scoped, settings);
  const api = createTenantApi({
    secrets: scoped.secrets,
    tokens: auth,
    settings: apiSettings,
    logger: auth.logger,
    scheduler: schedulers.get(applicationKey(settings())).scheduler,
    quota: quotas.get(applicationKey(settings())),
    beforeSend: protectedCallPrompt(environment),
    cacheScope: () => environment().id,
  });
  // Static answers are the signed-in user's: another account, or none, starts with an empty cache (a switch builds a new client).
  // A sign-out stops this environment's watches; signed in (at start, again, or switched back), its paused ones go on and its pinned ones start.
  let signedInAs = auth.activeAccount()?.id;
  scoped.subscriptions.push(
    auth.onDidChangeSessions(() => {
      const now = auth.activeAccount()?.id;
      if (now !== signedInAs) api.client.clearCache();
      if (signedInAs !== undefined && now === undefined) watches.stopEnvironment(environment().name, 'signedOut');
      if (signedInAs === undefined && now !== undefined) watches.resumeEnvironment();
      signedInAs = now;
    }),
  );
  void auth.getAccounts().then((accounts) => accounts.length > 0 && watches.resumeEnvironment(), () => undefined);
  const tenants = new TenantDirectory({ listTenants: () => api.client.listTenants(), sessions: auth, logger: auth.logger });
  // What the views and commands call through: every answer for a tenant tells the directory its organization.
  const client = recordingOrganizations(api.client, tenants);
  scoped.subscriptions.push(api, tenants);

  const views = registerViews(scoped, { auth, api: client, tenants, logger: auth.logger, licenceKeys: api.licenceKeys, shared });
  const resolver = tenantResolver(tenants, views.activeTenant);
  const keyCommands = licenceKeyCommands({
    licenceKeys: api.licenceKeys,
    modules: () => api.client.modules(),
    prefixesOf: (module) => api.client.routeTable().prefixesOf(module),
    quota: api.client.quota,
    holders: {
      keys: () => api.licenceKeys.list(api.client.modules()),
      tenants: () => tenants.tenants(),
      signedIn: () => auth.activeAccount() !== undefined,
      organizationOf: (tenantId) => tenants.organizationOf(tenantId),
      activeTenantId: () => views.activeTenant.get()?.id,
    },
  });
  const commands = workbenchCommands(scoped, {
    auth,
    api: client,
    tenants,
    resolver,
    views,
    readLicenceKey: async (module) => (await api.licenceKeys.get(module))?.key,
    baseUrl: () => settings().baseUrl,
    modules: () => api.client.modules(),
    saveRoute: (rule) => saveRouteRule(environment(), rule),
    logger: auth.logger,
  });
  const workbench = workbenchTestApi(views, commands);
  const handlers = { ...authCommands(auth, log), ...keyCommands, ...commands.handlers };
  return { auth, licenceKeys: api.licenceKeys, client: api.client, apiClient: client, apiSettings, tenants, resolver, views, commands, handlers, workbench };
}

export function deactivate(): void {}
