import * as vscode from 'vscode';
import { registerAuthentication } from './auth/register';
import { registerAuthCommands } from './commands/authCommands';
import { useTranslator } from './common/l10n';

// TEMPORARY wiring by the sign-in helper (the lead owns this file): enough to run test/vscode/suite/auth.test.ts.
export function activate(context: vscode.ExtensionContext) {
  useTranslator((message, ...args) => vscode.l10n.t(message, ...args));
  const log = vscode.window.createOutputChannel('Tenant API', { log: true });
  context.subscriptions.push(log);
  const auth = registerAuthentication(context, { log });
  registerAuthCommands(context, auth, log);
  return { auth };
}

export function deactivate(): void {}
