import * as vscode from 'vscode';
import type { EnvironmentState } from '../settings/activeEnvironment';
import { presentEnvironment, type EnvironmentStatus } from './environmentPresentation';
import { COMMAND } from '../common/commandIds';

export const ENVIRONMENT_ITEM_ID = 'tenantApi.environment';

/** The active environment in the status bar; a click switches. It only listens to the environment state. */
export class EnvironmentStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subscriptions: vscode.Disposable[];
  private shown: EnvironmentStatus | undefined;

  constructor(private readonly environments: EnvironmentState) {
    // Left of the quota item (priority 100): which installation first, then its usage.
    this.item = vscode.window.createStatusBarItem(ENVIRONMENT_ITEM_ID, vscode.StatusBarAlignment.Right, 101);
    this.item.name = vscode.l10n.t('Tenant API Environment');
    this.item.command = COMMAND.switchEnvironment;
    this.subscriptions = [environments.onDidChange(() => this.update()), environments.onDidChangeList(() => this.update())];
    this.update();
  }

  /** What the item shows (for the in-editor tests). */
  current(): EnvironmentStatus | undefined {
    return this.shown && { ...this.shown, tooltip: [...this.shown.tooltip] };
  }

  update(): void {
    const shown = presentEnvironment(this.environments.active(), this.environments.list().length);
    this.shown = shown;
    this.item.text = shown.text;
    this.item.tooltip = new vscode.MarkdownString(shown.tooltip.join('\n\n'), true);
    this.item.backgroundColor = shown.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.accessibilityInformation = { label: shown.accessibilityLabel };
    if (shown.visible) this.item.show();
    else this.item.hide();
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.item.dispose();
  }
}
