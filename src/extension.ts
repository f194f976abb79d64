import * as vscode from 'vscode';
import { createApplicationScheduler, createTenantApi, QuotaTracker } from './api';
import type { ApplicationScheduler } from './api';
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
import { watchApiSettings } from './settings/apiSettings';
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
  const schedulers = new KeyedPool((key) =>
    createApplicationScheduler(globalSettings, logger, { ledger: windows.sharedLedger(() => applicationOf(key)), quota: quotas.get(key) }),
  );
  context.subscriptions.push(schedulers, quotas);

  const views = {
    tenantsView: new SwitchableTreeView<TreeNode>(TENANTS_VIEW_ID, { showCollapseAll: true }),
    // Response tabs name the environment when it is not the default.
    responses: new ResponseDocuments(() => (environments.active().isDefault ? undefined : environments.active().name)),
  };
  context.subscriptions.push(views.tenantsView, views.responses);
  const shared: SharedParts = { log, schedulers, quotas, views, windows };

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
    environments,
  });
  // Every command, from one place: the active environment's run in its parts at each use.
  registerCommands(context, { ...environmentCommands(environments), ...requestFiles.handlers, ...wholeResponses.commands() }, () => active().handlers);

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
    testing: requestFiles.testing,
    activationMs: performance.now() - started,
  }));
}

interface SharedParts {
  log: vscode.LogOutputChannel;
  /** One scheduler and one quota tracker per application (authUrl + clientId): they outlive a switch. */
  schedulers: KeyedPool<ApplicationScheduler>;
  quotas: KeyedPool<QuotaTracker>;
  views: NonNullable<ViewsDeps['shared']>;
  windows: WindowCoordination;
}

/** The active environment's parts (sign-in, client, tenants, commands, views), in its own extension context. */
function buildEnvironment(scoped: vscode.ExtensionContext, environment: () => Environment, { log, schedulers, quotas, views: shared, windows }: SharedParts) {
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
  });
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
