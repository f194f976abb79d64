import * as vscode from 'vscode';
import { needsTenant, proposeRule } from '../api/routes';
import type { TenantRecord } from '../api/types';
import { formatQuery } from './requestHistory';
import { BACK, input, isProblemItem, outcome, pick, problemItem, settleOnce, title, trackStep, type Step } from './quickInputSteps';
import { runSteps } from './stepSequence';
import { askRoute, ensureSignedIn, offerLicenceKey, type FlowDeps, type FlowState } from './sendRequestChecks';
import {
  METHODS,
  methodTakesBody,
  normalizeArgs,
  parseHeaderText,
  splitPathAndQuery,
  validateJsonBody,
  validatePath,
  type NormalizedRequest,
  type SendRequestArgs,
} from './requestInput';

/**
 * The quick-input flow of tenantApi.sendRequest: method, path (known endpoints and history), the host
 * and licence module of a path no rule matches (asked once, then a rule), the licence key when the
 * path's module has none, the tenant where the path needs one (its cluster is the host), query, body,
 * extra headers. Signed out, it offers Sign In before asking anything. Each problem is shown at the
 * step where it can be known. Back goes to the previous step; Escape cancels. Returns the request to
 * send or undefined.
 */
export async function askForRequest(deps: FlowDeps, initial: Partial<SendRequestArgs> = {}): Promise<NormalizedRequest | undefined> {
  if (!(await ensureSignedIn(deps))) return undefined;
  const state: FlowState = { method: initial.method ?? deps.lastMethod.get(), path: initial.path, preferredTenantId: initial.tenantId };
  const steps: Array<() => Promise<Step>> = [
    () => pickMethod(deps, state),
    () => pickPath(deps, state),
    () => askRoute(deps, state),
    () => offerLicenceKey(deps, state),
    () => pickTenant(deps, state),
    () => askQuery(state),
    () => askBody(state),
    () => askHeaders(state),
  ];
  if (!(await runSteps(steps, trackStep))) return undefined;
  const headers = parseHeaderText(state.headers ?? '');
  return normalizeArgs({
    method: state.method,
    path: state.path,
    tenantId: state.tenant?.id,
    query: state.query ?? '',
    body: state.body,
    headers: 'headers' in headers ? headers.headers : {},
  });
}

async function pickMethod(deps: Pick<FlowDeps, 'lastMethod'>, state: FlowState): Promise<Step> {
  const items = METHODS.map((method) => ({
    label: method,
    description: methodTakesBody(method) ? vscode.l10n.t('with a JSON body') : undefined,
  }));
  const picked = await pick(items, {
    title: title(vscode.l10n.t('method')),
    placeholder: vscode.l10n.t('HTTP method'),
    active: state.method,
    back: false,
  });
  if (picked === undefined || picked === BACK) return outcome(picked);
  state.method = picked.label;
  if (!methodTakesBody(state.method)) state.body = undefined;
  void deps.lastMethod.set(state.method);
  return 'next';
}

type PathItem = vscode.QuickPickItem & { path?: string; typed?: boolean };

async function pickPath(deps: FlowDeps, state: FlowState): Promise<Step> {
  const known = deps.api.endpoints();
  const seen = new Set<string>();
  const items: PathItem[] = [];
  const recent = deps.history.recentPaths().slice(0, 15);
  if (recent.length > 0) items.push({ label: vscode.l10n.t('Recent'), kind: vscode.QuickPickItemKind.Separator });
  for (const path of recent) {
    seen.add(path);
    items.push({ label: path, path, iconPath: new vscode.ThemeIcon('history') });
  }
  const endpoints = known.filter((endpoint) => !seen.has(endpoint.path));
  if (endpoints.length > 0) items.push({ label: vscode.l10n.t('Known endpoints'), kind: vscode.QuickPickItemKind.Separator });
  for (const endpoint of endpoints) {
    seen.add(endpoint.path);
    items.push({
      label: endpoint.path,
      path: endpoint.path,
      description: `${endpoint.label} · ${endpoint.method.toUpperCase()}`,
      iconPath: new vscode.ThemeIcon('symbol-interface'),
    });
  }

  return new Promise((resolve) => {
    const quickPick = vscode.window.createQuickPick<PathItem>();
    const baseTitle = title(vscode.l10n.t('path'));
    quickPick.title = baseTitle;
    quickPick.placeholder = vscode.l10n.t('Path, for example /api/configurazioni (a query such as ?pagina=2 may follow)');
    quickPick.buttons = [vscode.QuickInputButtons.Back];
    quickPick.matchOnDescription = true;
    quickPick.value = state.path ? state.path + (state.query ? formatQuery(splitPathAndQuery('?' + state.query).query) : '') : '';
    const typedItem = (value: string) => ({
      label: value,
      path: value,
      typed: true,
      description: vscode.l10n.t('the path you typed'),
      alwaysShow: true,
      iconPath: new vscode.ThemeIcon('edit'),
    });
    // The editor names the item the user accepted by its index in the list it shows, which may be the
    // list before the last keystroke's update: so the items that come and go (the typed path, a
    // problem) stay after the suggestions, whose indices then never change. The editor still lists the
    // typed path first when filtering (it matches best), and a problem after the matches.
    const refreshItems = (problem?: string) => {
      const value = quickPick.value.trim();
      const typed = value !== '' && !seen.has(value) ? [typedItem(value)] : [];
      quickPick.items = [...items, ...typed, ...(problem ? [problemItem<PathItem>(problem)] : [])];
    };
    refreshItems();
    const finish = settleOnce<Step>(resolve, quickPick);
    quickPick.onDidChangeValue(() => {
      quickPick.title = baseTitle;
      refreshItems();
    });
    quickPick.onDidTriggerButton(() => finish('back'));
    quickPick.onDidAccept(() => {
      const selected = quickPick.selectedItems[0];
      // The typed item may carry the value before the last keystroke: the box has the current one.
      const value = (isProblemItem(selected) || selected?.typed ? undefined : selected?.path) ?? quickPick.value.trim();
      const split = splitPathAndQuery(value);
      // A path no rule matches is fine: the next step asks which host serves it.
      const error = validatePath(split.path) ?? (deps.api.routeFor(split.path) || proposeRule(split.path) ? undefined : noRuleFor(split.path));
      if (error) {
        quickPick.title = `${baseTitle} · ${error}`;
        refreshItems(error);
        return;
      }
      state.path = split.path;
      if (Object.keys(split.query).length > 0) state.query = new URLSearchParams(split.query).toString();
      finish('next');
    });
    quickPick.onDidHide(() => finish('cancel'));
    quickPick.show();
  });
}

async function pickTenant(deps: FlowDeps, state: FlowState): Promise<Step> {
  const route = deps.api.routeFor(state.path ?? '/');
  // askRoute ran before: every path has a rule here, and only a tenant-scoped one asks for a tenant.
  if (!needsTenant(route)) {
    state.tenant = null;
    return 'next';
  }
  const quickPick = vscode.window.createQuickPick<vscode.QuickPickItem & { tenant?: TenantRecord | null }>();
  const baseTitle = title(vscode.l10n.t('tenant'));
  quickPick.title = baseTitle;
  quickPick.placeholder = vscode.l10n.t('Tenant: the call goes to its cluster with its User-Tenant header');
  quickPick.buttons = [vscode.QuickInputButtons.Back];
  quickPick.busy = true;
  quickPick.show();
  let tenants: TenantRecord[] = [];
  let loadError: string | undefined;
  try {
    tenants = await deps.tenants.tenants();
  } catch (error) {
    loadError = error instanceof Error ? error.message : String(error);
  }
  const activeId = deps.activeTenant.get()?.id;
  const firstId = state.preferredTenantId ?? activeId;
  const ordered = [...tenants].sort((a, b) => Number(b.id === firstId) - Number(a.id === firstId));
  const items: Array<vscode.QuickPickItem & { tenant?: TenantRecord | null }> = [];
  for (const tenant of ordered) {
    items.push({
      label: tenant.descrizioneAmbienteDati || tenant.id,
      description: [tenant.codiceAmbienteDati, tenant.id === activeId ? vscode.l10n.t('active') : undefined]
        .filter(Boolean)
        .join(' · '),
      detail: tenant.usable ? tenant.clusterAddress : `$(warning) ${tenant.unusableReason ?? tenant.clusterAddress}`,
      tenant,
      iconPath: new vscode.ThemeIcon(tenant.usable ? 'database' : 'warning'),
    });
  }
  if (loadError) {
    items.push({ label: `$(error) ${vscode.l10n.t('Could not list your tenants: {0}', loadError)}`, alwaysShow: true });
  }
  quickPick.items = items;
  quickPick.busy = false;
  const current = items.find((item) => item.tenant !== undefined && (item.tenant?.id ?? null) === (state.tenant?.id ?? null));
  if (current) quickPick.activeItems = [current];
  return new Promise((resolve) => {
    const finish = settleOnce<Step>(resolve, quickPick);
    quickPick.onDidTriggerButton(() => finish('back'));
    quickPick.onDidAccept(() => {
      const chosen = quickPick.selectedItems[0];
      if (!chosen || chosen.tenant === undefined) return;
      if (chosen.tenant && !chosen.tenant.usable) {
        const problem = chosen.tenant.unusableReason ?? vscode.l10n.t('This tenant cannot be called.');
        quickPick.title = `${baseTitle} · ${problem}`;
        quickPick.items = [problemItem(problem), ...items];
        return;
      }
      state.tenant = chosen.tenant;
      finish('next');
    });
    quickPick.onDidHide(() => finish('cancel'));
  });
}

function askQuery(state: FlowState): Promise<Step> {
  return input({
    title: title(vscode.l10n.t('query')),
    prompt: vscode.l10n.t('Query parameters (optional), for example pagina=2&dimensionePagina=50'),
    value: state.query ?? '',
    validate: (value) => (/\s/.test(value.trim()) ? vscode.l10n.t('Encode spaces as %20 or +.') : undefined),
    accept: (value) => {
      state.query = value.trim().replace(/^\?/, '');
    },
  });
}

function askBody(state: FlowState): Promise<Step> {
  if (!state.method || !methodTakesBody(state.method)) return Promise.resolve('next');
  return input({
    title: title(vscode.l10n.t('body')),
    prompt: vscode.l10n.t('JSON body (optional), for example {"descrizione": "Nuova"}'),
    value: state.body ?? '',
    validate: validateJsonBody,
    accept: (value) => {
      state.body = value.trim() === '' ? undefined : value;
    },
    editor: {
      tooltip: vscode.l10n.t('Write the body in an editor'),
      prompt: vscode.l10n.t('Write the JSON body in the editor beside, then press Enter here.'),
      initial: state.body ?? '{\n  \n}\n',
    },
  });
}

function askHeaders(state: FlowState): Promise<Step> {
  return input({
    title: title(vscode.l10n.t('extra headers')),
    prompt: vscode.l10n.t(
      'Extra headers (optional), "Name: value" separated by ";". Authorization, Authorization-Key and User-Tenant are set for you.',
    ),
    value: state.headers ?? '',
    validate: (value) => {
      const parsed = parseHeaderText(value);
      return 'error' in parsed ? parsed.error : undefined;
    },
    accept: (value) => {
      state.headers = value;
    },
  });
}


function noRuleFor(path: string): string {
  return vscode.l10n.t('No route is known for {0}. Add a rule to the setting tenantApi.routes.', path);
}
