import * as vscode from 'vscode';
import { COMMAND, INTERNAL_COMMAND, type CommandHandlers } from '../common/commandIds';
import type { HistoryEntry } from '../engine/historyEntry';
import { RESPONSE_SCHEME, type ResponseDocuments } from '../views/responseDocuments';
import { timeOfDay } from '../views/timeFormat';
import type { ResourceNode } from '../views/tenantTreeModel';
import { responseTabRequest } from './responseTabRequest';
import type { WatchDescription, WatchInfo, Watches } from './watches';

export interface WatchCommandDeps {
  watches: Watches;
  responses: ResponseDocuments;
  /** The active environment's request history (a response tab's request is found in it). */
  history: () => readonly HistoryEntry[];
}

type Target = Omit<WatchDescription, 'environment'>;

/**
 * Watch (a tree resource, a response tab, a request file's CodeLens through its own command, or
 * `{ path, tenant? }`), Stop Watch and Pin Watch (a watched tab's, else picked), Show Watches (the status
 * bar item: each watch with Stop, Pin and Show Response).
 */
export function watchCommands(deps: WatchCommandDeps): CommandHandlers {
  const { watches } = deps;
  return {
    [COMMAND.watch]: async (argument?: unknown): Promise<WatchInfo | undefined> => {
      const target = await watchTarget(argument ?? activeResponseTab(), deps);
      if (target === 'handled') return undefined;
      if (!target) {
        void vscode.window.showWarningMessage(vscode.l10n.t('Watch a GET from the Tenants view, a response tab or a request file\'s CodeLens.'));
        return undefined;
      }
      return watches.start(target);
    },
    [COMMAND.stopWatch]: async (argument?: unknown) => {
      const watch = await chosenWatch(argument, deps, vscode.l10n.t('Stop which watch?'));
      if (watch) watches.stop(watch.id, 'stoppedByUser');
      return watch?.id;
    },
    [COMMAND.pinWatch]: async (argument?: unknown) => {
      const watch = await chosenWatch(argument, deps, vscode.l10n.t('Pin which watch (kept across a reload)?'));
      if (!watch) return undefined;
      await watches.pin(watch.id, true);
      void vscode.window.showInformationMessage(vscode.l10n.t('{0} is pinned: it is watched again after a reload.', watch.label));
      return watch.id;
    },
    [COMMAND.showWatches]: () => showWatches(deps),
  };
}

/** What to watch: a tree resource, a response tab's request, or a description; 'handled' when a request file's command took it. */
async function watchTarget(argument: unknown, deps: WatchCommandDeps): Promise<Target | 'handled' | undefined> {
  const node = argument as Partial<ResourceNode> | undefined;
  if (node?.kind === 'resource' && node.endpoint) {
    return node.endpoint.method.toUpperCase() === 'GET' ? { method: 'GET', path: node.endpoint.path, tenant: node.tenant?.codiceAmbienteDati || node.tenant?.id } : undefined;
  }
  if (argument instanceof vscode.Uri) {
    const tab = await responseTabRequest(argument, deps.responses, deps.history());
    if (tab && 'file' in tab) {
      await vscode.commands.executeCommand(INTERNAL_COMMAND.requestFileWatch, tab.file, tab.index);
      return 'handled';
    }
    if (!tab || tab.entry.method.toUpperCase() !== 'GET') return undefined;
    const query = new URLSearchParams(tab.entry.query ?? {}).toString();
    return { method: 'GET', path: query ? `${tab.entry.path}?${query}` : tab.entry.path, tenant: tab.entry.tenantId };
  }
  const plain = argument as { method?: unknown; path?: unknown; tenant?: unknown } | undefined;
  if (typeof plain?.path !== 'string' || !plain.path.startsWith('/')) return undefined;
  if (plain.method !== undefined && String(plain.method).toUpperCase() !== 'GET') return undefined;
  return { method: 'GET', path: plain.path, tenant: typeof plain.tenant === 'string' && plain.tenant ? plain.tenant : undefined };
}

function activeResponseTab(): vscode.Uri | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri;
  return uri?.scheme === RESPONSE_SCHEME ? uri : undefined;
}

/** The watch a tab shows, the id given, the only one, or the one the user picks. */
async function chosenWatch(argument: unknown, deps: WatchCommandDeps, question: string): Promise<WatchInfo | undefined> {
  const list = deps.watches.list();
  const uri = argument instanceof vscode.Uri ? argument : argument === undefined ? activeResponseTab() : undefined;
  if (uri) {
    const watch = deps.watches.watchOfDocument(uri.toString());
    if (watch) return watch;
  }
  if (typeof argument === 'number') return list.find((watch) => watch.id === argument);
  if (list.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No resource is watched.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    list.map((watch) => ({ label: watch.label, description: describe(watch), watch })),
    { placeHolder: question },
  );
  return picked?.watch;
}

function describe(watch: WatchInfo): string {
  const parts = [watch.paused ? vscode.l10n.t('paused until "{0}" is active', watch.description.environment) : vscode.l10n.t('every {0} s', watch.intervalSeconds)];
  if (watch.lastChangedAt !== undefined) parts.push(vscode.l10n.t('last changed at {0}', timeOfDay(watch.lastChangedAt, vscode.env.language)));
  if (watch.pinned) parts.push(vscode.l10n.t('pinned'));
  return parts.join(' · ');
}

/** The status bar item's list: pick a watch, then Stop Watch, Pin Watch (or Unpin) or Show Response. */
async function showWatches(deps: WatchCommandDeps): Promise<void> {
  const watch = await chosenWatch(null, deps, vscode.l10n.t('Watched resources: pick one to stop, pin or show it'));
  if (!watch) return;
  const actions = [
    { label: `$(eye-closed) ${vscode.l10n.t('Stop Watch')}`, run: () => deps.watches.stop(watch.id, 'stoppedByUser') },
    watch.pinned
      ? { label: `$(pinned) ${vscode.l10n.t('Unpin (not kept across a reload)')}`, run: () => deps.watches.pin(watch.id, false) }
      : { label: `$(pin) ${vscode.l10n.t('Pin Watch (kept across a reload)')}`, run: () => deps.watches.pin(watch.id, true) },
    ...(watch.document ? [{ label: `$(go-to-file) ${vscode.l10n.t('Show Response')}`, run: () => deps.responses.reveal(vscode.Uri.parse(watch.document!), false) }] : []),
  ];
  const picked = await vscode.window.showQuickPick(actions, { placeHolder: watch.label });
  await picked?.run();
}
