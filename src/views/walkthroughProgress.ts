import * as vscode from 'vscode';
import { BUILT_IN_ROUTES } from '../api/routes';
import type { SessionState } from '../auth/types';
import type { Event } from '../common/event';
import type { Logger } from '../common/logger';
import { onSettingsChange, readAddressesSet } from '../settings/editorSettings';
import { RESPONSE_SCHEME } from './responseDocuments';
import { EDITOR_COMMAND } from '../common/commandIds';

/*
 * Checks the getting-started walkthrough's steps when the user has done what they ask.
 *
 * package.json completes them on context keys (`onContext:`) set here: `onCommand:` checked a step as
 * soon as its command started, even when the user then cancelled it, and never when the command ran
 * from inside the extension; `onSettingChanged:` never saw settings preset before start-up.
 *
 * VS Code 1.100 registers an extension's walkthrough a few seconds after start-up, and a completion
 * event whose context key is already true then never checks its step (the event is recorded as seen
 * without progressing the step, so it does not fire again). So the extension also marks each step
 * done itself, with the Welcome page's own command, once the thing is done.
 */
export const CONFIGURED_CONTEXT = 'tenantApi.configured';
export const HAS_LICENCE_KEY_CONTEXT = 'tenantApi.hasLicenceKey';
export const RESPONSE_SHOWN_CONTEXT = 'tenantApi.responseShown';

type Step = 'configure' | 'signIn' | 'licenceKeys' | 'sendRequest';
const STEP_CONTEXT: Partial<Record<Step, string>> = {
  configure: CONFIGURED_CONTEXT,
  licenceKeys: HAS_LICENCE_KEY_CONTEXT,
  sendRequest: RESPONSE_SHOWN_CONTEXT,
};

export interface WalkthroughProgressDeps {
  /** `publisher.name`: the walkthrough's steps are `<extensionId>#gettingStarted#<step>`. */
  extensionId: string;
  auth: SessionState;
  licenceKeys: { onDidChange: Event<{ module: string }>; get(module: string): Promise<unknown> };
  logger: Logger;
}

/** The licence modules of the built-in routes (a key of a module from tenantApi.routes counts when it is set). */
const builtInModules = [...new Set(BUILT_IN_ROUTES.flatMap((route) => (route.module ? [route.module] : [])))];
const RETRY_MS = 2000;
const RETRIES = 20;

export function trackWalkthroughProgress(deps: WalkthroughProgressDeps): vscode.Disposable {
  const marking = new Set<Step>();
  let disposed = false;

  // Each time the thing is done (a step the user unchecked is checked again); a no-op for a checked step.
  const markDone = async (step: Step) => {
    if (marking.has(step)) return;
    marking.add(step);
    try {
      const context = STEP_CONTEXT[step];
      if (context) await vscode.commands.executeCommand(EDITOR_COMMAND.setContext, context, true);
      const stepId = `${deps.extensionId}#gettingStarted#${step}`;
      // Until the walkthrough is registered the command throws (the step is unknown): try again.
      for (let attempt = 0; attempt < RETRIES && !disposed; attempt++) {
        try {
          await vscode.commands.executeCommand(EDITOR_COMMAND.markWalkthroughStepComplete, stepId);
          return;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        }
      }
      deps.logger.debug(`Could not mark the walkthrough step ${step} done.`);
    } finally {
      marking.delete(step);
    }
  };

  const syncConfigured = () => {
    if (readAddressesSet()) void markDone('configure');
  };
  const syncSignedIn = async () => {
    if ((await deps.auth.getAccounts().catch(() => [])).length > 0) void markDone('signIn');
  };
  const syncLicenceKeys = async (modules: readonly string[]) => {
    for (const module of modules) {
      if (await deps.licenceKeys.get(module).catch(() => undefined)) return void markDone('licenceKeys');
    }
  };
  const showsResponse = (document: vscode.TextDocument) => document.uri.scheme === RESPONSE_SCHEME;

  syncConfigured();
  void syncSignedIn();
  void syncLicenceKeys(builtInModules);
  if (vscode.workspace.textDocuments.some(showsResponse)) void markDone('sendRequest');
  return vscode.Disposable.from(
    { dispose: () => (disposed = true) },
    onSettingsChange((affects) => {
      if (affects('authUrl') || affects('baseUrl') || affects('environments')) syncConfigured();
    }),
    deps.auth.onDidChangeSessions(() => void syncSignedIn()),
    // Only a key set counts: clearing one later does not undo a step the user has done.
    deps.licenceKeys.onDidChange(({ module }) => void syncLicenceKeys([module])),
    vscode.workspace.onDidOpenTextDocument((document) => {
      if (showsResponse(document)) void markDone('sendRequest');
    }),
    // A request sent again reuses its response tab, whose document may still be open: shown counts too.
    vscode.window.onDidChangeVisibleTextEditors((editors) => {
      if (editors.some((editor) => showsResponse(editor.document))) void markDone('sendRequest');
    }),
  );
}
