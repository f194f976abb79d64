import * as vscode from 'vscode';
import { COMMAND } from '../common/commandIds';
import { watchStatusText } from './watchPresentation';

export const WATCH_ITEM_ID = 'tenantApi.watches';

/** What the item shows of the watches (src/commands/watches.ts implements it). */
export interface WatchCount {
  readonly onDidChange: vscode.Event<void>;
  list(): ReadonlyArray<{ label: string; intervalSeconds: number; pinned: boolean; paused: boolean; description: { environment: string } }>;
  callsPerHour(): number;
}

/** What the in-editor tests read. */
export interface WatchStatusState {
  visible: boolean;
  text: string;
  tooltip: string;
}

/** `$(eye) 2 watches · 120 calls/h` while any watch runs; a click lists them, each with Stop. */
export class WatchStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subscription: vscode.Disposable;
  private state: WatchStatusState = { visible: false, text: '', tooltip: '' };

  constructor(private readonly watches: WatchCount) {
    this.item = vscode.window.createStatusBarItem(WATCH_ITEM_ID, vscode.StatusBarAlignment.Right, 99);
    this.item.name = vscode.l10n.t('Tenant API Watches');
    this.item.command = COMMAND.showWatches;
    this.subscription = watches.onDidChange(() => this.update());
    this.update();
  }

  current(): WatchStatusState {
    return { ...this.state };
  }

  private update(): void {
    const list = this.watches.list();
    const paused = list.filter((watch) => watch.paused).length;
    const text = watchStatusText(list.length, this.watches.callsPerHour(), paused);
    const row = (watch: (typeof list)[number]) =>
      `${watch.pinned ? '$(pin) ' : ''}${watch.label} · ${watch.paused ? vscode.l10n.t('paused until "{0}" is active', watch.description.environment) : `${watch.intervalSeconds} s`}`;
    const tooltip = [vscode.l10n.t('Watched resources (click to stop one):'), ...list.map(row)].join('\n');
    this.state = { visible: list.length > 0, text, tooltip };
    this.item.text = `$(eye) ${text}`;
    this.item.tooltip = tooltip;
    if (list.length > 0) this.item.show();
    else this.item.hide();
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
