import * as vscode from 'vscode';
import { createTenantApi } from './api';
import { registerAuthentication } from './auth/register';
import { registerAuthCommands } from './commands/authCommands';
import { registerWorkbenchCommands } from './commands';
import { registerLicenceKeyCommands } from './commands/licenceKeyCommands';
import { registerRequestFiles } from './requestFiles/vscode/register';
import { workbenchTestApi } from './commands/workbenchTestApi';
import { useTranslator } from './common/l10n';
import { watchApiSettings } from './settings/apiSettings';
import { registerViews } from './views';

/** The composition root: builds each part and hands it what it needs. No logic lives here. */
export function activate(context: vscode.ExtensionContext) {
  const started = performance.now();
  useTranslator((message, ...args) => vscode.l10n.t(message, ...args));

  const log = vscode.window.createOutputChannel('Tenant API', { log: true });
  context.subscriptions.push(log);

  const auth = registerAuthentication(context, { log });
  const api = createTenantApi({ secrets: context.secrets, tokens: auth, settings: watchApiSettings(context), logger: auth.logger });
  context.subscriptions.push(api);

  registerAuthCommands(context, auth, log);
  registerLicenceKeyCommands(context, {
    licenceKeys: api.licenceKeys,
    modules: () => api.client.modules(),
    prefixesOf: (module) => api.client.routeTable().prefixesOf(module),
    quota: api.client.quota,
  });
  const views = registerViews(context, { auth, api: api.client, logger: auth.logger, licenceKeys: api.licenceKeys });
  const commands = registerWorkbenchCommands(context, {
    auth,
    api: api.client,
    views,
    readLicenceKey: async (module) => (await api.licenceKeys.get(module))?.key,
    logger: auth.logger,
  });

  registerRequestFiles(context, { api: api.client, tenants: { list: () => views.tree.tenants(), active: () => views.activeTenant.get() }, history: () => commands.history.entries() });

  // For the in-editor tests and other extensions: read-only views of the state, and activation's cost.
  return { auth, licenceKeys: api.licenceKeys, workbench: workbenchTestApi(views, commands), activationMs: performance.now() - started };
}

export function deactivate(): void {}
