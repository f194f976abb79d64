import * as vscode from 'vscode';
import { createTenantApi } from './api';
import { recordingOrganizations, TenantDirectory } from './api/tenantDirectory';
import { registerAuthentication } from './auth/vscode/register';
import { registerAuthCommands } from './commands/authCommands';
import { registerWorkbenchCommands } from './commands';
import { registerLicenceKeyCommands } from './commands/licenceKeyCommands';
import { registerRequestFiles } from './requestFiles/vscode/register';
import { workbenchTestApi } from './commands/workbenchTestApi';
import { activationExports } from './common/activationExports';
import { useTranslator } from './common/l10n';
import { redactingLogger } from './common/redact';
import { windowCoordination } from './coordination';
import { readAuthConfiguration } from './settings/authSettings';
import { watchApiSettings } from './settings/apiSettings';
import { registerViews } from './views';

/** The composition root: builds each part and hands it what it needs. No logic lives here. */
export function activate(context: vscode.ExtensionContext) {
  const started = performance.now();
  useTranslator((message, ...args) => vscode.l10n.t(message, ...args));

  const log = vscode.window.createOutputChannel('Tenant API', { log: true });
  context.subscriptions.push(log);

  // Several windows, one client (issue 12): one refresh and one rate-limit ledger for all windows.
  const windows = windowCoordination(redactingLogger(log));
  const application = () => ({ authUrl: readAuthConfiguration().authUrl, clientId: readAuthConfiguration().clientId });

  const auth = registerAuthentication(context, { log, refreshLock: windows.refreshLock });
  const apiSettings = watchApiSettings(context);
  const api = createTenantApi({
    secrets: context.secrets,
    tokens: auth,
    settings: apiSettings,
    logger: auth.logger,
    sharedLedger: windows.sharedLedger(application),
  });
  const tenants = new TenantDirectory({ listTenants: () => api.client.listTenants(), sessions: auth, logger: auth.logger });
  // What the views and commands call through: every answer for a tenant tells the directory its organization.
  const client = recordingOrganizations(api.client, tenants);
  context.subscriptions.push(api, tenants);

  registerAuthCommands(context, auth, log);
  registerLicenceKeyCommands(context, {
    licenceKeys: api.licenceKeys,
    modules: () => api.client.modules(),
    prefixesOf: (module) => api.client.routeTable().prefixesOf(module),
    quota: api.client.quota,
  });
  const views = registerViews(context, { auth, api: client, tenants, logger: auth.logger, licenceKeys: api.licenceKeys });
  const commands = registerWorkbenchCommands(context, {
    auth,
    api: client,
    tenants,
    views,
    readLicenceKey: async (module) => (await api.licenceKeys.get(module))?.key,
    logger: auth.logger,
  });

  registerRequestFiles(context, { api: client, settings: apiSettings, tenants: { list: () => tenants.tenants(), active: () => views.activeTenant.get() }, history: () => commands.history.entries() });

  // For the in-editor tests only (development and test runs): nothing secret is exported in production.
  const testHooksAllowed = context.extensionMode !== vscode.ExtensionMode.Production;
  return activationExports(testHooksAllowed, () => ({
    auth,
    licenceKeys: api.licenceKeys,
    workbench: workbenchTestApi(views, commands),
    activationMs: performance.now() - started,
  }));
}

export function deactivate(): void {}
