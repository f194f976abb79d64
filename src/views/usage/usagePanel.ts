import * as vscode from 'vscode';
import { APPLICATION_LIMITS } from '../../api/limits';
import { COMMAND, type CommandHandlers } from '../../common/commandIds';
import type { Event } from '../../common/event';
import { readQuotaThresholds, readWeeklyReset } from '../../settings/editorSettings';
import { bundlePage, webviewOptions } from '../webviewPanel';
import type { ApplicationUsage } from './applicationUsage';
import { parseUsageRequest, type UsageUpdate } from './usageProtocol';
import { usageStrings, usageView, type UsageView } from './usageView';

export const USAGE_VIEW_TYPE = 'tenantApi.usage';

export interface UsagePanelDeps {
  /** The active environment's application's usage. */
  usage(): ApplicationUsage;
  /** Organizations of the licence keys set (public part only), shown before their first reading. */
  keyOrganizations(): Promise<string[]>;
  /** Any change of any application's usage, or a switch of environment. */
  onDidChange: Event<void>;
}

/** Redraws at most this often while answers come in. */
const REDRAW_MS = 500;
/** And this often anyway, so that "now" and the last hour move on. */
const TICK_MS = 30_000;

/**
 * The usage panel (from the quota status bar item): one panel, drawn from the usage record of the active
 * application (src/views/usage: the view is made there, the webview draws it), redrawn as answers come
 * in, in every window (the readings and the pauses travel between windows). A reload brings it back.
 */
export class UsagePanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private redraw: ReturnType<typeof setTimeout> | undefined;
  private ticker: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly deps: UsagePanelDeps,
  ) {
    this.disposables.push(
      vscode.window.registerWebviewPanelSerializer(USAGE_VIEW_TYPE, { deserializeWebviewPanel: (panel) => this.attach(panel) }),
      deps.onDidChange(() => this.scheduleRedraw()),
    );
  }

  commands(): CommandHandlers {
    return { [COMMAND.showUsage]: () => this.show() };
  }

  async show(): Promise<void> {
    if (this.panel) return this.panel.reveal();
    const panel = vscode.window.createWebviewPanel(USAGE_VIEW_TYPE, vscode.l10n.t('Tenant API Usage'), vscode.ViewColumn.Active, webviewOptions(this.extensionUri));
    await this.attach(panel);
  }

  private async attach(panel: vscode.WebviewPanel): Promise<void> {
    this.panel = panel;
    panel.webview.options = webviewOptions(this.extensionUri);
    panel.webview.onDidReceiveMessage((message: unknown) => void this.onRequest(message));
    panel.onDidDispose(() => {
      this.panel = undefined;
      if (this.ticker) clearInterval(this.ticker);
      this.ticker = undefined;
    });
    this.ticker = setInterval(() => this.scheduleRedraw(), TICK_MS);
    panel.webview.html = bundlePage(panel.webview, this.extensionUri, 'usage', panel.title, { strings: usageStrings(), locale: vscode.env.language, view: await this.view() });
  }

  private async view(): Promise<UsageView> {
    const usage = this.deps.usage();
    const reset = readWeeklyReset();
    const organizations = await this.deps.keyOrganizations().catch(() => []);
    return usageView({
      record: usage.record,
      quota: usage.quota,
      keyOrganizations: organizations,
      now: Date.now(),
      locale: vscode.env.language,
      resetSetting: reset.setting,
      invalidResetSetting: reset.invalid,
      thresholds: readQuotaThresholds(),
      perMinute: APPLICATION_LIMITS.find((limit) => limit.unit === 'minute')?.max ?? 300,
    });
  }

  private scheduleRedraw(): void {
    if (!this.panel || this.redraw) return;
    this.redraw = setTimeout(() => {
      this.redraw = undefined;
      void this.post();
    }, REDRAW_MS);
  }

  private async post(): Promise<void> {
    const panel = this.panel;
    if (!panel?.visible) return;
    const update: UsageUpdate = { type: 'view', view: await this.view() };
    await panel.webview.postMessage(update);
  }

  private async onRequest(message: unknown): Promise<void> {
    const request = parseUsageRequest(message);
    if (!request) return;
    if (request.type === 'ready') return this.post();
    if (request.type === 'showList') {
      await vscode.commands.executeCommand(COMMAND.showQuota);
      return;
    }
    // Only an organization this window knows to be stopped: the page names it, the tracker decides.
    if (this.deps.usage().quota.isBlocked(request.organization)) await vscode.commands.executeCommand(COMMAND.resumeOrganization, request.organization);
  }

  dispose(): void {
    if (this.redraw) clearTimeout(this.redraw);
    if (this.ticker) clearInterval(this.ticker);
    this.panel?.dispose();
    for (const disposable of this.disposables) disposable.dispose();
  }
}
