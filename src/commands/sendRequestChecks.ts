import * as vscode from 'vscode';
import { proposeRule } from '../api/routes';
import type { TenantDirectory } from '../api/tenantDirectory';
import type { RouteRule, TenantApi, TenantRecord } from '../api/types';
import type { ActiveTenantStore } from '../api/activeTenant';
import { BACK, outcome, pick, problemItem, title, type Step } from './quickInputSteps';
import { routeHostItems, routeModuleItems, saveRouteAndWait, type RouteHostItem, type RouteModuleItem } from './routeQuestion';
import type { RequestHistory } from './requestHistory';
import { isAddress } from './requestInput';
import type { CatalogueSet } from '../catalog/catalogues';

/*
 * The checks of the Send Request flow that can stop a request before it is sent, each at the first
 * step where it can be known: signed out (before anything is asked), a path no rule matches (right
 * after the path: the user answers once and the answer becomes a rule), a licence key missing (right
 * after the path, fixed there with Set Licence Key).
 */

export interface FlowState {
  /** Listed first in the tenant step (the tenant the command was run on), else the active tenant. */
  preferredTenantId?: string;
  method?: string;
  path?: string;
  query?: string;
  tenant?: TenantRecord | null;
  body?: string;
  headers?: string;
  /** The required header parameters of the documented operation chosen, as answered for its method and path (sent beside the extra headers). */
  documentedHeaders?: { method: string; path: string; headers: Record<string, string> };
  /** The rule answered for a path no rule matches, when the user chose "this time only". */
  route?: RouteRule;
  /** The optional steps the user opened in the path step; the others are not asked. */
  open: { query?: boolean; body?: boolean; headers?: boolean };
}

/** The route of the flow's path: the one answered for this request, else the route table's. */
export function flowRoute(deps: Pick<FlowDeps, 'api'>, state: FlowState): RouteRule | undefined {
  return state.route ?? deps.api.routeFor(state.path ?? '/');
}

export interface FlowDeps {
  api: TenantApi;
  tenants: Pick<TenantDirectory, 'tenants'>;
  activeTenant: Pick<ActiveTenantStore, 'get'>;
  history: RequestHistory;
  baseUrl?: () => string;
  auth: { getAccounts(): Promise<unknown[]> };
  /** Runs Sign In; true once an account is signed in. */
  signIn(): Promise<boolean>;
  hasLicenceKey(module: string): Promise<boolean>;
  /** Runs Set Licence Key for the module; true when a key was stored. */
  setLicenceKey(module: string): Promise<boolean>;
  /** The licence modules of the route table in force. */
  modules(): string[];
  /** Remembers a rule in the route table the client reads (tenantApi.routes). */
  saveRoute(rule: RouteRule): Promise<void>;
  /** The catalogues whose operations the first step offers. */
  catalogues?: CatalogueSet;
}

/** Signed out, offers Sign In before anything is asked; true when an account is (now) signed in. */
export async function ensureSignedIn(deps: Pick<FlowDeps, 'auth' | 'signIn'>): Promise<boolean> {
  if ((await deps.auth.getAccounts()).length > 0) return true;
  const signIn = vscode.l10n.t('Sign In');
  const answer = await vscode.window.showWarningMessage(vscode.l10n.t('Send Request needs you to be signed in.'), signIn);
  return answer === signIn && (await deps.signIn());
}

type KeepItem = vscode.QuickPickItem & { remember: boolean };

/**
 * A path no rule matches: asks which host serves it and which module's licence key it needs, then
 * whether to use that for this request only (first: a mistyped path must not leave a rule behind) or
 * to remember it as a rule for the path's first segment in tenantApi.routes, so the next path there
 * is not asked about.
 */
export async function askRoute(deps: FlowDeps, state: FlowState): Promise<Step> {
  const path = state.path ?? '/';
  state.route = undefined;
  // An address on another host (a platform one became its path already) needs no route: it goes without credentials.
  if (deps.api.routeFor(path) || isAddress(path)) return 'next';
  const prefix = proposeRule(path)?.prefix ?? path;
  for (;;) {
    const host = await pick<RouteHostItem>(routeHostItems(deps.baseUrl?.()), {
      title: title(vscode.l10n.t('host for {0}', prefix)),
      placeholder: vscode.l10n.t('No rule says which host serves {0}. Which one?', prefix),
      back: true,
    });
    if (host === undefined || host === BACK) return outcome(host);
    const module = await pick<RouteModuleItem>(routeModuleItems(deps.modules()), {
      title: title(vscode.l10n.t('licence key for {0}', prefix)),
      placeholder: vscode.l10n.t('Which module\'s licence key (Authorization-Key) do calls to {0} need?', prefix),
      back: true,
    });
    if (module === undefined) return 'cancel';
    if (module === BACK) continue;
    const rule = proposeRule(path, { host: host.host ?? 'base', module: module.module ?? undefined });
    if (!rule) return 'back';
    const keep = await pick<KeepItem>(keepItems(rule.prefix), {
      title: title(vscode.l10n.t('remember {0}?', rule.prefix)),
      placeholder: vscode.l10n.t('Use this answer for this request only, or remember it for every path under {0}?', rule.prefix),
      back: true,
    });
    if (keep === undefined) return 'cancel';
    if (keep === BACK) continue;
    if (keep.remember) return saveRule(deps, rule, path);
    state.route = rule;
    return 'next';
  }
}

/** "This time only" first: the answer to a path typed wrong must not become a rule by an Enter. */
function keepItems(prefix: string): KeepItem[] {
  return [
    { label: vscode.l10n.t('This time only'), detail: vscode.l10n.t('Nothing is saved: the next request to {0} asks again.', prefix), remember: false },
    { label: vscode.l10n.t('Remember for {0}', prefix), detail: vscode.l10n.t('Saved as a rule in the setting tenantApi.routes.'), remember: true },
  ];
}

/** Saves the rule, once the client's table has it says so; 'cancel' when it could not be saved. */
async function saveRule(deps: FlowDeps, rule: RouteRule, path: string): Promise<Step> {
  if (!(await saveRouteAndWait(rule, path, { saveRoute: (added) => deps.saveRoute(added), routeFor: (candidate) => deps.api.routeFor(candidate) }))) return 'cancel';
  const host = routeHostItems().find((item) => item.host === rule.host)?.label ?? rule.host;
  void vscode.window.showInformationMessage(
    vscode.l10n.t('Remembered in the setting tenantApi.routes: {0} is served by {1}; licence key: {2}.', rule.prefix, host, rule.module ?? vscode.l10n.t('none')),
  );
  return 'next';
}

type KeyItem = vscode.QuickPickItem & { set?: boolean };

/** The path's module has no licence key: says so right after the path and offers Set Licence Key; the flow goes on once it is set. */
export async function offerLicenceKey(deps: FlowDeps, state: FlowState): Promise<Step> {
  const module = flowRoute(deps, state)?.module;
  if (!module || (await deps.hasLicenceKey(module))) return 'next';
  const problem = vscode.l10n.t('No licence key is set for the module "{0}": the server refuses {1} without one.', module, state.path ?? '');
  for (;;) {
    const picked = await pick<KeyItem>(
      [problemItem<KeyItem>(problem), { label: `$(key) ${vscode.l10n.t('Set Licence Key')}`, description: module, set: true }],
      { title: `${title(vscode.l10n.t('licence key'))} · ${problem}`, placeholder: vscode.l10n.t('Set the key, then the request goes on'), back: true, active: `$(key) ${vscode.l10n.t('Set Licence Key')}` },
    );
    if (picked === undefined || picked === BACK) return outcome(picked);
    if (!picked.set) continue;
    if (await deps.setLicenceKey(module)) return 'next';
  }
}
