import * as vscode from 'vscode';
import { createTenantApi } from './api';
import { registerAuthentication } from './auth/register';
import { registerAuthCommands } from './commands/authCommands';
import { registerWorkbenchCommands } from './commands';
import { registerLicenceKeyCommands } from './commands/licenceKeyCommands';
import { workbenchTestApi } from './commands/workbenchTestApi';
import { useTranslator } from './common/l10n';
import { redactingLogger } from './common/redact';
import { windowCoordination } from './coordination';
import { readAuthConfiguration } from './auth/vscode/authConfiguration';
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
  const api = createTenantApi({
    secrets: context.secrets,
    tokens: auth,
    settings: watchApiSettings(context),
    logger: auth.logger,
    sharedLedger: windows.sharedLedger(application),
  });
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

  // For the in-editor tests and other extensions: read-only views of the state, and activation's cost.
  return { auth, licenceKeys: api.licenceKeys, workbench: workbenchTestApi(views, commands), activationMs: performance.now() - started };
}

export function deactivate(): void {}
