import * as vscode from 'vscode';
import { proposeRule } from '../../api/routes';
import type { RouteRule, TenantApi, TenantRecord } from '../../api/types';
import { quickFixesFor, type FixRange, type QuickFix } from '../../engine/quickFixes';
import { INTERNAL_COMMAND, type CommandHandlers } from '../../common/commandIds';
import { routeHostItems, routeModuleItems, saveRouteAndWait } from '../../commands/routeQuestion';
import type { ParsedDocuments } from './documents';

/** Internal commands of the quick fixes that ask something first (not in the palette). */
export const QUICK_FIX_COMMANDS = {
  pickTenant: INTERNAL_COMMAND.quickFixPickTenant,
  addRoute: INTERNAL_COMMAND.quickFixAddRoute,
} as const;

export interface QuickFixDeps {
  api: Pick<TenantApi, 'routeFor'>;
  parsed: ParsedDocuments;
  knownTenants(): readonly TenantRecord[] | undefined;
  /** Adds a rule to the active environment's tenantApi.routes; undefined where routes cannot be saved. */
  saveRoute?: (rule: RouteRule) => Promise<void>;
  /** The licence modules a route may need. */
  modules?: () => string[];
  /** Checks the open request files again (a saved route changes what is diagnosed). */
  refresh(): void;
}

const SOURCE = 'Tenant API';

const toRange = (range: FixRange) => new vscode.Range(range.line, range.start, range.endLine, range.end);

/** The thin layer: the pure quickFixesFor decides; this makes code actions of its answers. */
function codeActions(deps: QuickFixDeps): vscode.CodeActionProvider {
  return {
    provideCodeActions(document, _range, context) {
      const file = deps.parsed.get(document);
      const text = document.getText();
      return context.diagnostics
        .filter((diagnostic) => diagnostic.source === SOURCE && typeof diagnostic.code === 'string')
        .flatMap((diagnostic) => {
          const at = { code: diagnostic.code as string, line: diagnostic.range.start.line, start: diagnostic.range.start.character, end: diagnostic.range.end.character };
          return quickFixesFor(text, file, at).map((fix) => codeAction(document, diagnostic, fix));
        });
    },
  };
}

function codeAction(document: vscode.TextDocument, diagnostic: vscode.Diagnostic, fix: QuickFix): vscode.CodeAction {
  const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
  action.diagnostics = [diagnostic];
  action.isPreferred = 'preferred' in fix && fix.preferred === true;
  switch (fix.kind) {
    case 'edit': {
      action.edit = new vscode.WorkspaceEdit();
      for (const change of fix.changes) action.edit.replace(document.uri, toRange(change.range), change.newText);
      if (fix.cursor) {
        const at = new vscode.Position(fix.cursor.line, fix.cursor.character);
        action.command = { title: fix.title, command: 'vscode.open', arguments: [document.uri, { selection: new vscode.Range(at, at) }] };
      } else if (fix.notes) {
        action.command = { title: fix.title, command: INTERNAL_COMMAND.showImportNotes, arguments: [fix.notes] };
      }
      break;
    }
    case 'reveal':
      action.command = { title: fix.title, command: 'vscode.open', arguments: [document.uri, { selection: toRange(fix.range) }] };
      break;
    case 'pickTenant':
      action.command = { title: fix.title, command: QUICK_FIX_COMMANDS.pickTenant, arguments: [document.uri, fix] };
      break;
    case 'addRoute':
      action.command = { title: fix.title, command: QUICK_FIX_COMMANDS.addRoute, arguments: [fix] };
      break;
  }
  return action;
}

async function pickTenant(deps: QuickFixDeps, uri: vscode.Uri, fix: Extract<QuickFix, { kind: 'pickTenant' }>): Promise<void> {
  const tenants = deps.knownTenants() ?? [];
  const picked = await vscode.window.showQuickPick(
    tenants.map((tenant) => ({ label: tenant.codiceAmbienteDati, description: tenant.descrizioneAmbienteDati, tenant })),
    { title: vscode.l10n.t('Tenant for this request'), placeHolder: vscode.l10n.t('Which of your tenants?'), matchOnDescription: true },
  );
  if (!picked) return;
  const edit = new vscode.WorkspaceEdit();
  edit.replace(uri, toRange(fix.range), `${fix.before}${picked.tenant.codiceAmbienteDati}${fix.after}`);
  await vscode.workspace.applyEdit(edit);
}

async function addRoute(deps: QuickFixDeps, fix: Extract<QuickFix, { kind: 'addRoute' }>): Promise<void> {
  if (!deps.saveRoute) return;
  const host = await vscode.window.showQuickPick(routeHostItems(), { title: fix.title, placeHolder: vscode.l10n.t('Which host serves {0}? (asked once: saved in tenantApi.routes)', fix.prefix) });
  if (!host) return;
  const module = await vscode.window.showQuickPick(routeModuleItems(deps.modules?.() ?? []), { title: fix.title, placeHolder: vscode.l10n.t("Which module's licence key (Authorization-Key) do calls to {0} need?", fix.prefix) });
  if (!module) return;
  const rule = proposeRule(fix.path, { host: host.host ?? 'base', module: module.module ?? undefined });
  if (!rule) return;
  if (!(await saveRouteAndWait(rule, fix.path, { saveRoute: deps.saveRoute, routeFor: (path) => deps.api.routeFor(path) }))) return;
  deps.refresh();
}

export function registerQuickFixes(selector: vscode.DocumentSelector, deps: QuickFixDeps): vscode.Disposable[] {
  return [vscode.languages.registerCodeActionsProvider(selector, codeActions(deps), { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] })];
}

/** The handlers of the quick fixes' commands, for the registrar (src/commands/registrar.ts). */
export function quickFixCommands(deps: QuickFixDeps): CommandHandlers {
  return {
    [QUICK_FIX_COMMANDS.pickTenant]: (uri: vscode.Uri, fix: Extract<QuickFix, { kind: 'pickTenant' }>) => pickTenant(deps, uri, fix),
    [QUICK_FIX_COMMANDS.addRoute]: (fix: Extract<QuickFix, { kind: 'addRoute' }>) => addRoute(deps, fix),
  };
}
