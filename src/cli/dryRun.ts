/**
 * --dry-run: each request as it would be sent (variables filled, the route's host and licence module,
 * the headers the file sets, secrets masked), and what the run would cost, with nothing sent and no
 * sign-in. A request that reads another's response shows where that value comes in.
 */
import { describeRunCost, runCost } from '../api/runCost';
import { APPLICATION_LIMITS } from '../api/limits';
import type { QuotaReading, RouteRule } from '../api/types';
import * as l10n from '../common/l10n';
import { maskValues, redactedMark } from '../common/redact';
import { prepareRequest, type PreparedRequest } from '../engine/prepare';
import { labelOf } from '../engine/runner';
import type { VariableSources } from '../engine/variables';
import type { LoadedFile } from './fileRun';

export interface DryRunDeps {
  sources(file: LoadedFile): VariableSources;
  routeFor(path: string): RouteRule | undefined;
  /** Modules that have a licence key set (TENANT_API_KEY_<MODULE>). */
  hasKey(module: string): boolean;
  readings(): readonly QuotaReading[];
  /** The run's calls (each request once per tenant and data row, chained ones included), by organization. */
  calls: ReadonlyMap<string | undefined, number>;
}

function routeText(prepared: PreparedRequest, deps: DryRunDeps): string {
  if (prepared.target.kind === 'absolute') return l10n.t('another address: sent without credentials unless it is the base URL or a cluster');
  const route = deps.routeFor(prepared.target.path.split('?')[0]);
  if (!route) return l10n.t('no route: add a rule to tenantApi.routes');
  const parts = [route.host === 'cluster' ? l10n.t("the tenant's cluster") : l10n.t('the base URL')];
  if (route.module) parts.push(deps.hasKey(route.module) ? l10n.t('licence module {0} (key set)', route.module) : l10n.t('licence module {0} (no key: set TENANT_API_KEY_{1})', route.module, route.module.toUpperCase()));
  if (route.tenantScoped) parts.push(prepared.tenant ? l10n.t('tenant {0}', prepared.tenant) : l10n.t('the --tenant tenant'));
  return parts.join(', ');
}

function requestLines(file: LoadedFile, deps: DryRunDeps): string[] {
  const lines: string[] = [file.file];
  for (const request of file.parsed.requests) {
    const label = labelOf(request);
    const outcome = prepareRequest(file.parsed, request, deps.sources(file), file.document);
    if (!outcome.ok) {
      const waits = outcome.problems.length > 0 && outcome.problems.every((problem) => problem.kind === 'notSent');
      lines.push(`  ${label}: ${request.method} ${request.url}`, `    ${waits ? l10n.t('filled when sent: {0}', outcome.message) : l10n.t('cannot be sent: {0}', outcome.message)}`);
      continue;
    }
    const prepared = outcome.request;
    const target = prepared.target.kind === 'path' ? prepared.target.path : prepared.target.url.href;
    lines.push(`  ${label}: ${prepared.method} ${maskValues(target, prepared.secrets, redactedMark())}`, `    → ${routeText(prepared, deps)}`);
    for (const [name, value] of Object.entries(prepared.headers)) lines.push(`    ${name}: ${maskValues(value, prepared.secrets, redactedMark())}`);
    if (prepared.body !== undefined) lines.push(`    ${l10n.t('body: {0} bytes', Buffer.byteLength(prepared.body))}`);
    for (const name of prepared.droppedCredentialHeaders) lines.push(`    ${l10n.t('{0} is not sent from a file: the runner sets it', name)}`);
  }
  return lines;
}

export function dryRunLines(files: readonly LoadedFile[], deps: DryRunDeps): string[] {
  const lines = files.flatMap((file) => requestLines(file, deps));
  const readings = deps.readings();
  const cost = runCost(deps.calls, APPLICATION_LIMITS, (organization) => readings.find((reading) => reading.organization === organization));
  lines.push('', l10n.t('Would cost: {0} (each request once per tenant and data row; * counted as one tenant; nothing was sent)', describeRunCost(cost)));
  return lines;
}
