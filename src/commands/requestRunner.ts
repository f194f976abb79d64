import * as vscode from 'vscode';
import type { ApiErrorDetails, ApiResponse, QuotaReading, TenantApi, TenantRecord } from '../api/types';
import { isApiError } from '../api/errors';
import { droppedHeaderWarning } from '../api/requestHeaders';
import type { TenantResolver } from '../api/tenantResolver';
import type { PreparedRequest } from '../engine/prepare';
import { callPlatform, sendPrepared, type PlatformResult } from '../engine/sender';
import type { Logger } from '../common/logger';
import type { Views } from '../views';
import type { ResponseLike } from '../views/responseFormat';
import { dataSelector, responseTabKey, responseTitle, selectorLine, sentBodyText } from '../views/responsePresentation';
import { readRequestTimeoutMs, readResponseTabPerRequest } from '../settings/editorSettings';
import { RequestHistory } from './requestHistory';
import { isAddress, type NormalizedRequest } from './requestInput';
import { offerNextActions } from './nextActions';
import { outcomeOfError, outcomeOfResponse, type RequestOutcome } from './requestOutcome';
import { editorFetch } from '../settings/networkSettings';

/** What tenantApi.sendRequest, openResource and rerunFromHistory return (for scripts and tests). */
export interface RequestSummary {
  ok: boolean;
  method: string;
  path: string;
  tenantId?: string;
  url?: string;
  status?: number;
  statusText?: string;
  /** Response headers, lower-case names. */
  headers?: Record<string, string>;
  /** What was sent, Authorization and Authorization-Key masked. */
  requestHeaders?: Record<string, string>;
  timeMs?: number;
  sizeBytes?: number;
  usage?: QuotaReading;
  warnings: string[];
  error?: { kind: string; message: string };
  /** The response tab, when one was opened. */
  document?: string;
  /** Formatting and opening the tab, in ms. */
  formatMs?: number;
  openMs?: number;
}

/** The last request sent, for Copy as cURL (headers already masked by the client). */
export interface LastRequest {
  method: string;
  path: string;
  url: string;
  requestHeaders: Record<string, string>;
  bodyText?: string;
  tenantId?: string;
}

/** A progress notification only shows when a call takes longer than this, so quick calls do not flicker. */
const PROGRESS_DELAY_MS = 250;

export class RequestRunner {
  private last: LastRequest | undefined;

  constructor(
    private readonly api: TenantApi,
    private readonly tenants: Pick<TenantResolver, 'resolve'>,
    private readonly views: Pick<Views, 'tree' | 'responses'>,
    readonly history: RequestHistory,
    private readonly logger: Logger,
    /** The active environment's base URL: an address on it is sent as its path. */
    private readonly baseUrl: () => string = () => '',
  ) {}

  lastRequest(): LastRequest | undefined {
    return this.last;
  }

  /** Sends through the engine (tenant, client), shows progress and the response, records history. Never throws: failures are in the summary. */
  async run(request: NormalizedRequest, options: { fromTree?: boolean } = {}): Promise<RequestSummary> {
    const summary: RequestSummary = {
      ok: false,
      method: request.method,
      path: request.path,
      tenantId: request.tenantId,
      warnings: request.droppedHeaders.map(droppedHeaderWarning),
    };
    for (const warning of summary.warnings) void vscode.window.showWarningMessage(warning);

    const controller = new AbortController();
    const progress = new ProgressReport();
    const sending = isAddress(request.path) ? this.sendToAddress(request, controller.signal) : this.sendToPath(request, controller.signal, progress);
    void progress.showWhenSlow(`${request.method} ${request.path}`, sending, controller);

    const { tenant, response, error } = await sending;
    if (tenant) summary.tenantId = tenant.id;
    return response ? this.succeeded(request, tenant, response, summary, options) : this.failed(request, tenant, error, summary, options);
  }

  private sendToPath(request: NormalizedRequest, signal: AbortSignal, progress: ProgressReport): Promise<PlatformResult> {
    return callPlatform(
      {
        method: request.method,
        path: request.path,
        query: request.query,
        body: request.body,
        headers: request.headers,
        tenant: request.tenantId,
        signal,
        sendOverQuota: request.sendOverQuota,
        onQueuePosition: (position) => progress.position(position),
        route: request.route,
        bypassCache: request.bypassCache,
      },
      { api: this.api, tenants: this.tenants },
    );
  }

  /**
   * An address typed whole, by the rule request files follow (engine/sender.ts): on the base URL or the
   * tenant's cluster it goes as that path, with credentials; any other host gets none, and is told so.
   */
  private async sendToAddress(request: NormalizedRequest, signal: AbortSignal): Promise<PlatformResult> {
    const url = new URL(request.path);
    for (const [name, value] of Object.entries(request.query)) url.searchParams.set(name, value);
    const prepared: PreparedRequest = { method: request.method, target: { kind: 'absolute', url }, headers: request.headers, droppedCredentialHeaders: [], body: request.bodyText, tenant: request.tenantId, tenants: request.tenantId ? [request.tenantId] : [], problems: [], secrets: [] };
    const timeoutMs = readRequestTimeoutMs();
    try {
      const sent = await sendPrepared(prepared, { api: this.api, tenants: this.tenants, baseUrl: this.baseUrl, fetch: editorFetch, timeoutMs: () => timeoutMs }, { signal, sendOverQuota: request.sendOverQuota, bypassCache: request.bypassCache });
      if (!sent.credentials) for (const warning of sent.warnings) void vscode.window.showWarningMessage(warning);
      return { tenant: sent.tenant, response: { ...sent.response, warnings: sent.warnings } };
    } catch (error) {
      return { error };
    }
  }

  private async succeeded(
    request: NormalizedRequest,
    tenant: TenantRecord | undefined,
    response: ApiResponse,
    summary: RequestSummary,
    options: { fromTree?: boolean },
  ): Promise<RequestSummary> {
    Object.assign(summary, {
      ok: response.status < 400,
      url: response.url,
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      requestHeaders: response.requestHeaders,
      timeMs: response.timeMs,
      sizeBytes: response.sizeBytes,
      usage: response.usage,
    });
    summary.warnings.push(...response.warnings);
    this.last = {
      method: request.method,
      path: request.path,
      url: response.url,
      requestHeaders: response.requestHeaders,
      bodyText: request.bodyText,
      tenantId: tenant?.id,
    };
    this.markResource(outcomeOfResponse(response), tenant, request, options);
    await this.remember(request, tenant, { url: response.url, status: response.status, timeMs: response.timeMs });
    if (request.preview) {
      await this.show(request, summary, response, tenant);
    }
    return summary;
  }

  private async failed(
    request: NormalizedRequest,
    tenant: TenantRecord | undefined,
    error: unknown,
    summary: RequestSummary,
    options: { fromTree?: boolean },
  ): Promise<RequestSummary> {
    const apiError = isApiError(error) ? error : undefined;
    const outcome = outcomeOfError(error, { method: request.method, path: request.path, tenantId: tenant?.id, preview: request.preview });
    summary.error = { kind: outcome.kind, message: outcome.summary };
    this.logger.warn(`Request failed: ${apiError ? apiError.describe() : outcome.summary}`);
    if (apiError?.kind === 'cancelled') return summary;

    const details = apiError?.details ?? {};
    summary.url = details.url;
    summary.status = details.status;
    summary.usage = details.usage;
    // Answered or not, the request is in the history, so it can be sent again from there.
    await this.remember(request, tenant, { url: details.url, status: details.status, error: outcome.kind });
    if (details.response) {
      // The server answered: the whole answer (status, headers, body) says what went wrong.
      Object.assign(summary, {
        statusText: details.response.statusText,
        headers: details.response.headers,
        requestHeaders: details.response.requestHeaders,
        timeMs: details.response.timeMs,
        sizeBytes: details.response.sizeBytes,
      });
      this.last = {
        method: request.method,
        path: request.path,
        url: details.response.url,
        requestHeaders: details.response.requestHeaders,
        bodyText: request.bodyText,
        tenantId: tenant?.id,
      };
    }
    if (request.preview && details.status !== undefined && (details.response || details.bodyText !== undefined)) {
      await this.show(request, summary, failedResponse(request, details, outcome.summary), tenant);
    }
    this.markResource(outcome, tenant, request, options);
    if (outcome.notify) void offerNextActions(outcome, (overrides) => this.run({ ...request, ...overrides }, options));
    return summary;
  }

  /** A resource opened from the tree shows what went wrong, and how to fix it, until it works. */
  private markResource(outcome: RequestOutcome, tenant: TenantRecord | undefined, request: NormalizedRequest, options: { fromTree?: boolean }): void {
    if (!tenant || !options.fromTree || outcome.treeProblem === 'keep') return;
    this.views.tree.setProblem(tenant.id, request, outcome.treeProblem === 'clear' ? undefined : outcome.treeProblem.set);
  }

  private async show(request: NormalizedRequest, summary: RequestSummary, response: ResponseLike, tenant: TenantRecord | undefined): Promise<void> {
    // What selected the data (tenant, licence key's organization or the user), not merely which tenant was picked.
    const selector = dataSelector(request.route ?? this.api.routeFor(request.path), tenant, response.licence);
    const bodyText = sentBodyText(request.body);
    try {
      const opened = await this.views.responses.open(response, {
        title: responseTitle(response.method, summary.path, selector, response.status),
        tabKey: responseTabKey({ ...request, bodyText }, selector, readResponseTabPerRequest()),
        receivedAt: Date.now(),
        context: [selectorLine(selector)],
        request: response.requestHeaders ? { headers: response.requestHeaders, bodyText } : undefined,
      });
      summary.document = opened.uri.toString();
      summary.formatMs = opened.formatMs;
      summary.openMs = opened.openMs;
    } catch (error) {
      this.logger.error(`Could not open the response: ${String(error)}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('Could not open the response: {0}', String(error)));
    }
  }

  private async remember(
    request: NormalizedRequest,
    tenant: TenantRecord | undefined,
    result: { url?: string; status?: number; timeMs?: number; error?: string },
  ): Promise<void> {
    try {
      await this.history.add({
        method: request.method,
        path: request.path,
        query: request.query,
        body: request.bodyText,
        headers: request.headers,
        tenantId: tenant?.id,
        tenantLabel: tenant?.descrizioneAmbienteDati,
        ...result,
        at: Date.now(),
      });
    } catch (error) {
      this.logger.warn(`Could not save the request history: ${String(error)}`);
    }
  }
}

/** The answer a failed call still got, as a response tab shows it, with what went wrong on top. */
function failedResponse(request: NormalizedRequest, details: ApiErrorDetails, message: string): ResponseLike {
  if (details.response) return { ...details.response, warnings: [message, ...details.response.warnings] };
  const bodyText = details.bodyText ?? '';
  return {
    method: request.method,
    url: details.url ?? request.path,
    status: details.status ?? 0,
    statusText: details.serverError ?? '',
    headers: details.usage ? { 'service-limit-info': `api-usage=${details.usage.used}/${details.usage.limit}` } : {},
    bodyText,
    timeMs: 0,
    sizeBytes: Buffer.byteLength(bodyText),
    warnings: [message],
  };
}

/** A progress notification, shown only when a call takes longer than PROGRESS_DELAY_MS, so quick calls do not flicker. */
class ProgressReport {
  private current = 0;
  private report: ((position: number) => void) | undefined;

  position(next: number): void {
    this.current = next;
    this.report?.(next);
  }

  async showWhenSlow(title: string, sending: Promise<unknown>, controller: AbortController): Promise<void> {
    const settled = sending.then(
      () => undefined,
      () => undefined,
    );
    const delay = new Promise<'slow'>((resolve) => setTimeout(() => resolve('slow'), PROGRESS_DELAY_MS));
    if ((await Promise.race([settled.then(() => 'done' as const), delay])) !== 'slow') return;
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      async (progress, token) => {
        token.onCancellationRequested(() => controller.abort());
        this.report = (next) =>
          progress.report({
            message:
              next > 0
                ? vscode.l10n.t('Waiting for a rate-limit slot: position {0} in the queue', next)
                : vscode.l10n.t('Waiting for the response…'),
          });
        this.report(this.current);
        await settled;
      },
    );
  }
}

export { FIX_RESOURCE_COMMAND, type FixResourceArgs } from './requestOutcome';
