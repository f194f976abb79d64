import * as vscode from 'vscode';
import { formatQuery, type HistoryEntry, type RequestHistory } from './requestHistory';
import { COMMAND } from '../common/commandIds';
import { dateAndTime } from '../views/timeFormat';

/** The history as a quick pick: pick one to re-run, copy one as cURL from its button, or clear them all. */
export async function pickHistoryEntry(history: RequestHistory): Promise<HistoryEntry | undefined> {
  const entries = history.entries();
  if (entries.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No requests yet. Send one with "Tenant API: Send Request".'));
    return undefined;
  }
  type Item = vscode.QuickPickItem & { entry?: HistoryEntry; index?: number; clear?: boolean };
  const copyButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('copy'), tooltip: vscode.l10n.t('Copy as cURL') };
  const items: Item[] = entries.map((entry, index) => ({
    label: `${entry.method} ${entry.path}${formatQuery(entry.query)}`,
    description: [entry.tenantLabel, resultOf(entry)].filter(Boolean).join(' · '),
    detail: dateAndTime(entry.at, vscode.env.language),
    buttons: entry.url ? [copyButton] : [],
    entry,
    index,
  }));
  items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
  items.push({ label: `$(clear-all) ${vscode.l10n.t('Clear History')}`, alwaysShow: true, clear: true });
  const quickPick = vscode.window.createQuickPick<Item>();
  quickPick.title = vscode.l10n.t('Re-run Request from History');
  quickPick.placeholder = vscode.l10n.t('Pick a request to send again');
  quickPick.matchOnDescription = true;
  quickPick.items = items;
  const picked = await new Promise<Item | undefined>((resolve) => {
    quickPick.onDidTriggerItemButton((event) => {
      // Copy without leaving the list; the command asks whether to include the token and key.
      void vscode.commands.executeCommand(COMMAND.copyAsCurl, { index: event.item.index });
    });
    quickPick.onDidAccept(() => resolve(quickPick.selectedItems[0]));
    quickPick.onDidHide(() => resolve(undefined));
    quickPick.show();
  });
  quickPick.dispose();
  if (picked?.clear) {
    await history.clear();
    return undefined;
  }
  return picked?.entry;
}


/** The status of the answer, or for a request that got none, that it was not sent and why (the error kind). */
function resultOf(entry: HistoryEntry): string | undefined {
  if (entry.status !== undefined) return entry.error ? `$(error) ${entry.status}` : String(entry.status);
  if (!entry.error) return undefined;
  // A network failure or a timeout may have reached the server; every other failure stopped before sending.
  const text = ['network', 'timeout'].includes(entry.error) ? vscode.l10n.t('no answer ({0})', entry.error) : vscode.l10n.t('not sent ({0})', entry.error);
  return `$(error) ${text}`;
}
