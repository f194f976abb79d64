import * as vscode from 'vscode';
import { isApiError } from '../../api/errors';
import type { TenantResolver } from '../../api/tenantResolver';
import { offerNextActions } from '../../commands/nextActions';
import { outcomeOfError } from '../../commands/requestOutcome';
import type { TenantApi } from '../../api/types';
import { curlForPrepared, keyVariableOf, TOKEN_VARIABLE } from '../../engine/curlCommand';
import { requestAtLine } from '../../engine/parser';
import { platformPathOf, prepareRequest } from '../../engine/prepare';
import { labelOf, outcomeSelector, summarize, type RequestFileRunner, type RunOutcome } from '../../engine/runner';
import type { HistoryEntry } from '../../engine/historyEntry';
import { COMMAND, INTERNAL_COMMAND, type CommandHandlers } from '../../common/commandIds';
import type { ResponseDocuments } from '../../views/responseDocuments';
import { responseTitle, selectorLine } from '../../views/responsePresentation';
import { isRequestDocument, ParsedDocuments, requestDocument } from './documents';
import { historyEntryOf } from './fileHistory';
import { maskResponse, requestFileTabParts } from './responseTabs';
import { sendAllTable } from './sendAllTable';
import { confirmRunCost, fileRunCost, type RunCostDeps } from './runCostPrompt';
import { fileMatrix, fileMatrixCalls } from './fileMatrix';
import { cellLabel } from '../../engine/matrix';
import { runMatrix } from '../../engine/matrixRun';
import { describeRunCost } from '../../api/runCost';
import { readConfirmRunPercent } from '../../settings/editorSettings';
import type { AssertionResult } from '../../engine/assertions/evaluateAssertion';
import { assertionSectionLines, assertionTotals } from '../../views/assertionSection';
import type { AssertionFailures } from './assertionFailures';
import { confirmBrokenBody } from './bodyCheck';

/** What the commands return (for scripts and the in-editor tests). */
export interface SendResult {
  label: string;
  title?: string;
  status?: number;
  error?: { kind: string; message: string };
  warnings: string[];
  /** The response tab's URI. */
  document?: string;
  timeMs?: number;
  sizeBytes?: number;
  /** The request's assertions as checked (none when it has none or no answer came). */
  assertions?: AssertionResult[];
}

export interface SendAllResult {
  summary: string;
  /** What the run was said to cost before it started ("43 calls, about 8 s at the limit, …"). */
  cost?: string;
  statuses: Record<string, number>;
  results: SendResult[];
  cancelled: boolean;
  /** The summary tab's URI. */
  document: string;
}

export interface CommandDeps {
  api: Pick<TenantApi, 'routeFor'>;
  tenants: Pick<TenantResolver, 'resolve' | 'list' | 'known'>;
  runner: RequestFileRunner;
  parsed: ParsedDocuments;
  tabs: ResponseDocuments;
  /** The request history (Send Request's): request-file sends are in it too. */
  history?: { add(entry: HistoryEntry): Promise<void> };
  baseUrl(): string;
  /** What a Send All costs, said (and asked about above the setting's share) before it starts. */
  cost?: RunCostDeps;
  /** Failed assertions as problems at their lines, until the request is sent again. */
  failures?: Pick<AssertionFailures, 'update'>;
}

/** The document and request a command is about: its arguments (from a CodeLens), else the editor's cursor. */
async function target(uriArg: unknown, indexArg: unknown, parsed: ParsedDocuments): Promise<{ document: vscode.TextDocument; index: number } | undefined> {
  let document: vscode.TextDocument | undefined;
  if (uriArg instanceof vscode.Uri || typeof uriArg === 'string') {
    document = await vscode.workspace.openTextDocument(typeof uriArg === 'string' ? vscode.Uri.parse(uriArg) : uriArg);
  } else {
    document = vscode.window.activeTextEditor?.document;
  }
  if (!document || !isRequestDocument(document)) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Open a request file (.http or .rest) first.'));
    return undefined;
  }
  if (typeof indexArg === 'number') return { document, index: indexArg };
  const editor = vscode.window.activeTextEditor;
  const line = editor?.document === document ? editor.selection.active.line : 0;
  const request = requestAtLine(parsed.get(document), line);
  if (!request) {
    void vscode.window.showWarningMessage(vscode.l10n.t('The cursor is not on a request. Requests are separated by lines starting with ###.'));
    return undefined;
  }
  return { document, index: request.index };
}

export function requestFileCommands(deps: CommandDeps): CommandHandlers {
  return {
    // A third argument { bypassCache: true } is a response tab's Refresh: a static resource is sent for real.
    [COMMAND.requestFileSend]: async (uri?: unknown, index?: unknown, options?: { bypassCache?: unknown }) => {
      const found = await target(uri, index, deps.parsed);
      if (!found) return undefined;
      return sendOne(found.document, found.index, deps, { bypassCache: options?.bypassCache === true });
    },
    [INTERNAL_COMMAND.requestFileWatch]: async (uri?: unknown, index?: unknown) => {
      const found = await target(uri, index, deps.parsed);
      if (!found) return undefined;
      return watchRequest(found.document, found.index, deps);
    },
    [COMMAND.requestFileSendAll]: async (uri?: unknown) => {
      const found = await target(uri, 0, deps.parsed);
      if (!found) return undefined;
      return sendAll(found.document, deps);
    },
    [COMMAND.requestFileCopyAsCurl]: async (uri?: unknown, index?: unknown) => {
      const found = await target(uri, index, deps.parsed);
      if (!found) return undefined;
      return copyAsCurl(found.document, found.index, deps);
    },
    [INTERNAL_COMMAND.openResponse]: async (document?: unknown) => {
      if (typeof document !== 'string') return undefined;
      return (await deps.tabs.reveal(vscode.Uri.parse(document), false)).document.uri.toString();
    },
  };
}

/**
 * Watches a request of the file: its variables filled now, it is watched as the GET of a platform
 * path with its tenant (what a watch keeps: no headers, no body), through tenantApi.watch.
 */
async function watchRequest(document: vscode.TextDocument, index: number, deps: CommandDeps): Promise<unknown> {
  const file = deps.parsed.get(document);
  const request = file.requests[index];
  if (!request) return undefined;
  const prepared = prepareRequest(file, request, deps.runner.sources(requestDocument(document).key, file), requestDocument(document));
  if (!prepared.ok) {
    void vscode.window.showErrorMessage(prepared.message);
    return undefined;
  }
  const { method, target: where, tenant } = prepared.request;
  const path = platformPathOf(where, { baseUrl: deps.baseUrl() });
  if (method !== 'GET' || !path) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Only a GET of a platform path can be watched.'));
    return undefined;
  }
  return vscode.commands.executeCommand(COMMAND.watch, { method, path, tenant });
}

async function sendOne(document: vscode.TextDocument, index: number, deps: CommandDeps, overrides: { sendOverQuota?: boolean; bypassCache?: boolean } = {}): Promise<SendResult> {
  const file = deps.parsed.get(document);
  const label = file.requests[index] ? labelOf(file.requests[index]) : String(index);
  if (!(await confirmBrokenBody(document, file.requests[index]))) {
    return { label, warnings: [], error: { kind: 'cancelled', message: vscode.l10n.t('Not sent: the body is not valid JSON.') } };
  }
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Sending {0}…', label) },
    () => deps.runner.send(requestDocument(document), index, overrides),
  );
  for (const dependency of outcome.dependencies) {
    await record(document, dependency, deps);
    await show(document, dependency, deps, { notify: false, reveal: true });
  }
  await record(document, outcome, deps);
  const result = await show(document, outcome, deps, { notify: true, reveal: true });
  if (outcome.error) notifyFailure(outcome, (again) => sendOne(document, index, deps, again));
  return result;
}

/**
 * A failure's notification. An error of the client (a dependency's too) offers what Send Request offers
 * (Sign In, Set Licence Key, Resume Calls, Send Anyway, Re-run) and sends the request again once the fix
 * succeeded; a problem of the file itself (a variable, a body file) is only said.
 */
function notifyFailure(outcome: RunOutcome, resend: (overrides: { sendOverQuota?: boolean }) => Promise<unknown>): void {
  const error = outcome.error!;
  if (!isApiError(error.cause)) {
    void vscode.window.showErrorMessage(error.message);
    return;
  }
  const next = outcomeOfError(error.cause, { method: outcome.request.method, path: outcome.request.url, preview: error.response !== undefined });
  if (next.notify) void offerNextActions({ ...next, summary: error.message }, resend);
}

/** What an outcome leaves behind: its failed assertions as problems at their lines, its request in the history. */
async function record(document: vscode.TextDocument, outcome: RunOutcome, deps: CommandDeps): Promise<void> {
  deps.failures?.update(document, outcome.request, outcome.assertions);
  const entry = historyEntryOf(outcome);
  if (entry) await deps.history?.add(entry);
}

/** Opens (or, for Send All, keeps) the response tab of an outcome and tells the user about warnings and errors. */
async function show(document: vscode.TextDocument, outcome: RunOutcome, deps: CommandDeps, options: { notify: boolean; reveal: boolean }): Promise<SendResult> {
  const warnings = outcome.sent?.warnings ?? [];
  const response = outcome.sent?.response ?? outcome.error?.response;
  const result: SendResult = { label: outcome.label, status: response?.status, warnings, error: outcome.error && { kind: outcome.error.kind, message: outcome.error.message } };
  result.assertions = outcome.assertions;
  if (options.notify) {
    for (const warning of warnings) void vscode.window.showWarningMessage(warning);
  }
  result.title = titleOf(outcome, deps);
  if (!response) return result;
  const selector = outcomeSelector(outcome, (path) => deps.api.routeFor(path), deps.baseUrl());
  const source = `${vscode.workspace.asRelativePath(document.uri)}:${outcome.request.requestLine + 1}`;
  const { context, request } = requestFileTabParts(response, {
    selectedBy: selector && selectorLine(selector),
    body: outcome.prepared?.body,
    source,
    secrets: outcome.prepared?.secrets ?? [],
  });
  context.push(...assertionSectionLines(outcome.assertions));
  const shown = maskResponse({ ...response, warnings: [...new Set([...(outcome.error ? [outcome.error.message] : []), ...warnings, ...response.warnings])] }, outcome.prepared?.secrets ?? []);
  const tab = {
    title: result.title,
    tabKey: `${document.uri.toString()}#${outcome.label}`,
    receivedAt: Date.now(),
    context,
    request,
    preserveFocus: true,
    origin: { kind: 'requestFile' as const, file: document.uri.toString(), index: outcome.request.index, name: outcome.request.name },
  };
  const uri = options.reveal ? (await deps.tabs.open(shown, tab)).uri : (await deps.tabs.keep(shown, tab)).uri;
  result.document = uri.toString();
  result.timeMs = response.timeMs;
  result.sizeBytes = response.sizeBytes;
  return result;
}

/** The one title shape (views/responsePresentation.responseTitle): method, name or path, whose data, status. */
function titleOf(outcome: RunOutcome, deps: CommandDeps): string {
  const selector = outcomeSelector(outcome, (path) => deps.api.routeFor(path), deps.baseUrl());
  const target = outcome.prepared?.target;
  const platform = target && platformPathOf(target, { baseUrl: deps.baseUrl(), clusterAddress: outcome.sent?.tenant?.clusterAddress });
  const path = platform ?? (target?.kind === 'absolute' ? target.url.pathname : outcome.request.url);
  const status = outcome.sent?.response.status ?? outcome.error?.response?.status;
  return responseTitle(outcome.prepared?.method ?? outcome.request.method, path, selector, status, outcome.request.name);
}

async function sendAll(document: vscode.TextDocument, deps: CommandDeps): Promise<SendAllResult> {
  const file = deps.parsed.get(document);
  const key = requestDocument(document).key;
  const fsPath = document.uri.scheme === 'file' ? document.uri.fsPath : undefined;
  // Each request once per tenant it names (a list, or *) and per row of the file's # @data.
  const cells = await fileMatrix(key, fsPath, file, file.requests, deps);
  const total = cells.length;
  const cost = deps.cost && (await fileRunCost(fileMatrixCalls(key, file, cells, deps.runner), deps.cost));
  const costText = cost && describeRunCost(cost, vscode.env.language);
  if (cost && !(await confirmRunCost(cost, readConfirmRunPercent()))) {
    return { summary: vscode.l10n.t('Not started: nothing was sent.'), cost: costText, statuses: {}, results: [], cancelled: true, document: '' };
  }
  const controller = new AbortController();
  const ran = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: costText ? vscode.l10n.t('Send All (Tenant API): {0}', costText) : vscode.l10n.t('Send All (Tenant API)'),
      cancellable: true,
    },
    (progress, token) => {
      token.onCancellationRequested(() => controller.abort());
      let done = 0;
      return runMatrix(deps.runner, requestDocument(document), cells, {
        signal: controller.signal,
        before: (cell) => {
          progress.report({ increment: done++ === 0 ? 0 : 100 / total, message: vscode.l10n.t('{0} of {1}: {2}', done, total, cellLabel(cell)) });
          return undefined;
        },
      });
    },
  );
  // A cell's response and row are named with its tenant and row; a skipped tenant's row says what to set.
  const outcomes = ran.results.flatMap((result) => (result.kind === 'notRun' ? [] : [{ ...result.outcome, label: cellLabel(result.cell) }]));
  const summary = summarize(outcomes, total);
  const results: SendResult[] = [];
  for (const outcome of outcomes) {
    await record(document, outcome, deps);
    const shown = await show(document, outcome, deps, { notify: false, reveal: false });
    // No answer, no title of its own: the row says which request, tenant and row it is.
    results.push(shown.status === undefined ? { ...shown, title: outcome.label } : shown);
  }
  const checked = assertionTotals(results.map((result) => result.assertions));
  const said = checked ? `${summary.text}. ${checked.text}` : summary.text;
  const table = sendAllTable(vscode.l10n.t('Send All: {0}', vscode.workspace.asRelativePath(document.uri)), said, results, vscode.env.language);
  const uri = await deps.tabs.showText({
    title: `${vscode.l10n.t('Send All')} ${basename(document.uri)}`,
    tabKey: `${document.uri.toString()}#sendAll`,
    text: table.text,
    languageId: 'markdown',
    links: table.links.map((link) => ({ ...link, target: openResponseLink(link.document), tooltip: vscode.l10n.t('Open this response') })),
    preserveFocus: true,
  });
  const message = vscode.l10n.t('Send All finished: {0}', said);
  const failedSome = summary.failed > 0 || (checked?.failed ?? 0) > 0 || Object.keys(summary.statuses).some((status) => Number(status) >= 400);
  if (failedSome) void vscode.window.showWarningMessage(message);
  else void vscode.window.showInformationMessage(message);
  return { summary: summary.text, cost: costText, statuses: summary.statuses, results, cancelled: outcomes.length < total, document: uri.toString() };
}

/** A link that opens a kept response in the responses' group (INTERNAL_COMMAND.openResponse). */
function openResponseLink(document: string): vscode.Uri {
  return vscode.Uri.parse(`command:${INTERNAL_COMMAND.openResponse}?${encodeURIComponent(JSON.stringify([document]))}`);
}

function basename(uri: vscode.Uri): string {
  return uri.path.split('/').pop() ?? '';
}

async function copyAsCurl(document: vscode.TextDocument, index: number, deps: CommandDeps): Promise<string | undefined> {
  const file = deps.parsed.get(document);
  const request = file.requests[index];
  if (!request) return undefined;
  const key = document.uri.toString();
  const prepared = prepareRequest(file, request, deps.runner.sources(key, file), requestDocument(document));
  if (!prepared.ok) {
    void vscode.window.showErrorMessage(prepared.message);
    return undefined;
  }
  const path = platformPathOf(prepared.request.target, { baseUrl: deps.baseUrl() });
  const route = path === undefined ? undefined : deps.api.routeFor(path);
  // The tenant named, else the active one; the command still copies when neither is known.
  const tenant = await deps.tenants.resolve(prepared.request.tenant, 'optional', '').catch(() => undefined);
  const command = curlForPrepared(prepared.request, { baseUrl: deps.baseUrl(), route, tenant });
  await vscode.env.clipboard.writeText(command);
  void vscode.window.showInformationMessage(
    vscode.l10n.t('Copied as cURL. The token and the licence key are the shell variables ${0} and ${1}.', TOKEN_VARIABLE, keyVariableOf(route?.module)),
  );
  return command;
}
