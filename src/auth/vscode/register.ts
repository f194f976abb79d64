import * as vscode from 'vscode';
import { systemClock, type Clock } from '../../common/clock';
import type { Logger } from '../../common/logger';
import { redactingLogger } from '../../common/redact';
import type { SecretStore } from '../../common/secretStore';
import { parseCallbackQuery } from '../callbackParameters';
import { PendingAttempts } from '../pendingAttempts';
import { SessionManager, type SessionManagerOptions } from '../sessionManager';
import { SessionStore } from '../sessionStore';
import type { StoredSession } from '../sessionStore';
import { TokenClient, type Fetch } from '../tokenClient';
import type { AccountInfo, AuthenticationApi, SignInOptions } from '../types';
import { readAuthConfiguration as readConfiguration } from '../../settings/authSettings';
import type { EnvironmentSettings } from '../../settings/environments';
import type { EnvironmentScope } from '../../settings/environmentScope';
import { onSettingsChange } from '../../settings/editorSettings';
import { editorFetch } from '../../settings/networkSettings';
import { AUTH_PROVIDER_ID, AUTH_PROVIDER_LABEL, TenantApiAuthenticationProvider } from './authenticationProvider';
import { CALLBACK_PATH, SignInController } from './signInController';

/** globalState key of the active account's id (`sub`); the only sign-in data outside SecretStorage. */
const ACTIVE_ACCOUNT_KEY = 'tenantApi.auth.activeAccount';

export interface AuthenticationDependencies {
  /** The "Tenant API" LogOutputChannel (raw: everything written through it here is redacted first). */
  log: vscode.LogOutputChannel;
  fetch?: Fetch;
  clock?: Clock;
  /** Held around each refresh by every window (src/coordination): one refresh per refresh token. */
  refreshLock?: SessionManagerOptions['refreshLock'];
  /** The other windows, for refreshed sessions their secret storage may not show (src/coordination). */
  peers?: SessionManagerOptions['peers'];
  /** The environment's settings now (its authUrl, clientId and scopes); default the top-level ones. */
  environment?: () => EnvironmentSettings & { name?: string };
}

/** What registerAuthentication returns: the AuthenticationApi plus the pieces tests and commands use. */
export interface Authentication extends AuthenticationApi {
  readonly sessions: SessionManager;
  readonly store: SessionStore;
  readonly pending: PendingAttempts;
  readonly controller: SignInController;
  /** The provider registered as `tenant-api` (what vscode.authentication.getSession reaches). */
  readonly provider: TenantApiAuthenticationProvider;
  readonly logger: Logger;
  /** The raw SecretStorage (for tests: a write here looks like another window's). */
  readonly secrets: SecretStore;
  /** Routes a URI that reached the extension's UriHandler (exposed for tests). */
  handleUri(uri: vscode.Uri): void;
}

/**
 * Registers the `tenant-api` authentication provider and the URI handler, and returns the
 * access-token source and session state the rest of the extension uses.
 */
export function registerAuthentication(scope: EnvironmentScope, dependencies: AuthenticationDependencies): Authentication {
  const logger = redactingLogger(dependencies.log);
  const clock = dependencies.clock ?? systemClock;
  const store = new SessionStore(scope.secrets, logger);
  const readAuthConfiguration = () => readConfiguration(dependencies.environment?.());
  const pending = new PendingAttempts(logger);
  const tokenClient = tokenClientFactory(store, logger, dependencies.fetch, readAuthConfiguration);

  const sessions = new SessionManager({
    store,
    tokenClient,
    clock,
    logger,
    refreshSkewSeconds: () => readAuthConfiguration().refreshSkewSeconds,
    currentServer: () => {
      const { authUrl, clientId } = readAuthConfiguration();
      return { authUrl, clientId };
    },
    refreshLock: dependencies.refreshLock,
    peers: dependencies.peers,
  });
  const controller = new SignInController({
    extensionId: scope.extensionId,
    sessions,
    pending,
    tokenClient,
    clock,
    logger,
    configuration: readAuthConfiguration,
  });
  const provider = new TenantApiAuthenticationProvider(sessions, (options, scopes) => controller.signIn(options, scopes));
  const handleUri = uriHandler(pending, logger);

  scope.subscriptions.push(
    vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, AUTH_PROVIDER_LABEL, provider, { supportsMultipleAccounts: true }),
    vscode.window.registerUriHandler({ handleUri }),
    provider,
    sessions,
    onSettingsChange((affects) => {
      if (affects('authUrl') || affects('clientId') || affects('environments')) sessions.serverChanged();
    }),
  );

  // The account the user picked for API calls (an id, not a secret) survives a reload.
  const savedActive = scope.globalState.get<string>(ACTIVE_ACCOUNT_KEY);
  if (savedActive) sessions.setActiveAccount(savedActive);
  // Start reading the stored sessions now, so that activeAccount() is known soon after activation.
  void sessions.getAccounts();

  const parts = { sessions, store, pending, controller, provider, logger, secrets: scope.secrets, handleUri };
  return { ...parts, ...authenticationApi(scope.globalState, sessions, controller) };
}

/** One TokenClient per authorization server and client id: a new one when either setting changes. */
function tokenClientFactory(
  store: SessionStore,
  logger: Logger,
  fetchImpl: Fetch | undefined,
  configuration: () => { authUrl: string; clientId: string },
): () => TokenClient {
  let client: { key: string; value: TokenClient } | undefined;
  return () => {
    const config = configuration();
    const key = `${config.authUrl}\n${config.clientId}`;
    if (client?.key !== key) {
      client = {
        key,
        value: new TokenClient({
          authUrl: config.authUrl,
          clientId: config.clientId,
          fetch: fetchImpl ?? editorFetch,
          logger,
          getClientSecret: () => store.getClientSecret(),
        }),
      };
    }
    return client.value;
  };
}

function uriHandler(pending: PendingAttempts, logger: Logger): (uri: vscode.Uri) => void {
  return (uri) => {
    logger.info(`URI handler received ${uri.toString(true)}`);
    if (uri.path !== CALLBACK_PATH) {
      logger.warn(`Ignored a URI for an unknown path: ${uri.path}`);
      return;
    }
    // Desktop VS Code hands over a query URI.parse already decoded; the web editor's callback page re-encodes it.
    pending.handleCallback(parseCallbackQuery(uri.query, vscode.env.uiKind === vscode.UIKind.Web ? 'encoded' : 'decoded'));
  };
}

/** What the rest of the extension uses: tokens, session state, sign-in and sign-out. */
function authenticationApi(globalState: vscode.Memento, sessions: SessionManager, controller: SignInController): AuthenticationApi {
  const signIn = async (options: SignInOptions = {}): Promise<AccountInfo | undefined> => {
    const session: StoredSession = await controller.signIn(options);
    return session.account;
  };
  return {
    onDidChangeSessions: sessions.onDidChangeSessions,
    getAccessToken: (options) => sessions.getAccessToken(options),
    getAccounts: () => sessions.getAccounts(),
    activeAccount: () => sessions.activeAccount(),
    setActiveAccount: (accountId) => {
      sessions.setActiveAccount(accountId);
      void globalState.update(ACTIVE_ACCOUNT_KEY, accountId);
    },
    signIn,
    signOut: async (accountId) => {
      const id = accountId ?? sessions.activeAccount()?.id;
      if (id) await sessions.removeSession(id);
    },
  };
}
