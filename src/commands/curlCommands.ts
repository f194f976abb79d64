import * as vscode from 'vscode';
import { clientHeaders } from '../api/requestHeaders';
import type { TenantApi } from '../api/types';
import { handle, type WorkbenchCommandContext } from './commandContext';
import { buildCurlCommand, keyVariableOf, TOKEN_VARIABLE, usesMaskedVariables } from '../engine/curlCommand';
import { pickHistoryEntry } from './historyPicker';
import type { HistoryEntry } from './requestHistory';
import type { LastRequest } from './requestRunner';
import { responseTabRequest, runFileCommand } from './responseTabRequest';
import { COMMAND, type CommandHandlers } from '../common/commandIds';

/** tenantApi.copyAsCurl: the last request (or one from history) as a cURL command, secrets masked unless asked for. */
export function curlCommands(deps: WorkbenchCommandContext): CommandHandlers {
  const handlers: CommandHandlers = {};
  const { runner, history } = deps;

  handle(handlers, COMMAND.copyAsCurl, async (args?: unknown): Promise<string | undefined> => {
    // From a response tab's title bar: that tab's request; else the one asked for, the last one, or one from the history.
    const tab = await responseTabRequest(args, deps.views.responses, history.entries());
    if (tab && 'file' in tab) return (await runFileCommand(COMMAND.requestFileCopyAsCurl, tab.file, tab.index)) as string | undefined;
    const options = (tab ? {} : (args ?? {})) as { includeSecrets?: boolean; index?: number };
    const source = tab
      ? fromHistory(tab.entry, deps.api)
      : typeof options.index === 'number'
        ? fromHistory(history.entries()[options.index], deps.api)
        : (runner.lastRequest() ?? fromHistory(await pickHistoryEntry(history), deps.api));
    if (!source) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Send a request first: there is nothing to copy yet.'));
      return undefined;
    }
    const module = deps.api.routeFor(source.path)?.module;
    const keyVariable = keyVariableOf(module);
    let include = options.includeSecrets;
    if (include === undefined) {
      const masked = {
        label: vscode.l10n.t('Masked'),
        description: vscode.l10n.t('uses ${0} and ${1}', TOKEN_VARIABLE, keyVariable),
        include: false,
      };
      const withSecrets = {
        label: vscode.l10n.t('Include the token and the licence key'),
        description: vscode.l10n.t('anyone who sees the command can call the API as you'),
        include: true,
      };
      const chosen = await vscode.window.showQuickPick([masked, withSecrets], {
        title: vscode.l10n.t('Copy as cURL'),
        placeHolder: `${source.method} ${source.url}`,
      });
      if (!chosen) return undefined;
      include = chosen.include;
    }
    let token: string | undefined;
    let licenceKey: string | undefined;
    if (include) {
      try {
        token = await deps.auth.getAccessToken();
        licenceKey = module && deps.readLicenceKey ? await deps.readLicenceKey(module) : undefined;
      } catch (error) {
        void vscode.window.showErrorMessage(
          vscode.l10n.t('Could not read the token: {0}', error instanceof Error ? error.message : String(error)),
        );
        return undefined;
      }
    }
    const command = buildCurlCommand({ method: source.method, url: source.url, headers: source.requestHeaders, body: source.bodyText }, { token, licenceKey, keyVariable });
    await vscode.env.clipboard.writeText(command);
    void vscode.window.showInformationMessage(
      usesMaskedVariables(command)
        ? vscode.l10n.t('cURL command copied. Set {0} and {1} in your shell before running it.', TOKEN_VARIABLE, keyVariable)
        : vscode.l10n.t('cURL command copied, with your token and licence key: do not share it.'),
    );
    return options.includeSecrets === undefined ? undefined : command;
  });
  return handlers;
}

/** A history entry as a cURL source; the headers the client adds come from the header policy. */
function fromHistory(entry: HistoryEntry | undefined, api: TenantApi): LastRequest | undefined {
  if (!entry?.url) return undefined;
  const headers = { ...clientHeaders(api.routeFor(entry.path), { token: '', tenantId: entry.tenantId }), ...entry.headers };
  return { method: entry.method, path: entry.path, url: entry.url, requestHeaders: headers, bodyText: entry.body, tenantId: entry.tenantId };
}
