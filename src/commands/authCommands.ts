import * as vscode from 'vscode';
import { connectionSettingsQuery } from '../api/errorActions';
import type { Authentication } from '../auth/vscode/register';
import { SignInCancelledError } from '../auth/oauthErrors';
import type { AccountInfo, SignInOptions } from '../auth/types';
import { COMMAND, type CommandHandlers, EDITOR_COMMAND } from '../common/commandIds';

/** Argument of tenantApi.signIn (the tree's "sign in to this tenant" passes { tenantId }). */
function signInOptions(argument: unknown): SignInOptions {
  if (!argument || typeof argument !== 'object') return {};
  const { tenantId, loginHint, forceLogin } = argument as Record<string, unknown>;
  return {
    tenantId: typeof tenantId === 'string' && tenantId ? tenantId : undefined,
    loginHint: typeof loginHint === 'string' && loginHint ? loginHint : undefined,
    forceLogin: forceLogin === true ? true : undefined,
  };
}

/** By name; the account id (a `sub`, often a GUID) means nothing to the user. */
async function pickAccount(accounts: AccountInfo[], activeId: string | undefined, placeHolder: string): Promise<AccountInfo | undefined> {
  if (accounts.length <= 1) return accounts[0];
  const picked = await vscode.window.showQuickPick(
    accounts.map((account) => ({
      label: account.label,
      description: account.id === activeId ? vscode.l10n.t('used for API calls') : undefined,
      account,
    })),
    { placeHolder },
  );
  return picked?.account;
}

/** tenantApi.signIn, tenantApi.signOut, tenantApi.setClientSecret, tenantApi.showLog. */
export function authCommands(auth: Authentication, log: vscode.LogOutputChannel): CommandHandlers {
  return {
    [COMMAND.signIn]: async (argument?: unknown): Promise<AccountInfo | undefined> => {
      const options = signInOptions(argument);
      // Signing in while an account is signed in means "another account", and after a sign-out the
      // browser may still be signed in as the user who left: show the login form in both cases.
      if (options.forceLogin === undefined && ((await auth.getAccounts()).length > 0 || (await auth.sessions.signedOutSinceSignIn()))) {
        options.forceLogin = true;
      }
      try {
        // fromUser: a Sign In that would join a running sign-in says so (or restarts a stuck one).
        const account = (await auth.controller.signIn(options, [], { fromUser: true })).account;
        if (account) {
          auth.setActiveAccount(account.id);
          void vscode.window.showInformationMessage(vscode.l10n.t('Signed in to Tenant API as {0}.', account.label));
        }
        return account;
      } catch (error) {
        if (error instanceof SignInCancelledError) return undefined;
        const showLog = vscode.l10n.t('Show Log');
        const openSettings = vscode.l10n.t('Open Settings');
        void vscode.window.showErrorMessage(error instanceof Error ? error.message : String(error), openSettings, showLog).then((answer) => {
          if (answer === showLog) log.show();
          if (answer === openSettings) void vscode.commands.executeCommand(EDITOR_COMMAND.openSettings, connectionSettingsQuery(error) ?? 'tenantApi');
        });
        return undefined;
      }
    },

    [COMMAND.signOut]: async (argument?: unknown) => {
      const accounts = await auth.getAccounts();
      if (accounts.length === 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t('You are not signed in to Tenant API.'));
        return;
      }
      const requested = argument && typeof argument === 'object' ? (argument as { accountId?: unknown }).accountId : undefined;
      const account = typeof requested === 'string'
        ? accounts.find((candidate) => candidate.id === requested)
        : await pickAccount(accounts, auth.activeAccount()?.id, vscode.l10n.t('Which account do you want to sign out?'));
      if (!account) return;
      await auth.signOut(account.id);
      void vscode.window.showInformationMessage(vscode.l10n.t('Signed out {0} from Tenant API.', account.label));
    },

    [COMMAND.setClientSecret]: async () => {
      const value = await vscode.window.showInputBox({
        title: vscode.l10n.t('Tenant API client secret'),
        prompt: vscode.l10n.t('Only needed when the registered client has a secret. It is kept in the editor\'s secret storage. Leave empty to remove it.'),
        password: true,
        ignoreFocusOut: true,
      });
      if (value === undefined) return;
      await auth.store.setClientSecret(value.trim() || undefined);
      void vscode.window.showInformationMessage(value.trim()
        ? vscode.l10n.t('The client secret was saved in secret storage.')
        : vscode.l10n.t('The client secret was removed.'));
    },

    [COMMAND.showLog]: () => log.show(),
  };
}
