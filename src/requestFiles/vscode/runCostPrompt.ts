import * as vscode from 'vscode';
import { APPLICATION_LIMITS } from '../../api/limits';
import { confirmationReasons, describeRunCost, runCost, type RunCost } from '../../api/runCost';
import type { QuotaView, RouteRule } from '../../api/types';
import type { PlannedCall } from '../../engine/matrix';
import { callsByOrganization } from '../../engine/runPlan';

/** Up to this many calls a run is not worth a word about its cost. */
export const FEW_CALLS = 3;

export interface RunCostDeps {
  quota: Pick<QuotaView, 'reading'>;
  routeFor(path: string): RouteRule | undefined;
  /** The organization of the licence key a call of the module for the tenant carries (the one its calls count against). */
  licenceOrganization?(module: string, tenant?: string): Promise<string | undefined>;
}

/** What sending the whole file costs (each request once per tenant of its matrix), from the last readings seen; undefined for a run of a few calls. */
export async function fileRunCost(calls: readonly PlannedCall[], deps: RunCostDeps): Promise<RunCost | undefined> {
  return callsRunCost(calls, deps);
}

/** What sending these calls costs (a test run's, chained requests included, once per tenant); undefined for a few calls. */
export async function callsRunCost(calls: readonly PlannedCall[], deps: RunCostDeps): Promise<RunCost | undefined> {
  if (calls.length <= FEW_CALLS) return undefined;
  const byOrganization = await callsByOrganization(calls, (path) => deps.routeFor(path), async (module, tenant) => deps.licenceOrganization?.(module, tenant));
  return runCost(byOrganization, APPLICATION_LIMITS, (organization) => deps.quota.reading(organization));
}

/** The question and its button: Send All's, or another run's (a test run). */
export interface RunCostWording {
  question(cost: string): string;
  go(): string;
}

const SEND_ALL_WORDING: RunCostWording = { question: (cost) => vscode.l10n.t('Send All makes {0}. Send it?', cost), go: () => vscode.l10n.t('Send All') };

/**
 * Asks first when the run takes at least `thresholdPercent` of an organization's remaining quota, or
 * counts against a quota not known yet; the detail says which and why. True to go on.
 */
export async function confirmRunCost(cost: RunCost, thresholdPercent: number, wording: RunCostWording = SEND_ALL_WORDING): Promise<boolean> {
  const locale = vscode.env.language;
  const reasons = confirmationReasons(cost, thresholdPercent, locale);
  if (reasons.length === 0) return true;
  const send = wording.go();
  const setting = vscode.l10n.t(
    'You are asked from {0} % of a remaining weekly quota, and when a quota is not known yet (tenantApi.quota.confirmRunPercent).',
    thresholdPercent.toLocaleString(locale, { maximumFractionDigits: 4 }),
  );
  const answer = await vscode.window.showWarningMessage(wording.question(describeRunCost(cost, locale)), { modal: true, detail: [...reasons, setting].join('\n') }, send);
  return answer === send;
}
