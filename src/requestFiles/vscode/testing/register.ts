import * as vscode from 'vscode';
import { isApiError } from '../../../api/errors';
import { offerNextActions } from '../../../commands/nextActions';
import { outcomeOfError } from '../../../commands/requestOutcome';
import type { TenantResolver } from '../../../api/tenantResolver';
import type { RequestFileRunner } from '../../../engine/runner';
import { EVERY_TENANT } from '../../../engine/tenantList';
import type { ParsedDocuments } from '../documents';
import type { RunCostDeps } from '../runCostPrompt';
import { EnvironmentRunProfiles, type TestEnvironments } from './runProfiles';
import { RequestFileTestItems } from './testItems';
import type { TestRunReport } from './testResults';
import { runTests } from './testRun';

export const TEST_CONTROLLER_ID = 'tenantApi.requestFiles';

export interface TestingDeps {
  runner: RequestFileRunner;
  parsed: ParsedDocuments;
  /** The signed-in user's tenants (a matrix's, the "every tenant" profile's). */
  tenants: Pick<TenantResolver, 'list' | 'known'>;
  cost?: RunCostDeps;
  environments: TestEnvironments;
}

/** What the in-editor tests read (exported by activate() in test runs only). */
export interface TestingHooks {
  /** The report of the last run that ended. */
  lastRun(): TestRunReport | undefined;
  /** Searches the workspace now (the view does it when it opens). */
  discover(): Promise<void>;
}

/**
 * Request files with assertions in VS Code's Testing view: the tree (testItems), a Run profile per
 * environment (runProfiles), a run through the request files' runner and so the shared throttle
 * (testRun). VS Code keeps each test's last result across reloads (a persisted run); no store of ours.
 */
export function registerTestingView(subscriptions: vscode.Disposable[], deps: TestingDeps): TestingHooks {
  const controller = vscode.tests.createTestController(TEST_CONTROLLER_ID, vscode.l10n.t('Tenant API request files'));
  const items = new RequestFileTestItems(controller, deps.parsed, () => deps.tenants.known());
  let last: TestRunReport | undefined;
  const run = async (environmentId: string, profile: vscode.TestRunProfile, request: vscode.TestRunRequest, token: vscode.CancellationToken, matrixTenants?: readonly string[]) => {
    if (deps.environments.active().id !== environmentId) await deps.environments.switchTo(environmentId);
    await items.discover();
    last = await runTests(request, token, { controller, items, runner: deps.runner, parsed: deps.parsed, tenants: deps.tenants, cost: deps.cost, environment: () => deps.environments.active(), matrixTenants });
    offerFix(last, (item) => run(environmentId, profile, new vscode.TestRunRequest([item], undefined, profile), new vscode.CancellationTokenSource().token, matrixTenants));
  };
  const profiles = new EnvironmentRunProfiles(controller, deps.environments, run);
  // Every test once per tenant of the signed-in user (those that name tenants keep theirs), in the active environment.
  const everyTenant = controller.createRunProfile(vscode.l10n.t('Run for Every Tenant'), vscode.TestRunProfileKind.Run, (request, token) =>
    run(deps.environments.active().id, everyTenant, request, token, [EVERY_TENANT]),
  );
  subscriptions.push(controller, items, profiles, everyTenant);
  return { lastRun: () => last, discover: () => items.discover() };
}

/**
 * A test that got no answer because of the client (signed out, no licence key, calls stopped): the
 * notification with the one next step Send offers, and once it succeeded, that test runs again.
 */
function offerFix(report: TestRunReport, rerun: (item: vscode.TestItem) => Promise<void>): void {
  const error = report.firstError?.outcome.error;
  if (!report.firstError || !error || !isApiError(error.cause)) return;
  const { outcome, item } = report.firstError;
  const next = outcomeOfError(error.cause, { method: outcome.request.method, path: outcome.request.url, preview: false });
  // A test run never sends over the quota: Send Anyway stays with Send.
  const actions = next.actions.filter((action) => !('resend' in action && action.resend.sendOverQuota));
  if (next.notify && actions.length > 0) void offerNextActions({ ...next, actions, summary: error.message }, () => rerun(item));
}
