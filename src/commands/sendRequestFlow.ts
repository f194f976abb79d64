import * as vscode from 'vscode';
import { needsTenant } from '../api/routes';
import type { TenantDirectory } from '../api/tenantDirectory';
import type { TenantApi, TenantRecord } from '../api/types';
import { readBaseUrl } from '../settings/editorSettings';
import type { ActiveTenantStore } from '../views/activeTenant';
import { formatQuery, type RequestHistory } from './requestHistory';
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

const BACK = Symbol('back');
/** What pick() and input() resolve with: a value, Back, or undefined when the user cancelled. */
type StepResult<T> = T | typeof BACK | undefined;
/** What a step resolves with. */
type Step = 'next' | 'back' | 'cancel';

function outcome(result: StepResult<unknown>): Step {
  return result === undefined ? 'cancel' : result === BACK ? 'back' : 'next';
}

interface FlowState {
  /** Listed first in the tenant step (the tenant the command was run on), else the active tenant. */
  preferredTenantId?: string;
  method?: string;
  path?: string;
  query?: string;
  tenant?: TenantRecord | null;
  body?: string;
  headers?: string;
}

interface FlowDeps {
  api: TenantApi;
  tenants: Pick<TenantDirectory, 'tenants'>;
  activeTenant: Pick<ActiveTenantStore, 'get'>;
  history: RequestHistory;
  baseUrl?: () => string;
}

/**
 * The quick-input flow of tenantApi.sendRequest: method, path (known endpoints and history),
 * tenant where the path needs one (its cluster is the host), query, body, extra headers.
 * Back goes to the previous step; Escape cancels. Returns the request to send or undefined.
 */
export async function askForRequest(deps: FlowDeps, initial: Partial<SendRequestArgs> = {}): Promise<NormalizedRequest | undefined> {
  const state: FlowState = { method: initial.method, path: initial.path, preferredTenantId: initial.tenantId };
  const steps: Array<() => Promise<Step>> = [
    () => pickMethod(state),
    () => pickPath(deps, state),
    () => pickTenant(deps, state),
    () => askQuery(state),
    () => askBody(state),
    () => askHeaders(state),
  ];
  // A step that does not apply (no tenant for a base path, no body for GET) returns at once;
  // Back from the next step must skip it too, so remember which steps really asked.
  const asked: number[] = [];
  let index = 0;
  while (index < steps.length) {
    const shown = { value: false };
    currentStepShown = shown;
    const result = await steps[index]();
    if (result === 'cancel') return undefined;
    if (result === 'back') {
      index = asked.pop() ?? 0;
      continue;
    }
    if (shown.value) asked.push(index);
    index++;
  }
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

/** Set by each step that shows an input, so that Back can skip the steps that did not. */
let currentStepShown = { value: false };

function title(what: string): string {
  currentStepShown.value = true;
  return vscode.l10n.t('Send Request: {0}', what);
}

async function pickMethod(state: FlowState): Promise<Step> {
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
  return 'next';
}

async function pickPath(deps: FlowDeps, state: FlowState): Promise<Step> {
  const known = deps.api.endpoints();
  const seen = new Set<string>();
  const items: Array<vscode.QuickPickItem & { path?: string }> = [];
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
    const quickPick = vscode.window.createQuickPick<vscode.QuickPickItem & { path?: string }>();
    const baseTitle = title(vscode.l10n.t('path'));
    quickPick.title = baseTitle;
    quickPick.placeholder = vscode.l10n.t('Path, for example /api/configurazioni (a query such as ?pagina=2 may follow)');
    quickPick.buttons = [vscode.QuickInputButtons.Back];
    quickPick.matchOnDescription = true;
    quickPick.value = state.path ? state.path + (state.query ? formatQuery(splitPathAndQuery('?' + state.query).query) : '') : '';
    const typedItem = (value: string) => ({
      label: value,
      path: value,
      description: vscode.l10n.t('the path you typed'),
      alwaysShow: true,
      iconPath: new vscode.ThemeIcon('edit'),
    });
    const refreshItems = () => {
      const value = quickPick.value.trim();
      quickPick.items = value !== '' && !seen.has(value) ? [typedItem(value), ...items] : items;
    };
    refreshItems();
    const finish = settleOnce<Step>(resolve, quickPick);
    quickPick.onDidChangeValue(() => {
      quickPick.title = baseTitle;
      refreshItems();
    });
    quickPick.onDidTriggerButton(() => finish('back'));
    quickPick.onDidAccept(() => {
      const value = quickPick.selectedItems[0]?.path ?? quickPick.value.trim();
      const split = splitPathAndQuery(value);
      const error =
        validatePath(split.path) ??
        (deps.api.routeFor(split.path)
          ? undefined
          : vscode.l10n.t('No route is known for {0}. Add a rule to the setting tenantApi.routes.', split.path));
      if (error) {
        quickPick.title = `${baseTitle} · ${error}`;
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
  const tenantNeeded = needsTenant(route);
  if (route && !tenantNeeded) {
    state.tenant = null;
    return 'next';
  }
  const quickPick = vscode.window.createQuickPick<vscode.QuickPickItem & { tenant?: TenantRecord | null }>();
  const baseTitle = title(tenantNeeded ? vscode.l10n.t('tenant') : vscode.l10n.t('host'));
  quickPick.title = baseTitle;
  quickPick.placeholder = tenantNeeded
    ? vscode.l10n.t('Tenant: the call goes to its cluster with its User-Tenant header')
    : vscode.l10n.t('Host: the base URL, or a tenant\'s cluster');
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
  if (!tenantNeeded) {
    const baseUrl = (deps.baseUrl ?? readBaseUrl)();
    items.push({ label: vscode.l10n.t('Base host'), description: baseUrl, tenant: null, iconPath: new vscode.ThemeIcon('globe') });
  }
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
        quickPick.title = `${baseTitle} · ${chosen.tenant.unusableReason ?? vscode.l10n.t('This tenant cannot be called.')}`;
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

async function pick<T extends vscode.QuickPickItem>(
  items: T[],
  options: { title: string; placeholder: string; active?: string; back: boolean },
): Promise<StepResult<T>> {
  const quickPick = vscode.window.createQuickPick<T>();
  quickPick.title = options.title;
  quickPick.placeholder = options.placeholder;
  quickPick.items = items;
  if (options.back) quickPick.buttons = [vscode.QuickInputButtons.Back];
  const active = items.find((item) => item.label === options.active);
  if (active) quickPick.activeItems = [active];
  return new Promise((resolve) => {
    const finish = settleOnce<StepResult<T>>(resolve, quickPick);
    quickPick.onDidTriggerButton(() => finish(BACK));
    quickPick.onDidAccept(() => {
      const chosen = quickPick.selectedItems[0];
      if (chosen) finish(chosen);
    });
    quickPick.onDidHide(() => finish(undefined));
    quickPick.show();
  });
}

function input(options: {
  title: string;
  prompt: string;
  value: string;
  validate: (value: string) => string | undefined;
  accept: (value: string) => void;
  /** Offers a button that opens an untitled JSON editor for a value longer than one line. */
  editor?: { tooltip: string; prompt: string; initial: string };
}): Promise<Step> {
  const box = vscode.window.createInputBox();
  box.title = options.title;
  box.prompt = options.prompt;
  box.value = options.value;
  const editorButton: vscode.QuickInputButton | undefined = options.editor
    ? { iconPath: new vscode.ThemeIcon('go-to-file'), tooltip: options.editor.tooltip }
    : undefined;
  box.buttons = editorButton ? [vscode.QuickInputButtons.Back, editorButton] : [vscode.QuickInputButtons.Back];
  box.ignoreFocusOut = false;
  let document: vscode.TextDocument | undefined;
  const current = () => (document && !document.isClosed ? document.getText() : box.value);
  return new Promise((resolve) => {
    const finish = settleOnce<Step>(resolve, box);
    box.onDidChangeValue((value) => {
      box.validationMessage = options.validate(value);
    });
    box.onDidTriggerButton(async (button) => {
      if (button !== editorButton || !options.editor) return finish('back');
      // The box stays open while the user writes in the editor; Enter in the box takes the editor's text.
      box.ignoreFocusOut = true;
      box.prompt = options.editor.prompt;
      document ??= await vscode.workspace.openTextDocument({ language: 'json', content: box.value || options.editor.initial });
      await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: false });
    });
    box.onDidAccept(() => {
      const value = current();
      const error = options.validate(value);
      box.validationMessage = error;
      if (error) return;
      options.accept(value);
      // Close the scratch editor first: closing it later would take the focus from the next step.
      void closeWithoutSaving(document).finally(() => finish('next'));
    });
    box.onDidHide(() => finish('cancel'));
    box.show();
  });
}

/** The body editor was only a scratch pad: its text is taken, so close it without a save prompt. */
async function closeWithoutSaving(document: vscode.TextDocument | undefined): Promise<void> {
  if (!document || document.isClosed) return;
  await vscode.window.showTextDocument(document, { preview: false, preserveFocus: false });
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
}

/** Resolves a step once and disposes its input: hiding the input (dispose does) would settle it again. */
function settleOnce<R>(resolve: (result: R) => void, input: { dispose(): void }): (result: R) => void {
  let done = false;
  return (result) => {
    if (done) return;
    done = true;
    resolve(result);
    input.dispose();
  };
}
