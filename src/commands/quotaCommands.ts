import * as vscode from 'vscode';
import { usageRows } from '../views/quotaPresentation';
import { forecastQuota } from '../api/quotaForecast';
import { readQuotaThresholds, readWeeklyReset } from '../settings/editorSettings';
import { handle, type WorkbenchCommandContext } from './commandContext';
import { COMMAND, type CommandHandlers } from '../common/commandIds';

/** tenantApi.showQuota: the usage of every organization seen; Enter shows one in the status bar, and asks to resume a stopped one. */
export function quotaCommands(deps: WorkbenchCommandContext): CommandHandlers {
  const handlers: CommandHandlers = {};
  handle(handlers, COMMAND.showQuota, async () => {
    const now = Date.now();
    const resetSetting = readWeeklyReset().setting;
    const rows = usageRows(deps.api.quota.readings(), {
      now,
      forecastOf: (organization) => forecastQuota(deps.api.quota.usageSamples(organization), { now, resetSetting }),
      locale: vscode.env.language,
      thresholds: readQuotaThresholds(),
      isBlocked: (organization) => deps.api.quota.isBlocked(organization),
    });
    if (rows.length === 0) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('No API usage seen yet. Every response reports its organization\'s weekly usage; send a request to see it.'),
      );
      return undefined;
    }
    const icon = { normal: 'pass', warning: 'warning', error: 'error' } as const;
    const picked = await vscode.window.showQuickPick(
      rows.map((row) => ({ ...row, iconPath: new vscode.ThemeIcon(icon[row.severity]) })),
      {
        title: vscode.l10n.t('API usage per organization (this week)'),
        placeHolder: vscode.l10n.t('Enter shows the organization in the status bar; one whose calls are stopped asks to resume them'),
        matchOnDescription: true,
      },
    );
    if (!picked) return undefined;
    deps.views.statusBar.show(picked.organization);
    if (deps.api.quota.isBlocked(picked.organization)) {
      const resume = vscode.l10n.t('Resume Calls');
      const answer = await vscode.window.showWarningMessage(
        vscode.l10n.t('Calls for {0} are stopped after the weekly limit was reached. Resume them?', picked.organization),
        resume,
      );
      if (answer === resume) await vscode.commands.executeCommand(COMMAND.resumeOrganization, picked.organization);
    }
    return picked.organization;
  });
  return handlers;
}
