import * as vscode from 'vscode';
import type { Clock } from '../../common/clock';
import type { Logger } from '../../common/logger';
import { chooseFlows, whyUnavailable, type FlowEnvironment, type FlowKind } from '../flows';
import { SignInCancelledError, SignInDeniedError } from '../oauthErrors';
import type { PendingAttempts } from '../pendingAttempts';
import type { SessionManager } from '../sessionManager';
import type { StoredSession } from '../sessionStore';
import { signInKey, SignInQueue } from '../signInQueue';
import { SignInRunner, signInWithFlows } from '../signInRunner';
import type { DeviceAuthorization, TokenClient } from '../tokenClient';
import type { SignInOptions } from '../types';
import { checkAuthUrl, readAuthConfiguration } from '../../settings/authSettings';
import type { AuthConfiguration } from '../../settings/settingValues';
import { COMMAND } from '../../common/commandIds';

export const CALLBACK_PATH = '/auth-callback';

const flowName = (flow: FlowKind) =>
  ({
    uriHandler: vscode.l10n.t('browser redirect to the editor'),
    loopback: vscode.l10n.t('browser redirect to a local port'),
    deviceCode: vscode.l10n.t('device code'),
  })[flow];

export interface SignInControllerOptions {
  extensionId: string;
  sessions: SessionManager;
  pending: PendingAttempts;
  tokenClient: () => TokenClient;
  clock: Clock;
  logger: Logger;
  /** The active environment's sign-in settings; default the top-level ones. */
  configuration?: () => AuthConfiguration;
}

/** Runs sign-in in the editor: flow choice, progress with cancel, fallbacks, device-code UI. */
export class SignInController {
  private readonly queue = new SignInQueue<StoredSession>();
  private readonly attempts = new Set<AbortController>();

  constructor(private readonly options: SignInControllerOptions) {
    // The browser's own page (code-server's "You can close this page now") cannot say it: the editor does.
    options.pending.onLateCallback(() => void this.reportLateAnswer());
  }

  private async reportLateAnswer(): Promise<void> {
    this.options.logger.info('A sign-in was completed in the browser after the editor had stopped waiting for it.');
    const signIn = vscode.l10n.t('Sign In');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('The sign-in was completed in the browser after the editor had stopped waiting for it (it was cancelled or timed out). You are not signed in by it: sign in again.'),
      signIn,
    );
    if (answer === signIn) void vscode.commands.executeCommand(COMMAND.signIn);
  }

  private configuration(): AuthConfiguration {
    return (this.options.configuration ?? readAuthConfiguration)();
  }

  /** The redirect URI of the uriHandler flow, as this editor makes it reachable (asExternalUri). */
  async uriHandlerRedirectUri(): Promise<string> {
    const local = vscode.Uri.parse(`${vscode.env.uriScheme}://${this.options.extensionId}${CALLBACK_PATH}`);
    const external = await vscode.env.asExternalUri(local);
    return external.toString(true);
  }

  async environment(tokenClient: TokenClient): Promise<FlowEnvironment> {
    let deviceAuthorizationSupported: boolean | undefined;
    try {
      const metadata = await tokenClient.discover();
      deviceAuthorizationSupported = metadata.discovered ? Boolean(metadata.device_authorization_endpoint) : undefined;
    } catch {
      deviceAuthorizationSupported = undefined;
    }
    return {
      uiKind: vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop',
      remoteName: vscode.env.remoteName,
      uriScheme: vscode.env.uriScheme,
      deviceAuthorizationSupported,
    };
  }

  /** Cancels the attempt in progress, as its notification's Cancel button does. */
  cancel(): void {
    for (const attempt of this.attempts) attempt.abort(new SignInCancelledError());
  }

  get attemptInProgress(): boolean {
    return this.attempts.size > 0;
  }

  /**
   * One sign-in at a time: a request with the same options and scopes joins the running one; one with
   * other options replaces it (see SignInQueue).
   *
   * `fromUser` (the Sign In command): the user always gets an answer. When the request would join an
   * attempt that waits for the browser, they are told so, with Start Again and Cancel; when it would
   * join a sign-in that is not waiting for the browser (a question about another flow nobody answered),
   * a new sign-in replaces it.
   */
  signIn(signInOptions: SignInOptions = {}, extraScopes: readonly string[] = [], request: { fromUser?: boolean; restart?: boolean } = {}): Promise<StoredSession> {
    const scopes = [...new Set([...this.configuration().scopes, ...extraScopes])];
    const key = signInKey(signInOptions, scopes);
    let restart = request.restart === true;
    if (request.fromUser && !restart && this.queue.joins(key)) {
      if (this.attemptInProgress) void this.showRunningAttempt(signInOptions, extraScopes);
      else restart = true;
    }
    return this.queue.request(key, (replaced) => this.run(signInOptions, scopes, replaced), { restart });
  }

  /** Says that a sign-in already waits for the browser; Start Again replaces it, Cancel ends it. */
  private async showRunningAttempt(signInOptions: SignInOptions, extraScopes: readonly string[]): Promise<void> {
    this.options.logger.info('Sign In asked again while a sign-in waits for the browser.');
    const startAgain = vscode.l10n.t('Start Again');
    const cancel = vscode.l10n.t('Cancel Sign-In');
    const answer = await vscode.window.showInformationMessage(
      vscode.l10n.t('A sign-in is already waiting for you to finish it in the browser.'),
      startAgain,
      cancel,
    );
    if (!this.attemptInProgress) return; // it ended meanwhile: the answer no longer applies
    if (answer === cancel) this.cancel();
    if (answer === startAgain) {
      // The command's own caller is still waiting on the replaced attempt; this one reports its own outcome.
      this.signIn(signInOptions, extraScopes, { restart: true }).then(
        (session) => void vscode.window.showInformationMessage(vscode.l10n.t('Signed in to Tenant API as {0}.', session.account.label)),
        () => undefined,
      );
    }
  }

  /** Tells the user that the browser's Cancel ended the sign-in, with a way to start again. */
  private async reportDenied(signInOptions: SignInOptions): Promise<void> {
    const signInAgain = vscode.l10n.t('Sign In Again');
    const answer = await vscode.window.showInformationMessage(vscode.l10n.t('Sign-in was cancelled in the browser.'), signInAgain);
    if (answer === signInAgain) void vscode.commands.executeCommand(COMMAND.signIn, signInOptions);
  }

  private async run(signInOptions: SignInOptions, scopes: readonly string[], replaced: AbortSignal): Promise<StoredSession> {
    replaced.addEventListener('abort', () => this.options.logger.info('Sign-in replaced by a newer sign-in with other options.'), { once: true });
    const config = this.configuration();
    const problem = checkAuthUrl(config.authUrl, config.environmentName);
    if (problem) throw new Error(problem);
    const tokenClient = this.options.tokenClient();
    const environment = await this.environment(tokenClient);
    replaced.throwIfAborted();
    const flows = chooseFlows(config.signInFlow, environment);
    if (config.signInFlow !== 'auto') {
      const doubt = whyUnavailable(config.signInFlow, environment);
      if (doubt) this.options.logger.warn(`Sign-in flow ${config.signInFlow} may not work here: ${doubt}.`);
    }
    this.options.logger.info(`Sign-in flows to try: ${flows.join(', ') || 'none'}.`);
    const runner = new SignInRunner({
      tokenClient,
      pending: this.options.pending,
      clock: this.options.clock,
      logger: this.options.logger,
      scopes,
      uiLocales: vscode.env.language,
      timeoutSeconds: config.timeoutSeconds,
      // A string keeps the URL's encoding exactly as built (a Uri would decode and re-encode the query).
      openExternal: (url) => Promise.resolve(vscode.env.openExternal(url as unknown as vscode.Uri)),
      uriHandlerRedirectUri: () => this.uriHandlerRedirectUri(),
      presentDeviceCode: (authorization, signal) => void this.presentDeviceCode(authorization, signal),
    });

    const session = await signInWithFlows(
      flows,
      (flow) => {
        replaced.throwIfAborted();
        return this.withProgress(flow, config.timeoutSeconds, replaced, (signal) => runner.run(flow, signInOptions, signal));
      },
      (failed, error, next) => this.askNextFlow(failed, error, next, config.timeoutSeconds, replaced),
    ).catch((error: unknown) => {
      if (error instanceof SignInDeniedError) void this.reportDenied(signInOptions);
      throw error;
    });
    await this.options.sessions.addSession(session);
    return session;
  }

  /**
   * Asks whether to try the next flow after one failed. An unanswered question must not hold the
   * sign-in (and every later one joining it) forever, nor one that replaces it.
   */
  private async askNextFlow(failed: FlowKind, error: unknown, next: FlowKind, timeoutSeconds: number, replaced: AbortSignal): Promise<boolean> {
    if (replaced.aborted) return false;
    const tryNext = vscode.l10n.t('Try {0}', flowName(next));
    let timer: unknown;
    let stopWaiting!: () => void;
    const unanswered = new Promise<undefined>((resolve) => {
      stopWaiting = () => resolve(undefined);
      timer = this.options.clock.setTimeout(stopWaiting, timeoutSeconds * 1000);
    });
    replaced.addEventListener('abort', stopWaiting, { once: true });
    const answer = await Promise.race([
      Promise.resolve(vscode.window.showWarningMessage(
        vscode.l10n.t('Sign-in with {0} did not complete: {1}', flowName(failed), error instanceof Error ? error.message : String(error)),
        tryNext,
      )),
      unanswered,
    ]);
    this.options.clock.clearTimeout(timer);
    replaced.removeEventListener('abort', stopWaiting);
    return answer === tryNext && !replaced.aborted;
  }

  private withProgress<T>(flow: FlowKind, timeoutSeconds: number, replaced: AbortSignal, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return Promise.resolve(vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Signing in to Tenant API ({0})', flowName(flow)),
        cancellable: true,
      },
      async (progress, token) => {
        progress.report({
          message: flow === 'deviceCode'
            ? vscode.l10n.t('Waiting for the code to be entered (up to {0} s)…', timeoutSeconds)
            : vscode.l10n.t('Complete the sign-in in your browser (up to {0} s)…', timeoutSeconds),
        });
        const controller = new AbortController();
        this.attempts.add(controller);
        const subscription = token.onCancellationRequested(() => controller.abort(new SignInCancelledError()));
        const onReplaced = () => controller.abort(replaced.reason);
        replaced.addEventListener('abort', onReplaced, { once: true });
        if (replaced.aborted) onReplaced();
        try {
          return await task(controller.signal);
        } finally {
          subscription.dispose();
          replaced.removeEventListener('abort', onReplaced);
          this.attempts.delete(controller);
        }
      },
    ));
  }

  /** Shows the user code with actions to copy it and open the verification page. */
  private async presentDeviceCode(authorization: DeviceAuthorization, signal: AbortSignal): Promise<void> {
    const copyAndOpen = vscode.l10n.t('Copy Code and Open Browser');
    const open = vscode.l10n.t('Open Browser');
    const answer = await vscode.window.showInformationMessage(
      vscode.l10n.t('To sign in, enter the code {0} at {1}', authorization.user_code, authorization.verification_uri),
      copyAndOpen,
      open,
    );
    if (signal.aborted || !answer) return;
    if (answer === copyAndOpen) await vscode.env.clipboard.writeText(authorization.user_code);
    const target = answer === copyAndOpen ? authorization.verification_uri : authorization.verification_uri_complete ?? authorization.verification_uri;
    await vscode.env.openExternal(target as unknown as vscode.Uri);
  }
}
