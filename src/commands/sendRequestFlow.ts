import * as vscode from 'vscode';
import { needsTenant, proposeRule } from '../api/routes';
import type { TenantRecord } from '../api/types';
import { formatQuery } from './requestHistory';
import { input, isProblemItem, problemItem, settleOnce, title, trackStep, type Step } from './quickInputSteps';
import { runSteps } from './stepSequence';
import { acceptPastedCurl } from './curlPasteStep';
import { isCurlCommand } from '../engine/importers/curl';
import { askRoute, ensureSignedIn, flowRoute, offerLicenceKey, type FlowDeps, type FlowState } from './sendRequestChecks';
import { addressTarget } from './addressTarget';
import { askOperationParameters, offerWhenRead, operationItems } from './catalogueSuggestions';
import {
  isAddress,
  methodTakesBody,
  normalizeArgs,
  parseHeaderText,
  parseRequestLine,
  splitPathAndQuery,
  validateJsonBody,
  type NormalizedRequest,
  type SendRequestArgs,
} from './requestInput';

/**
 * The quick-input flow of tenantApi.sendRequest. Its first step takes the whole request on one line
 * (`GET /efat/api/v1/ditte?pagina=1`; a bare path is a GET; an address typed whole is taken as request
 * files take it: src/commands/addressTarget.ts), or a known or recent path; then only what
 * the request needs: the host and licence module of a path no rule matches (this time only, or
 * remembered as a rule), the licence key when the path's module has none, the tenant where the path
 * needs one. Query, body and extra headers are asked only when the user opens them in the first step.
 * Signed out, it offers Sign In before asking anything. Each problem is shown at the step where it can
 * be known. Back goes to the previous step; Escape cancels. Returns the request to send or undefined.
 */
export async function askForRequest(deps: FlowDeps, initial: Partial<SendRequestArgs> = {}): Promise<NormalizedRequest | undefined> {
  if (!(await ensureSignedIn(deps))) return undefined;
  const state: FlowState = { method: initial.method, path: initial.path, preferredTenantId: initial.tenantId, open: {} };
  const steps: Array<() => Promise<Step>> = [
    () => pickRequest(deps, state),
    () => askOperationParameters(deps.catalogues, state),
    () => askRoute(deps, state),
    () => offerLicenceKey(deps, state),
    () => pickTenant(deps, state),
    () => askQuery(state),
    () => askBody(state),
    () => askHeaders(state),
  ];
  if (!(await runSteps(steps, trackStep))) return undefined;
  const headers = parseHeaderText(state.open.headers ? (state.headers ?? '') : '');
  const request = normalizeArgs({
    method: state.method ?? 'GET',
    path: state.path,
    tenantId: state.tenant?.id,
    query: state.query ?? '',
    body: state.open.body ? state.body : undefined,
    headers: { ...state.documentedHeaders?.headers, ...('headers' in headers ? headers.headers : {}) },
  });
  return state.route ? { ...request, route: state.route } : request;
}

type Part = keyof FlowState['open'];
type RequestItem = vscode.QuickPickItem & { method?: string; path?: string; typed?: boolean; part?: Part };

/** The suggestions of the first step: recent paths, then the known endpoints (each a GET), then the catalogues' operations. */
function suggestions(deps: FlowDeps): { items: RequestItem[]; seen: Set<string> } {
  const seen = new Set<string>();
  const items: RequestItem[] = [];
  const recent = deps.history.recentPaths().slice(0, 15);
  if (recent.length > 0) items.push({ label: vscode.l10n.t('Recent'), kind: vscode.QuickPickItemKind.Separator });
  for (const path of recent) {
    seen.add(path);
    items.push({ label: path, path, iconPath: new vscode.ThemeIcon('history') });
  }
  const endpoints = deps.api.endpoints().filter((endpoint) => !seen.has(endpoint.path));
  if (endpoints.length > 0) items.push({ label: vscode.l10n.t('Known endpoints'), kind: vscode.QuickPickItemKind.Separator });
  for (const endpoint of endpoints) {
    seen.add(endpoint.path);
    items.push({
      label: endpoint.path,
      path: endpoint.path,
      method: endpoint.method.toUpperCase(),
      description: `${endpoint.label} · ${endpoint.method.toUpperCase()}`,
      iconPath: new vscode.ThemeIcon('symbol-interface'),
    });
  }
  items.push(...operationItems(deps.catalogues, seen));
  return { items, seen };
}

/** The items that open an optional step, ticked once opened; the body only for a method that takes one. */
function partItems(state: FlowState, method: string): RequestItem[] {
  const parts: Array<[Part, string]> = [
    ['query', vscode.l10n.t('Add query parameters')],
    ...(methodTakesBody(method) ? [['body', vscode.l10n.t('Add a JSON body')] as [Part, string]] : []),
    ['headers', vscode.l10n.t('Add extra headers')],
  ];
  return parts.map(([part, label]) => ({
    label: `${state.open[part] ? '$(check)' : '$(add)'} ${label}`,
    description: state.open[part] ? vscode.l10n.t('asked after the path') : vscode.l10n.t('optional'),
    part,
    alwaysShow: true,
  }));
}

/** The line the box starts with: the request as typed before (Back), else empty. */
function typedBefore(state: FlowState): string {
  if (!state.path) return '';
  const query = state.query ? formatQuery(splitPathAndQuery('?' + state.query).query) : '';
  return `${state.method && state.method !== 'GET' ? `${state.method} ` : ''}${state.path}${query}`;
}

/** The request typed in the box, as an item (first when filtering: it matches best). */
function typedItem(line: { method: string; path: string; query: Record<string, string> }): RequestItem {
  return {
    label: `${line.method} ${line.path}${formatQuery(line.query)}`,
    typed: true,
    description: isAddress(line.path)
      ? vscode.l10n.t('an address: on a platform host it is sent as its path, elsewhere without your credentials')
      : vscode.l10n.t('the request you typed'),
    alwaysShow: true,
    iconPath: new vscode.ThemeIcon('edit'),
  };
}

async function pickRequest(deps: FlowDeps, state: FlowState): Promise<Step> {
  const { items, seen } = suggestions(deps);
  return new Promise((resolve) => {
    const quickPick = vscode.window.createQuickPick<RequestItem>();
    const baseTitle = title(vscode.l10n.t('path'));
    quickPick.title = baseTitle;
    quickPick.placeholder = vscode.l10n.t('Path, or the whole request: GET /efat/api/v1/ditte?pagina=1 (a path alone is a GET)');
    quickPick.matchOnDescription = true;
    quickPick.value = typedBefore(state);
    // The editor names the item the user accepted by its index in the list it shows, which may be the
    // list before the last keystroke's update: so the items that come and go (the typed request, the
    // optional parts, a problem) stay after the suggestions, whose indices then never change. The
    // editor still lists the typed request first when filtering (it matches best).
    const refreshItems = (problem?: string) => {
      const value = quickPick.value.trim();
      const line = value === '' ? undefined : parseRequestLine(value);
      const typed: RequestItem[] = line && 'path' in line && !seen.has(value) ? [typedItem(line)] : [];
      // A line that is not a request yet offers no parts: Enter must say what is wrong, not tick a part.
      const parts = !line ? partItems(state, 'GET') : 'method' in line ? partItems(state, line.method) : [];
      quickPick.items = [...items, ...typed, ...parts, ...(problem ? [problemItem<RequestItem>(problem)] : [])];
      return typed[0];
    };
    refreshItems();
    // After the suggestions already shown: their places in the list do not change.
    offerWhenRead(deps.catalogues, quickPick, () => {
      items.push(...operationItems(deps.catalogues, seen));
      refreshItems();
    });
    const finish = settleOnce<Step>(resolve, quickPick);
    quickPick.onDidChangeValue(() => {
      quickPick.title = baseTitle;
      refreshItems();
    });
    // A pasted cURL command or an address: the box waits for it, then goes on or says why not.
    const settleWith = (pending: Promise<string | undefined>) => {
      quickPick.busy = true;
      void pending.then((problem) => {
        quickPick.busy = false;
        if (!problem) return finish('next');
        quickPick.title = `${baseTitle} · ${problem}`;
        refreshItems(problem);
      });
    };
    quickPick.onDidAccept(() => {
      // A pasted cURL command: the request it sends goes on to the next steps.
      if (isCurlCommand(quickPick.value)) return settleWith(acceptPastedCurl(deps, state, quickPick.value));
      const selected = quickPick.selectedItems[0];
      if (selected?.part) {
        // Ticks the part (or unticks it) and stays: Enter again on the request goes on.
        state.open[selected.part] = !state.open[selected.part];
        const typed = refreshItems();
        const first = typed ?? quickPick.items.find((item) => item.path !== undefined);
        if (first) quickPick.activeItems = [first];
        return;
      }
      // The typed item may carry the value before the last keystroke: the box has the current one.
      const chosen = isProblemItem(selected) || selected?.typed || !selected?.path ? undefined : selected;
      const line = chosen ? { method: chosen.method ?? 'GET', path: chosen.path!, query: {} } : parseRequestLine(quickPick.value);
      if (!('error' in line) && isAddress(line.path)) return settleWith(acceptAddress(deps, state, line));
      // A path no rule matches is fine: the next step asks which host serves it.
      const error = 'error' in line ? line.error : deps.api.routeFor(line.path) || proposeRule(line.path) ? undefined : noRuleFor(line.path);
      if (error || 'error' in line) {
        quickPick.title = `${baseTitle} · ${error}`;
        refreshItems(error);
        return;
      }
      state.method = line.method;
      state.path = line.path;
      state.query = Object.keys(line.query).length > 0 ? new URLSearchParams(line.query).toString() : undefined;
      finish('next');
    });
    quickPick.onDidHide(() => finish('cancel'));
    quickPick.show();
  });
}

/** An address typed whole: its platform path (and tenant), else sent as typed; a sentence when it cannot be sent. */
async function acceptAddress(deps: FlowDeps, state: FlowState, line: { method: string; path: string; query: Record<string, string> }): Promise<string | undefined> {
  const target = await addressTarget(line.path, line.query, {
    baseUrl: () => deps.baseUrl?.() ?? '',
    tenants: () => deps.tenants.tenants().catch(() => []),
    routeFor: (path) => deps.api.routeFor(path),
  });
  if (target.kind === 'error') return target.message;
  const path = target.kind === 'path' ? target.path : line.path;
  const query = target.kind === 'path' ? target.query : line.query;
  state.method = line.method;
  state.path = path;
  state.query = Object.keys(query).length > 0 ? new URLSearchParams(query).toString() : undefined;
  if (target.kind === 'path' && target.tenantId) state.preferredTenantId = target.tenantId;
  return undefined;
}

async function pickTenant(deps: FlowDeps, state: FlowState): Promise<Step> {
  const route = flowRoute(deps, state);
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
  if (!state.open.query) return Promise.resolve('next');
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
  if (!state.open.body || !state.method || !methodTakesBody(state.method)) return Promise.resolve('next');
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
  if (!state.open.headers) return Promise.resolve('next');
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
