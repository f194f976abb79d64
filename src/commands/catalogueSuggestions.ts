import * as vscode from 'vscode';
import { isCredentialHeader } from '../api/requestHeaders';
import type { CatalogueSet } from '../catalog/catalogues';
import type { CatalogueOperation, CatalogueParameter } from '../catalog/types';
import { parameterStep } from './operationCommands';
import { operationRequest, requiredParameters } from './operationInput';
import type { Step } from './quickInputSteps';
import type { FlowState } from './sendRequestChecks';

/*
 * What the catalogues add to Send Request: their operations in the first step (each under its
 * catalogue's title: the method and path with its parameters, the summary beside it), read when the
 * box opens if they were not yet; then, for an operation chosen there, its required parameters asked
 * one box each and its required JSON body opened with the documented example or a sample.
 */

export interface OperationItem extends vscode.QuickPickItem {
  method: string;
  /** The documented path, its parameters as `{name}`: filled by the next step. */
  path: string;
}

function parameterText(parameter: CatalogueParameter): string {
  if (parameter.in === 'path') return `{${parameter.name}}`;
  return parameter.required ? vscode.l10n.t('{0} ({1}, required)', parameter.name, parameter.in) : vscode.l10n.t('{0} ({1})', parameter.name, parameter.in);
}

function operationItem(operation: CatalogueOperation): OperationItem {
  const parameters = operation.parameters.filter((parameter) => parameter.in !== 'cookie' && !(parameter.in === 'header' && isCredentialHeader(parameter.name)));
  return {
    // As the request is typed (GET /path), so a typed line finds it too.
    label: `${operation.method} ${operation.path}`,
    ...(operation.summary ? { description: operation.summary } : {}),
    ...(parameters.length > 0 ? { detail: vscode.l10n.t('Parameters: {0}', parameters.map(parameterText).join(', ')) } : {}),
    method: operation.method,
    path: operation.path,
    iconPath: new vscode.ThemeIcon(operation.deprecated ? 'warning' : 'symbol-method'),
  };
}

/**
 * The loaded catalogues' operations the list whose labels and paths are `seen` does not show yet
 * (a path listed already is not listed again as a GET); their labels join `seen`, so a request typed
 * as one is not offered twice.
 */
export function operationItems(catalogues: CatalogueSet | undefined, seen: Set<string>): Array<OperationItem | vscode.QuickPickItem> {
  const items: Array<OperationItem | vscode.QuickPickItem> = [];
  for (const catalogue of catalogues?.list() ?? []) {
    if (catalogue.state.kind !== 'loaded') continue;
    const fresh = catalogue.state.document.operations.filter((operation) => !seen.has(operation.key) && !(operation.method === 'GET' && seen.has(operation.path)));
    if (fresh.length === 0) continue;
    items.push({ label: catalogue.state.document.title, kind: vscode.QuickPickItemKind.Separator });
    for (const operation of fresh) {
      seen.add(operation.key);
      items.push(operationItem(operation));
    }
  }
  return items;
}

/** Catalogues not read yet are read while the box is open (it says it is busy); `add` puts their operations in when they are. */
export function offerWhenRead(catalogues: CatalogueSet | undefined, quickPick: vscode.QuickPick<vscode.QuickPickItem>, add: () => void): void {
  if (!catalogues || catalogues.list().every((catalogue) => catalogue.state.kind === 'loaded' || catalogue.state.kind === 'failed')) return;
  let open = true;
  quickPick.onDidHide(() => (open = false));
  quickPick.busy = true;
  void catalogues.ready().then(() => {
    if (!open) return;
    quickPick.busy = false;
    add();
  });
}

/**
 * The step after the first: when the request is a documented operation whose path is still its
 * template (chosen from the list), asks its required path, query and header parameters (Back from the
 * first returns to the list) and opens its required JSON body with the example or a sample of the schema.
 */
export async function askOperationParameters(catalogues: CatalogueSet | undefined, state: FlowState): Promise<Step> {
  // Answers for another request (the first step was changed after Back) are not sent with this one.
  if (state.documentedHeaders?.method !== state.method || state.documentedHeaders?.path !== state.path) state.documentedHeaders = undefined;
  const documented = state.method && state.path ? catalogues?.find(state.method, state.path) : undefined;
  if (!documented || documented.operation.path !== state.path) return 'next';
  const { operation } = documented;
  const typedQuery = new URLSearchParams(state.query ?? '');
  // A query parameter typed on the first line is not asked again.
  const answers = new Map([...typedQuery].map(([name, value]) => [`query ${name}`, value]));
  const unanswered = requiredParameters(operation).filter((parameter) => !(parameter.in === 'query' && typedQuery.has(parameter.name)));
  // One box after another here, not a runSteps of its own: each box marks this step of the flow as shown.
  const steps = unanswered.map((parameter) => parameterStep(operation, parameter, answers));
  for (let index = 0; index < steps.length; ) {
    const outcome = await steps[index]();
    if (outcome === 'cancel') return 'cancel';
    if (outcome === 'back' && index === 0) return 'back';
    index += outcome === 'back' ? -1 : 1;
  }
  const request = operationRequest(operation, answers, undefined);
  state.path = request.path;
  const query = new URLSearchParams({ ...Object.fromEntries(typedQuery), ...request.query }).toString();
  state.query = query === '' ? undefined : query;
  // Sent beside the extra headers, not asked again in their step.
  state.documentedHeaders = { method: operation.method, path: request.path, headers: request.headers };
  if (operation.body?.required && operation.body.json) {
    state.open.body = true;
    // On one line: the body step is a one-line box (its editor button opens it in full).
    state.body ??= JSON.stringify((await catalogues!.exampleBody(documented).catch(() => undefined)) ?? {});
  }
  return 'next';
}
