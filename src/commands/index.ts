import * as vscode from 'vscode';
import type { SessionState } from '../auth/types';
import type { TenantApi } from '../api/types';
import { silentLogger, type Logger } from '../common/logger';
import type { Views } from '../views';
import type { ResourceNode, TenantNode } from '../views/tenantTreeModel';
import { usageRows } from '../views/quotaPresentation';
import { sanitizeThresholds } from '../views/quotaPresentation';
import { buildCurlCommand, KEY_VARIABLE, TOKEN_VARIABLE, usesMaskedVariables } from './curlCommand';
import { RequestHistory, formatQuery, type HistoryEntry } from './requestHistory';
import { RequestInputError, normalizeArgs, type NormalizedRequest } from './requestInput';
import { FIX_RESOURCE_COMMAND, RequestRunner, type FixResourceArgs, type LastRequest, type RequestSummary } from './requestRunner';
import { askForRequest } from './sendRequestFlow';

export interface WorkbenchCommandDeps {
  /** src/auth's AuthenticationApi (session state and, for Copy as cURL with secrets, the token). */
  auth: SessionState & { getAccessToken(options?: { forceRefresh?: boolean }): Promise<string> };
  api: TenantApi;
  views: Views;
  /** Reads a licence key from SecretStorage, only when the user asks to include it in a cURL command. */
  readLicenceKey?: (module: string) => Promise<string | undefined>;
  logger?: Logger;
}

export interface WorkbenchCommands {
  runner: RequestRunner;
  history: RequestHistory;
}

/**
 * Workbench commands: sendRequest, rerunFromHistory, copyAsCurl, refreshTenants, openResource,
 * copyTenantId, setActiveTenant, signInToTenant, showQuota. Registration does no work.
 */
export function registerWorkbenchCommands(context: vscode.ExtensionContext, deps: WorkbenchCommandDeps): WorkbenchCommands {
  const logger = deps.logger ?? silentLogger;
  const history = new RequestHistory(context.globalState);
  const runner = new RequestRunner(deps.api, deps.views, history, logger);
  const { views } = deps;

  const register = (id: string, run: (...args: unknown[]) => unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, run));

  register('tenantApi.sendRequest', async (args?: unknown): Promise<RequestSummary | undefined> => {
    let request: NormalizedRequest | undefined;
    if (isArgumentObject(args)) {
      try {
        request = normalizeArgs(args);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        void vscode.window.showErrorMessage(message);
        const input = args as { method?: unknown; path?: unknown };
        return { ok: false, method: String(input.method ?? ''), path: String(input.path ?? ''), warnings: [], error: { kind: 'invalidRequest', message } };
      }
    } else {
      request = await askForRequest({ api: deps.api, views, history }, tenantDefaults(args));
    }
    return request ? runner.run(request) : undefined;
  });

  register('tenantApi.openResource', async (args?: unknown): Promise<RequestSummary | undefined> => {
    const target = resourceTarget(args);
    if (!target) {
      void vscode.window.showErrorMessage(vscode.l10n.t('Open a resource from the Tenants view.'));
      return undefined;
    }
    return runner.run(normalizeArgs({ method: target.method, path: target.path, tenantId: target.tenantId }), { fromTree: true });
  });

  register(FIX_RESOURCE_COMMAND, async (args?: unknown) => {
    const fix = args as FixResourceArgs | undefined;
    if (!fix?.fix) return;
    await vscode.commands.executeCommand(fix.fix, ...(fix.fixArgs ?? []));
    views.tree.setProblem(fix.tenantId, fix, undefined);
    return vscode.commands.executeCommand('tenantApi.openResource', { tenantId: fix.tenantId, method: fix.method, path: fix.path });
  });

  register('tenantApi.rerunFromHistory', async (args?: unknown): Promise<RequestSummary | undefined> => {
    const entry = typeof (args as { index?: unknown })?.index === 'number'
      ? history.entries()[(args as { index: number }).index]
      : await pickHistoryEntry(history);
    if (!entry) return undefined;
    return runner.run(
      normalizeArgs({ method: entry.method, path: entry.path, tenantId: entry.tenantId, query: entry.query, body: entry.body, headers: entry.headers }),
    );
  });

  register('tenantApi.copyAsCurl', async (args?: unknown): Promise<string | undefined> => {
    const options = (args ?? {}) as { includeSecrets?: boolean; index?: number };
    const source =
      typeof options.index === 'number' ? fromHistory(history.entries()[options.index], deps.api) : runner.lastRequest() ?? fromHistory(await pickHistoryEntry(history), deps.api);
    if (!source) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Send a request first: there is nothing to copy yet.'));
      return undefined;
    }
    let include = options.includeSecrets;
    if (include === undefined) {
      const masked = {
        label: vscode.l10n.t('Masked'),
        description: vscode.l10n.t('uses ${0} and ${1}', TOKEN_VARIABLE, KEY_VARIABLE),
        include: false,
      };
      const withSecrets = {
        label: vscode.l10n.t('Include the token and the licence key'),
        description: vscode.l10n.t('anyone who sees the command can call the API as you'),
        include: true,
      };
      const chosen = await vscode.window.showQuickPick([masked, withSecrets], {
        title: vscode.l10n.t('Copy as cURL'),
        placeHolder: `${source.method} ${source.url}`,
      });
      if (!chosen) return undefined;
      include = chosen.include;
    }
    let token: string | undefined;
    let licenceKey: string | undefined;
    if (include) {
      try {
        token = await deps.auth.getAccessToken();
        const module = deps.api.routeFor(source.path)?.module;
        licenceKey = module && deps.readLicenceKey ? await deps.readLicenceKey(module) : undefined;
      } catch (error) {
        void vscode.window.showErrorMessage(
          vscode.l10n.t('Could not read the token: {0}', error instanceof Error ? error.message : String(error)),
        );
        return undefined;
      }
    }
    const command = buildCurlCommand({ method: source.method, url: source.url, headers: source.requestHeaders, body: source.bodyText }, { token, licenceKey });
    await vscode.env.clipboard.writeText(command);
    void vscode.window.showInformationMessage(
      usesMaskedVariables(command)
        ? vscode.l10n.t('cURL command copied. Set {0} and {1} in your shell before running it.', TOKEN_VARIABLE, KEY_VARIABLE)
        : vscode.l10n.t('cURL command copied, with your token and licence key: do not share it.'),
    );
    return options.includeSecrets === undefined ? undefined : command;
  });

  register('tenantApi.refreshTenants', () => views.tree.refresh());

  register('tenantApi.copyTenantId', async (args?: unknown) => {
    const tenantId = tenantIdOf(args);
    if (!tenantId) return;
    await vscode.env.clipboard.writeText(tenantId);
    void vscode.window.setStatusBarMessage(vscode.l10n.t('Tenant ID copied: {0}', tenantId), 3000);
  });

  register('tenantApi.setActiveTenant', async (args?: unknown) => {
    const tenantId = tenantIdOf(args);
    let tenant = tenantId ? views.tree.cachedTenant(tenantId) : undefined;
    if (!tenant && tenantId) tenant = (await views.tree.tenants()).find((t) => t.id === tenantId);
    if (!tenant) {
      const tenants = await views.tree.tenants().catch(() => []);
      const picked = await vscode.window.showQuickPick(
        tenants.map((t) => ({ label: t.descrizioneAmbienteDati, description: t.codiceAmbienteDati, detail: t.id, tenant: t })),
        { title: vscode.l10n.t('Set as Active Tenant') },
      );
      tenant = picked?.tenant;
    }
    if (!tenant) return;
    if (!tenant.usable) {
      void vscode.window.showWarningMessage(tenant.unusableReason ?? vscode.l10n.t('This tenant cannot be called.'));
      return;
    }
    await views.activeTenant.set({ id: tenant.id, label: tenant.descrizioneAmbienteDati });
    void vscode.window.setStatusBarMessage(vscode.l10n.t('Active tenant: {0}', tenant.descrizioneAmbienteDati), 3000);
  });

  register('tenantApi.signInToTenant', (args?: unknown) => {
    const tenantId = tenantIdOf(args);
    return vscode.commands.executeCommand('tenantApi.signIn', tenantId ? { tenantId } : undefined);
  });

  register('tenantApi.internal.useAccount', (accountId?: unknown) => {
    if (typeof accountId !== 'string') return;
    deps.auth.setActiveAccount(accountId);
    views.tree.refresh();
    views.statusBar.update();
  });

  register('tenantApi.showQuota', async () => {
    const configuration = vscode.workspace.getConfiguration('tenantApi.quota');
    const rows = usageRows(deps.api.quota.readings(), {
      now: Date.now(),
      locale: vscode.env.language,
      thresholds: sanitizeThresholds({
        warningPercent: configuration.get<number>('warningPercent'),
        errorPercent: configuration.get<number>('errorPercent'),
      }),
      isBlocked: (organization) => deps.api.quota.isBlocked(organization),
    });
    if (rows.length === 0) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('No API usage seen yet. Every response reports its organization\'s weekly usage; send a request to see it.'),
      );
      return;
    }
    const icon = { normal: 'pass', warning: 'warning', error: 'error' } as const;
    const picked = await vscode.window.showQuickPick(
      rows.map((row) => ({ ...row, iconPath: new vscode.ThemeIcon(icon[row.severity]) })),
      { title: vscode.l10n.t('API usage per organization (this week)'), matchOnDescription: true },
    );
    if (picked && deps.api.quota.isBlocked(picked.organization)) {
      const resume = vscode.l10n.t('Resume Calls');
      const answer = await vscode.window.showWarningMessage(
        vscode.l10n.t('Calls for {0} are stopped after the weekly limit was reached. Resume them?', picked.organization),
        resume,
      );
      if (answer === resume) await vscode.commands.executeCommand('tenantApi.resumeOrganization', picked.organization);
    }
  });

  return { runner, history };
}

/** A scripted call passes an object with a method; the view title and palette pass nothing. */
function isArgumentObject(args: unknown): boolean {
  return typeof args === 'object' && args !== null && !('kind' in args) && ('method' in args || 'path' in args);
}

function tenantDefaults(args: unknown): { tenantId?: string } {
  const node = args as Partial<TenantNode> | undefined;
  return node?.kind === 'tenant' && node.tenant ? { tenantId: node.tenant.id } : {};
}

function resourceTarget(args: unknown): { tenantId?: string; method: string; path: string } | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const node = args as Partial<ResourceNode>;
  if (node.kind === 'resource' && node.tenant && node.endpoint) {
    return { tenantId: node.tenant.id, method: node.endpoint.method, path: node.endpoint.path };
  }
  const plain = args as { tenantId?: unknown; method?: unknown; path?: unknown };
  if (typeof plain.path !== 'string') return undefined;
  return {
    tenantId: typeof plain.tenantId === 'string' ? plain.tenantId : undefined,
    method: typeof plain.method === 'string' ? plain.method : 'GET',
    path: plain.path,
  };
}

function tenantIdOf(args: unknown): string | undefined {
  if (typeof args === 'string') return args;
  const node = args as Partial<TenantNode> | { tenantId?: unknown } | undefined;
  if (node && 'kind' in node && node.kind === 'tenant' && node.tenant) return node.tenant.id;
  if (node && 'tenantId' in node && typeof node.tenantId === 'string') return node.tenantId;
  return undefined;
}

async function pickHistoryEntry(history: RequestHistory): Promise<HistoryEntry | undefined> {
  const entries = history.entries();
  if (entries.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No requests yet. Send one with "Tenant API: Send Request".'));
    return undefined;
  }
  type Item = vscode.QuickPickItem & { entry?: HistoryEntry; index?: number; clear?: boolean };
  const copyButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('copy'), tooltip: vscode.l10n.t('Copy as cURL') };
  const items: Item[] = entries.map((entry, index) => ({
    label: `${entry.method} ${entry.path}${formatQuery(entry.query)}`,
    description: [entry.tenantLabel, entry.status !== undefined ? String(entry.status) : undefined].filter(Boolean).join(' · '),
    detail: new Date(entry.at).toLocaleString(vscode.env.language),
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
      void vscode.commands.executeCommand('tenantApi.copyAsCurl', { index: event.item.index });
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

/** A history entry as a cURL source; the headers the client adds are rebuilt from the route table. */
function fromHistory(entry: HistoryEntry | undefined, api: TenantApi): LastRequest | undefined {
  if (!entry?.url) return undefined;
  const route = api.routeFor(entry.path);
  const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: '' };
  if (route?.module) headers['Authorization-Key'] = '';
  if (route?.tenantScoped && entry.tenantId) headers['User-Tenant'] = entry.tenantId;
  Object.assign(headers, entry.headers ?? {});
  return { method: entry.method, path: entry.path, url: entry.url, requestHeaders: headers, bodyText: entry.body, tenantId: entry.tenantId };
}

export { RequestInputError };
