import * as vscode from 'vscode';
import { BUILT_IN_ROUTES } from '../api/routes';
import type { Event } from '../common/event';
import type { Logger } from '../common/logger';
import { RESPONSE_SCHEME } from './responseDocuments';

/*
 * Context keys the walkthrough's steps complete on (package.json `completionEvents: onContext:...`).
 * `onCommand:` would check a step as soon as its command starts, even when the user then cancels
 * it, and never when the command runs from inside the extension; these say that the thing was done.
 */
export const HAS_LICENCE_KEY_CONTEXT = 'tenantApi.hasLicenceKey';
export const RESPONSE_SHOWN_CONTEXT = 'tenantApi.responseShown';

export interface WalkthroughProgressDeps {
  licenceKeys: { onDidChange: Event<{ module: string }>; get(module: string): Promise<unknown> };
  logger: Logger;
}

/** The licence modules of the built-in routes (a key set for a module of tenantApi.routes counts when set). */
const builtInModules = [...new Set(BUILT_IN_ROUTES.flatMap((route) => (route.module ? [route.module] : [])))];

export function trackWalkthroughProgress(deps: WalkthroughProgressDeps): vscode.Disposable {
  const setContext = (key: string, value: boolean) => void vscode.commands.executeCommand('setContext', key, value);
  const anyKeyAmong = async (modules: readonly string[]) => {
    for (const module of modules) {
      try {
        if (await deps.licenceKeys.get(module)) return true;
      } catch (error) {
        deps.logger.warn(`Could not read the licence key of ${module}: ${String(error)}`);
      }
    }
    return false;
  };
  void anyKeyAmong(builtInModules).then((found) => found && setContext(HAS_LICENCE_KEY_CONTEXT, true));
  const showsResponse = (document: vscode.TextDocument) => document.uri.scheme === RESPONSE_SCHEME;
  if (vscode.workspace.textDocuments.some(showsResponse)) setContext(RESPONSE_SHOWN_CONTEXT, true);
  return vscode.Disposable.from(
    // Only a key set turns it on: clearing one later does not undo a step the user has done.
    deps.licenceKeys.onDidChange(({ module }) => void anyKeyAmong([module]).then((found) => found && setContext(HAS_LICENCE_KEY_CONTEXT, true))),
    vscode.workspace.onDidOpenTextDocument((document) => {
      if (showsResponse(document)) setContext(RESPONSE_SHOWN_CONTEXT, true);
    }),
  );
}
