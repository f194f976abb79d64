import * as vscode from 'vscode';
import type { ApiResponse, QuotaReading, TenantApi, TenantRecord } from '../api/types';
import { isApiError, type ApiError } from '../api/errors';
import { needsTenant } from '../api/routes';
import type { Logger } from '../common/logger';
import type { Views } from '../views';
import type { ResponseLike } from '../views/responseFormat';
import { RequestHistory } from './requestHistory';
import { RequestInputError, type NormalizedRequest } from './requestInput';

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
    private readonly views: Views,
    readonly history: RequestHistory,
    private readonly logger: Logger,
  ) {}

  lastRequest(): LastRequest | undefined {
    return this.last;
  }

  /** Finds the tenant a request names, or the active tenant for a tenant-scoped path. */
  async resolveTenant(request: Pick<NormalizedRequest, 'path' | 'tenantId'>): Promise<TenantRecord | undefined> {
    const route = this.api.routeFor(request.path);
    const tenantId = request.tenantId ?? (needsTenant(route) ? this.views.activeTenant.get()?.id : undefined);
    if (!tenantId) {
      if (needsTenant(route)) {
        throw new RequestInputError(
          vscode.l10n.t('{0} is served by a tenant\'s cluster: choose a tenant, or set an active tenant in the Tenants view.', request.path),
        );
      }
      return undefined;
    }
    const tenant = this.views.tree.cachedTenant(tenantId) ?? (await this.views.tree.tenants()).find((t) => t.id === tenantId);
    if (!tenant && !request.tenantId) {
      // The active tenant belongs to an account that is no longer signed in.
      throw new RequestInputError(
        vscode.l10n.t('{0} is served by a tenant\'s cluster: choose a tenant, or set an active tenant in the Tenants view.', request.path),
      );
    }
    if (!tenant) throw new RequestInputError(vscode.l10n.t('The tenant {0} is not one of your tenants. Refresh the Tenants view.', tenantId));
    return tenant;
  }

  /** Sends, shows progress and the response, records history. Never throws: failures are in the summary. */
  async run(request: NormalizedRequest, options: { fromTree?: boolean } = {}): Promise<RequestSummary> {
    const summary: RequestSummary = {
      ok: false,
      method: request.method,
      path: request.path,
      tenantId: request.tenantId,
      warnings: request.droppedHeaders.map((name) =>
        vscode.l10n.t('The header {0} was not sent: the extension sets it from your sign-in, licence key and tenant.', name),
      ),
    };
    for (const warning of summary.warnings) void vscode.window.showWarningMessage(warning);

    let tenant: TenantRecord | undefined;
    try {
      tenant = await this.resolveTenant(request);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      summary.error = { kind: 'invalidRequest', message };
      void vscode.window.showErrorMessage(message);
      return summary;
    }
    summary.tenantId = tenant?.id;

    const controller = new AbortController();
    let position = 0;
    let report: ((position: number) => void) | undefined;
    const sending = this.api.send({
      method: request.method,
      path: request.path,
      query: request.query,
      body: request.body,
      headers: request.headers,
      tenant,
      signal: controller.signal,
      sendOverQuota: request.sendOverQuota,
      onQueuePosition: (next) => {
        position = next;
        report?.(next);
      },
    });
    const settled = sending.then(
      () => undefined,
      () => undefined,
    );
    const title = `${request.method} ${request.path}`;
    const delay = new Promise<'slow'>((resolve) => setTimeout(() => resolve('slow'), PROGRESS_DELAY_MS));
    if ((await Promise.race([settled.then(() => 'done' as const), delay])) === 'slow') {
      void vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title, cancellable: true },
        async (progress, token) => {
          token.onCancellationRequested(() => controller.abort());
          report = (next) =>
            progress.report({
              message:
                next > 0
                  ? vscode.l10n.t('Waiting for a rate-limit slot: position {0} in the queue', next)
                  : vscode.l10n.t('Waiting for the response…'),
            });
          report(position);
          await settled;
        },
      );
    }

    try {
      const response = await sending;
      return await this.succeeded(request, tenant, response, summary, options);
    } catch (error) {
      return await this.failed(request, tenant, error, summary, options);
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
    if (tenant && response.usage) this.views.statusBar.noteTenantOrganization(tenant.id, response.usage.organization);
    if (tenant && options.fromTree) this.views.tree.setProblem(tenant.id, request, undefined);
    await this.remember(request, tenant, response.url, response.status, response.timeMs);
    if (request.preview) {
      await this.show(summary, response, tenant);
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
    const message = error instanceof Error ? error.message : String(error);
    summary.error = { kind: apiError?.kind ?? 'unknown', message };
    this.logger.warn(`Request failed: ${apiError ? apiError.describe() : message}`);
    if (apiError?.kind === 'cancelled') return summary;

    const details = apiError?.details ?? {};
    summary.url = details.url;
    summary.status = details.status;
    summary.usage = details.usage;
    if (tenant && details.usage) this.views.statusBar.noteTenantOrganization(tenant.id, details.usage.organization);
    if (details.url && details.status !== undefined) {
      await this.remember(request, tenant, details.url, details.status, undefined);
    }
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
      const bodyText = details.bodyText ?? '';
      await this.show(
        summary,
        details.response
          ? { ...details.response, warnings: [message, ...details.response.warnings] }
          : {
              method: request.method,
              url: details.url ?? request.path,
              status: details.status,
              statusText: details.serverError ?? '',
              headers: details.usage ? { 'service-limit-info': `api-usage=${details.usage.used}/${details.usage.limit}` } : {},
              bodyText,
              timeMs: 0,
              sizeBytes: Buffer.byteLength(bodyText),
              warnings: [message],
            },
        tenant,
      );
    }
    if (tenant && options.fromTree && apiError) {
      const problem = problemFor(apiError, request, tenant.id);
      if (problem) this.views.tree.setProblem(tenant.id, request, problem);
    }
    void this.offerActions(apiError, message, request, options);
    return summary;
  }

  private async offerActions(
    apiError: ApiError | undefined,
    message: string,
    request: NormalizedRequest,
    options: { fromTree?: boolean },
  ): Promise<void> {
    const actions: Array<{ title: string; run: () => unknown }> = [];
    const retry = { title: vscode.l10n.t('Retry'), run: () => this.run(request, options) };
    switch (apiError?.kind) {
      case 'auth':
        actions.push({ title: vscode.l10n.t('Sign In'), run: () => vscode.commands.executeCommand('tenantApi.signIn') });
        break;
      case 'licenceMissing':
      case 'licenceWrongModule':
      case 'licenceUnknown':
        actions.push({
          title: vscode.l10n.t('Set Licence Key'),
          run: () => vscode.commands.executeCommand('tenantApi.setLicenceKey', apiError.details.module),
        });
        break;
      case 'quotaReached':
        actions.push({ title: vscode.l10n.t('Send Anyway'), run: () => this.run({ ...request, sendOverQuota: true }, options) });
        actions.push({ title: vscode.l10n.t('Show API Usage'), run: () => vscode.commands.executeCommand('tenantApi.showQuota') });
        break;
      case 'weeklyQuota':
        actions.push({
          title: vscode.l10n.t('Resume Calls'),
          run: () => vscode.commands.executeCommand('tenantApi.resumeOrganization', apiError.details.organization),
        });
        actions.push({ title: vscode.l10n.t('Show API Usage'), run: () => vscode.commands.executeCommand('tenantApi.showQuota') });
        break;
      case 'hostValidation':
        actions.push({
          title: vscode.l10n.t('Open Settings'),
          run: () => vscode.commands.executeCommand('workbench.action.openSettings', 'tenantApi.allowedHosts'),
        });
        break;
      case 'invalidRequest':
        actions.push({
          title: vscode.l10n.t('Open Settings'),
          run: () => vscode.commands.executeCommand('workbench.action.openSettings', 'tenantApi'),
        });
        break;
      case 'rateLimit':
      case 'network':
      case 'timeout':
      case 'queueFull':
        actions.push(retry);
        break;
      case 'http':
        // The response tab shows the server's answer; a notification would only repeat it.
        if (request.preview && (apiError.details.response || apiError.details.bodyText !== undefined)) return;
        break;
      default:
        break;
    }
    const chosen = await vscode.window.showErrorMessage(message, ...actions.map((action) => action.title));
    await actions.find((action) => action.title === chosen)?.run();
  }

  private async show(summary: RequestSummary, response: ResponseLike, tenant: TenantRecord | undefined): Promise<void> {
    const context = tenant
      ? [vscode.l10n.t('Tenant: {0} ({1}) {2}', tenant.descrizioneAmbienteDati, tenant.codiceAmbienteDati, tenant.id)]
      : [];
    try {
      const opened = await this.views.responses.open(response, {
        title: `${response.method.toUpperCase()} ${lastSegment(summary.path)} ${response.status}`,
        receivedAt: Date.now(),
        context,
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
    url: string,
    status: number,
    timeMs: number | undefined,
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
        url,
        status,
        timeMs,
        at: Date.now(),
      });
    } catch (error) {
      this.logger.warn(`Could not save the request history: ${String(error)}`);
    }
  }
}

function lastSegment(path: string): string {
  const segments = path.split('/').filter(Boolean);
  return segments[segments.length - 1] ?? path;
}

export const FIX_RESOURCE_COMMAND = 'tenantApi.internal.fixResource';

/** Arguments of FIX_RESOURCE_COMMAND: run the fix, then open the resource again. */
export interface FixResourceArgs {
  tenantId: string;
  method: string;
  path: string;
  fix: string;
  fixArgs: unknown[];
}

function problemFor(
  error: ApiError,
  request: NormalizedRequest,
  tenantId: string,
): { message: string; action?: { command: string; title: string; args?: unknown[] } } | undefined {
  const fixThen = (title: string, fix: string, fixArgs: unknown[] = []) => {
    const args: FixResourceArgs = { tenantId, method: request.method, path: request.path, fix, fixArgs };
    return { command: FIX_RESOURCE_COMMAND, title, args: [args] };
  };
  switch (error.kind) {
    case 'licenceMissing':
    case 'licenceWrongModule':
    case 'licenceUnknown':
      return {
        message: error.kind === 'licenceMissing' ? vscode.l10n.t('licence key missing') : vscode.l10n.t('licence key refused'),
        action: fixThen(
          vscode.l10n.t('Set Licence Key'),
          'tenantApi.setLicenceKey',
          error.details.module ? [error.details.module] : [],
        ),
      };
    case 'auth':
      return { message: vscode.l10n.t('sign-in needed'), action: fixThen(vscode.l10n.t('Sign In'), 'tenantApi.signIn') };
    case 'weeklyQuota':
    case 'quotaReached':
      return {
        message: vscode.l10n.t('weekly quota reached'),
        action: { command: 'tenantApi.showQuota', title: vscode.l10n.t('Show API Usage') },
      };
    default:
      return undefined;
  }
}
