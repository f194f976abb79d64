import * as vscode from 'vscode';
import type { TenantDirectory } from '../api/tenantDirectory';
import type { QuotaView } from '../api/types';
import { forecastQuota } from '../api/quotaForecast';
import { onSettingsChange, readQuotaThresholds, readWeeklyReset } from '../settings/editorSettings';
import type { ActiveTenantStore } from '../api/activeTenant';
import { presentQuota, selectReading, type QuotaSeverity } from './quotaPresentation';
import { COMMAND } from '../common/commandIds';

export const QUOTA_ITEM_ID = 'tenantApi.quota';

/** What the in-editor tests read. */
export interface QuotaStatusState {
  visible: boolean;
  text: string;
  tooltip: string;
  severity: QuotaSeverity;
  organization: string | undefined;
}

/**
 * The api-usage of the active context in the status bar. It only listens: to the QuotaTracker's
 * event (every response's Service-Limit-Info), to the tenant directory (which organization the
 * active tenant's calls count against), to the active tenant and the settings, and is told when
 * the user signs in or out. It never calls, and nothing pushes readings into it.
 */
export class QuotaStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private lastChangedOrganization: string | undefined;
  /** Chosen in the usage list: shown until the active tenant changes. */
  private chosenOrganization: string | undefined;
  private state: QuotaStatusState = { visible: false, text: '', tooltip: '', severity: 'normal', organization: undefined };
  private tooltipTimer: ReturnType<typeof setInterval> | undefined;
  private signedIn = false;

  constructor(
    private readonly quota: QuotaView,
    private readonly activeTenant: ActiveTenantStore,
    private readonly tenants: Pick<TenantDirectory, 'organizationOf' | 'onDidChange'>,
  ) {
    this.item = vscode.window.createStatusBarItem(QUOTA_ITEM_ID, vscode.StatusBarAlignment.Right, 100);
    this.item.name = vscode.l10n.t('Tenant API Usage');
    // The usage panel; Show API Usage per Organization stays in the palette and on the panel.
    this.item.command = COMMAND.showUsage;
    this.disposables.push(
      this.item,
      quota.onDidChange((event) => {
        if (event.reading) this.lastChangedOrganization = event.organization;
        this.update();
      }),
      tenants.onDidChange((change) => {
        if (change.kind === 'organization') this.update();
      }),
      activeTenant.onDidChange(() => {
        this.chosenOrganization = undefined;
        this.update();
      }),
      onSettingsChange((affects) => {
        if (affects('quota')) this.update();
      }),
    );
    this.update();
  }

  /** Hidden while signed out. */
  setSignedIn(signedIn: boolean): void {
    if (this.signedIn === signedIn) return;
    this.signedIn = signedIn;
    this.update();
  }

  current(): QuotaStatusState {
    return { ...this.state };
  }

  /** Shows this organization's usage (picked in the usage list) until the active tenant changes. */
  show(organization: string): void {
    this.chosenOrganization = organization;
    this.update();
  }

  private update(): void {
    if (!this.signedIn) {
      this.item.hide();
      this.stopTooltipTimer();
      this.state = { ...this.state, visible: false };
      return;
    }
    const activeTenantId = this.activeTenant.get()?.id;
    const reading = selectReading(
      this.quota.readings(),
      this.chosenOrganization ?? (activeTenantId ? this.tenants.organizationOf(activeTenantId) : undefined),
      this.lastChangedOrganization,
    );
    const thresholds = readQuotaThresholds();
    const now = Date.now();
    const weekReset = readWeeklyReset();
    const shown = presentQuota(reading, {
      now,
      thresholds,
      locale: vscode.env.language,
      blocked: reading ? this.quota.isBlocked(reading.organization) : false,
      forecast: reading ? forecastQuota(this.quota.usageSamples(reading.organization), { now, resetSetting: weekReset.setting }) : undefined,
      invalidResetSetting: weekReset.invalid,
    });
    const tooltip = shown.tooltip.join('\n\n');
    this.item.text = shown.text;
    this.item.tooltip = new vscode.MarkdownString(tooltip, true);
    this.item.backgroundColor =
      shown.severity === 'error'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : shown.severity === 'warning'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
    this.item.accessibilityInformation = {
      label: reading
        ? reading.limit === 1
          ? vscode.l10n.t('Tenant API usage: {0} of {1} call this week', reading.used, reading.limit)
          : vscode.l10n.t('Tenant API usage: {0} of {1} calls this week', reading.used, reading.limit)
        : vscode.l10n.t('Tenant API usage: no calls seen yet'),
    };
    this.item.show();
    this.state = { visible: true, text: shown.text, tooltip, severity: shown.severity, organization: reading?.organization };
    if (reading) this.startTooltipTimer();
  }

  /** Keeps "seen … ago" true while the item shows a reading; no call is made. */
  private startTooltipTimer(): void {
    if (this.tooltipTimer) return;
    this.tooltipTimer = setInterval(() => this.update(), 30_000);
    this.tooltipTimer.unref?.();
  }

  private stopTooltipTimer(): void {
    if (this.tooltipTimer) clearInterval(this.tooltipTimer);
    this.tooltipTimer = undefined;
  }

  dispose(): void {
    this.stopTooltipTimer();
    for (const disposable of this.disposables) disposable.dispose();
  }
}
