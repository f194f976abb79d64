/**
 * Runs the requests of one file: fills variables (sending first, once, a named request whose response
 * another one reads and that has not been sent yet), sends, and keeps each named request's result for
 * the requests after it. Send All runs the file's requests in order, one at a time, through the same
 * client and therefore the same throttle. No `vscode` here.
 */
import { isApiError } from '../api/errors';
import type { RouteRule } from '../api/types';
import * as l10n from '../common/l10n';
import { dataSelector, type DataSelector } from '../api/dataSelector';
import { parseRequestFile, type ParsedFile, type ParsedRequest } from './parser';
import { platformPathOf, prepareRequest, requestTenants, type PreparedRequest } from './prepare';
import { pinnedTenant } from './tenantList';
import { resultOf, sendPrepared, type SenderDeps, type SentRequest } from './sender';
import type { SystemVariableContext } from './systemVariables';
import type { FileEnvironment } from '../settings/environmentFileSources';
import { resolveText, type ReferenceProblem, type RequestResult, type VariableSources } from './variables';
import { checkResponse } from './assertions/checkResponse';
import type { AssertionResult } from './assertions/evaluateAssertion';
import { contextKeys, type RunCell } from './runContext';
import type { ContractAnswer } from '../catalog/contract';
import type { ContractVerdict } from '../catalog/types';

export interface RequestDocument {
  /** Identifies the file (its URI): results are kept per file. */
  key: string;
  text: string;
  /** Reads `< ./body.json` relative to the file. */
  readBodyFile(path: string): string;
}

export interface RunnerDeps {
  sender: SenderDeps;
  /** The variables of the environment in force (the editor's active one, the runner's --env), read at each request. */
  environment(): Record<string, string>;
  /** The environment files' variables for the file with this key (they win over the environment's). */
  fileEnvironment?(key: string): FileEnvironment;
  system(lookup: (name: string) => string | undefined, dotenv?: Readonly<Record<string, string>>): SystemVariableContext;
  /** The catalogues `?? schema` checks answers against (loaded before the first such check). */
  contracts?: Contracts;
}

export interface RunOutcome {
  request: ParsedRequest;
  /** The request's name, or "line N" for an unnamed one. */
  label: string;
  /** The matrix cell it ran in (its tenant, its data row), when it ran in one. */
  cell?: RunCell;
  prepared?: PreparedRequest;
  sent?: SentRequest;
  /** Why it was not sent or failed: a kind (the client's, or `dependency`, `invalidRequest`, `unknown`), a sentence, the error as thrown. */
  error?: { kind: string; message: string; response?: SentRequest['response']; cause?: unknown };
  /** Requests sent first because this one reads their responses. */
  dependencies: RunOutcome[];
  /**
   * The request's `??` assertions checked against its answer (a sent response, or the answer an error
   * carried, so `?? status == 404` can pass). Undefined when it has none or no answer came.
   */
  assertions?: AssertionResult[];
}

export interface SendOptions {
  signal?: AbortSignal;
  /**
   * The requests of this file already tried in this run (Send All, a test run, the command line), by
   * context and index. One that failed is never sent again because a later request reads it: that request fails
   * instead (a POST answered 500 may have been processed; sending it twice is not the runner's call).
   */
  attempted?: Map<string, RunOutcome>;
  /** The matrix cell to run in: its tenant (for requests that name no single one) and its data row. */
  cell?: RunCell;
  /** Called with the 1-based position while the call waits for a rate-limit slot; 0 when it is sent. */
  onQueuePosition?: (position: number) => void;
  /** Send even when the organization's last known usage reached its limit (Send Anyway). */
  sendOverQuota?: boolean;
  /** Send a static resource even when its answer is cached (Refresh). */
  bypassCache?: boolean;
}

/** The catalogues, as `?? schema` reads them: the verdict on an answer, once they are loaded. */
export interface Contracts {
  verdictOf(answer: ContractAnswer): Promise<() => ContractVerdict>;
}

const MAX_DEPENDENCY_DEPTH = 5;

export function labelOf(request: ParsedRequest): string {
  return request.name ?? l10n.t('line {0}', request.requestLine + 1);
}

export class RequestFileRunner {
  private readonly results = new Map<string, Map<string, RequestResult>>();

  constructor(private readonly deps: RunnerDeps) {}

  resultsOf(key: string): ReadonlyMap<string, RequestResult> {
    return this.results.get(key) ?? new Map();
  }

  /**
   * The sources variables are read from, for hover and diagnostics too. In a matrix cell: its row's
   * columns, and the results of its tenant's requests before those shared by every tenant.
   */
  sources(key: string, file: ParsedFile, cell?: RunCell): VariableSources {
    const fileVariables = new Map(file.variables.map((variable) => [variable.name, variable.value]));
    const files = this.deps.fileEnvironment?.(key);
    const environment = files ? { ...this.deps.environment(), ...files.variables } : this.deps.environment();
    const keys = contextKeys(key, cell);
    const own = this.resultsOf(keys.tenant);
    const shared = this.resultsOf(keys.shared);
    const row = cell?.row?.values;
    return {
      row,
      fileVariables,
      environment,
      secretNames: files?.secrets,
      requestNames: new Set(file.requests.flatMap((request) => (request.name ? [request.name] : []))),
      result: (name) => own.get(name) ?? shared.get(name),
      system: this.deps.system((name) => row?.[name] ?? fileVariables.get(name) ?? environment[name], files?.dotenv),
    };
  }

  /** One request (and, first, those it reads that were not sent yet); `sendOverQuota` as Send Anyway asks. */
  async send(document: RequestDocument, index: number, options: SendOptions = {}): Promise<RunOutcome> {
    const file = parseRequestFile(document.text);
    const request = file.requests[index];
    if (!request) throw new RangeError(`no request ${index}`);
    return this.run(document, file, request, options, new Set());
  }

  /** Every request in order; stops early when `signal` aborts. */
  async sendAll(
    document: RequestDocument,
    options: { signal?: AbortSignal; onProgress?: (done: number, total: number, next: ParsedRequest | undefined) => void } = {},
  ): Promise<RunOutcome[]> {
    const file = parseRequestFile(document.text);
    const outcomes: RunOutcome[] = [];
    const attempted = new Map<string, RunOutcome>();
    for (const request of file.requests) {
      options.onProgress?.(outcomes.length, file.requests.length, request);
      if (options.signal?.aborted) break;
      outcomes.push(await this.run(document, file, request, { signal: options.signal, attempted }, new Set()));
    }
    options.onProgress?.(outcomes.length, file.requests.length, undefined);
    return outcomes;
  }

  private async run(document: RequestDocument, file: ParsedFile, request: ParsedRequest, options: SendOptions, visiting: Set<number>): Promise<RunOutcome> {
    const outcome = await this.attempt(document, file, request, options, visiting);
    options.attempted?.set(this.attemptKey(document, file, request, options), outcome);
    return outcome;
  }

  /** Where a request's result and attempt are kept: its tenant's context in a matrix, else the one every tenant shares. */
  private writeKey(document: RequestDocument, file: ParsedFile, request: ParsedRequest, cell: RunCell | undefined): string {
    const keys = contextKeys(document.key, cell);
    if (cell?.tenant === undefined) return keys.shared;
    return pinnedTenant(requestTenants(file, request, this.sources(document.key, file, cell))) === undefined ? keys.tenant : keys.shared;
  }

  private attemptKey(document: RequestDocument, file: ParsedFile, request: ParsedRequest, options: SendOptions): string {
    return `${this.writeKey(document, file, request, options.cell)}\u0000${request.index}`;
  }

  /** A dependency tried earlier in this run, in the cell's tenant context or the shared one. */
  private earlier(document: RequestDocument, dependency: ParsedRequest, options: SendOptions): RunOutcome | undefined {
    const keys = contextKeys(document.key, options.cell);
    return options.attempted?.get(`${keys.tenant}\u0000${dependency.index}`) ?? options.attempted?.get(`${keys.shared}\u0000${dependency.index}`);
  }

  private async attempt(document: RequestDocument, file: ParsedFile, request: ParsedRequest, options: SendOptions, visiting: Set<number>): Promise<RunOutcome> {
    const outcome: RunOutcome = { request, label: labelOf(request), dependencies: [], ...(options.cell ? { cell: options.cell } : {}) };
    visiting.add(request.index);
    const cellDocument = { ...document, tenant: options.cell?.tenant };
    const sources = this.sources(document.key, file, options.cell);
    let prepared = prepareRequest(file, request, sources, cellDocument);
    const missing = unsentNames(request, sources, prepared.ok ? [] : prepared.problems);
    if (missing.length > 0 && visiting.size <= MAX_DEPENDENCY_DEPTH) {
      for (const name of missing) {
        const dependency = file.requests.find((candidate) => candidate.name === name);
        if (!dependency || visiting.has(dependency.index)) continue;
        const earlier = this.earlier(document, dependency, options);
        const sent = earlier?.error ? earlier : await this.run(document, file, dependency, { signal: options.signal, attempted: options.attempted, cell: options.cell, onQueuePosition: options.onQueuePosition }, visiting);
        if (sent !== earlier) outcome.dependencies.push(sent);
        if (sent.error) {
          const message = l10n.t('{0} needs {1}, which failed: {2}', outcome.label, name, sent.error.message);
          outcome.error = { kind: 'dependency', message, cause: sent.error.cause };
          return outcome;
        }
      }
      prepared = prepareRequest(file, request, this.sources(document.key, file, options.cell), cellDocument);
    }
    if (!prepared.ok) {
      outcome.error = { kind: 'invalidRequest', message: prepared.message };
      return outcome;
    }
    outcome.prepared = prepared.request;
    try {
      outcome.sent = await sendPrepared(prepared.request, this.deps.sender, options);
    } catch (error) {
      outcome.error = describeError(error);
      await this.check(document, file, outcome);
      return outcome;
    }
    if (request.name) this.remember(this.writeKey(document, file, request, options.cell), request.name, resultOf(prepared.request, outcome.sent.response));
    await this.check(document, file, outcome);
    return outcome;
  }

  /** Checks the request's assertions against whatever answer came, once its own result is remembered. */
  private async check(document: RequestDocument, file: ParsedFile, outcome: RunOutcome): Promise<void> {
    const response = outcome.sent?.response ?? outcome.error?.response;
    if (outcome.request.assertions.length === 0 || !response) return;
    const contracts = this.deps.contracts;
    const checked = contracts && outcome.request.assertions.some((assertion) => assertion.subject.verdict) ? { ...response, contract: await contracts.verdictOf(response) } : response;
    const sources = this.sources(document.key, file, outcome.cell);
    outcome.assertions = checkResponse(outcome.request.assertions, checked, (text) => resolveText(text, sources));
  }

  private remember(key: string, name: string, result: RequestResult): void {
    let results = this.results.get(key);
    if (!results) this.results.set(key, (results = new Map()));
    results.set(name, result);
  }

  /** Forgets the results of a file, or of one context of it (a finished data row), with every context under it. */
  forget(key: string): void {
    for (const kept of [...this.results.keys()]) if (kept === key || kept.startsWith(`${key}#`)) this.results.delete(kept);
  }
}

/** The named requests this one reads (in the request or in an assertion's expected value) that were not sent yet. */
function unsentNames(request: ParsedRequest, sources: VariableSources, problems: readonly ReferenceProblem[]): string[] {
  const inAssertions = request.assertions.flatMap((assertion) => (assertion.expected ? resolveText(assertion.expected, sources).problems : []));
  return [...new Set([...problems, ...inAssertions].filter((problem) => problem.kind === 'notSent').map((problem) => problem.name!))];
}

/** Any failure as plain data: the kind (the client's closed kinds; `unknown` for anything else), the sentence, the answer if one came. */
export function describeError(error: unknown): NonNullable<RunOutcome['error']> {
  if (isApiError(error)) return { kind: error.kind, message: error.message, response: error.details.response, cause: error };
  return { kind: 'unknown', message: error instanceof Error ? error.message : String(error), cause: error };
}

/** "20 requests: 18 × 200, 2 × 404" plus the failures that got no status. */
export function summarize(outcomes: readonly RunOutcome[], total: number): { text: string; statuses: Record<string, number>; failed: number } {
  const statuses: Record<string, number> = {};
  let failed = 0;
  for (const outcome of outcomes) {
    const status = outcome.sent?.response.status ?? outcome.error?.response?.status;
    if (status !== undefined) statuses[String(status)] = (statuses[String(status)] ?? 0) + 1;
    else failed++;
  }
  const parts = Object.keys(statuses)
    .sort()
    .map((status) => `${statuses[status]} × ${status}`);
  if (failed > 0) parts.push(l10n.byCount(failed, l10n.t('{0} request not sent', failed), l10n.t('{0} requests not sent', failed)));
  const head =
    outcomes.length < total
      ? l10n.byCount(total, l10n.t('{0} of {1} request (cancelled)', outcomes.length, total), l10n.t('{0} of {1} requests (cancelled)', outcomes.length, total))
      : l10n.byCount(total, l10n.t('{0} request', total), l10n.t('{0} requests', total));
  return { text: `${head}: ${parts.join(', ') || '-'}`, statuses, failed };
}

/**
 * What selected the data of a sent request (views/responsePresentation.dataSelector, by the route's
 * needsTenant): a `# @tenant` above a base-URL path only names the request, the licence key's
 * organization selects its data. Undefined when nothing of the platform's was sent (another host) or
 * nothing was sent.
 */
export function outcomeSelector(outcome: RunOutcome, routeFor: (path: string) => RouteRule | undefined, baseUrl: string): DataSelector | undefined {
  const target = outcome.prepared?.target;
  const sent = outcome.sent;
  if (!target || !sent || !sent.credentials) return undefined;
  const path = platformPathOf(target, { baseUrl, clusterAddress: sent.tenant?.clusterAddress });
  return path === undefined ? undefined : dataSelector(routeFor(path), sent.tenant, sent.response.licence);
}
