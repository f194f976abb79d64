import * as vscode from 'vscode';
import { describeRunCost, type RunCost } from '../../../api/runCost';
import type { TenantResolver } from '../../../api/tenantResolver';
import { confirmProtectedRun, withConfirmedCalls } from '../../../commands/protectedCallPrompt';
import type { MatrixCell, PlannedCall } from '../../../engine/matrix';
import { runMatrix, type CellResult } from '../../../engine/matrixRun';
import type { ParsedFile } from '../../../engine/parser';
import type { RequestFileRunner } from '../../../engine/runner';
import { selectTests, testIdOf } from '../../../engine/testing/testPlan';
import { verdictOf, type TestVerdict } from '../../../engine/testing/testVerdict';
import { readConfirmRunPercent } from '../../../settings/editorSettings';
import type { Environment } from '../../../settings/environments';
import { requestDocument, type ParsedDocuments } from '../documents';
import { fileMatrix, fileMatrixCalls } from '../fileMatrix';
import { callsRunCost, confirmRunCost, type RunCostDeps, type RunCostWording } from '../runCostPrompt';
import { combineVerdicts } from './combineVerdicts';
import { reportVerdict, type TestRunReport } from './testResults';
import { tenantOfItem, type RequestFileTestItems } from './testItems';

export interface TestRunDeps {
  controller: vscode.TestController;
  items: RequestFileTestItems;
  runner: RequestFileRunner;
  parsed: ParsedDocuments;
  tenants: Pick<TenantResolver, 'list' | 'known'>;
  cost?: RunCostDeps;
  /** The environment the run sends to (the profile's, made active before the run). */
  environment(): Environment;
  /** The tenants of tests that name none (the "every tenant" profile: `*`); undefined: the active tenant. */
  matrixTenants?: readonly string[];
}

/** One file of a run: its document, its parse, its tests' cells to run and the item each cell reports to. */
interface Suite {
  document: vscode.TextDocument;
  file: ParsedFile;
  cells: MatrixCell[];
  /** The item a cell's verdict goes to: the test's tenant child in a matrix, else the test. */
  targets: vscode.TestItem[];
}

/** The tests asked for in one file: each test's id, with the tenants asked for (undefined: all of them). */
type Wanted = Map<string, Set<string> | undefined>;

const TEST_RUN_WORDING: RunCostWording = {
  question: (cost) => vscode.l10n.t('This test run makes {0}. Run it?', cost),
  go: () => vscode.l10n.t('Run Tests'),
};

function* iterate(collection: vscode.TestItemCollection): Generator<vscode.TestItem> {
  for (const [, item] of collection) yield item;
}

/** The files of a run, in order, each with its tests to run (undefined: all) and the tenants of each. */
function requestedFiles(request: vscode.TestRunRequest, controller: vscode.TestController): Map<string, { uri: vscode.Uri; wanted?: Wanted }> {
  const excluded = new Set(request.exclude ?? []);
  const files = new Map<string, { uri: vscode.Uri; wanted?: Wanted }>();
  const included = request.include ?? [...iterate(controller.items)].sort((a, b) => a.id.localeCompare(b.id));
  for (const item of included) {
    if (excluded.has(item) || !item.uri) continue;
    const tenant = tenantOfItem(item);
    const test = tenant !== undefined ? item.parent : item.parent ? item : undefined;
    const file = test?.parent ?? item;
    const entry = files.get(file.id) ?? { uri: item.uri, wanted: new Map() };
    files.set(file.id, entry);
    for (const child of test ? [test] : [...iterate(item.children)]) {
      if (excluded.has(child)) continue;
      const tenants = tenant !== undefined ? new Set([...(entry.wanted!.get(child.id) ?? []), tenant.toLowerCase()]) : undefined;
      entry.wanted!.set(child.id, tenants);
    }
  }
  return files;
}

/** Reads each file as it is now (its item updated too), its tests' cells, and the item each reports to. */
async function loadSuites(request: vscode.TestRunRequest, deps: TestRunDeps): Promise<Suite[]> {
  const suites: Suite[] = [];
  for (const { uri, wanted } of requestedFiles(request, deps.controller).values()) {
    const document = await vscode.workspace.openTextDocument(uri).then(undefined, () => undefined);
    if (!document) {
      // Deleted since it was listed: no longer a test.
      deps.controller.items.delete(uri.toString());
      continue;
    }
    const file = deps.parsed.get(document);
    const item = deps.items.update(uri, file);
    const tests = selectTests(file, wanted && new Set(wanted.keys())).filter((test) => item?.children.get(testIdOf(test)));
    if (!item || tests.length === 0) continue;
    const all = await fileMatrix(uri.toString(), uri.scheme === 'file' ? uri.fsPath : undefined, file, tests, deps, deps.matrixTenants);
    const cells = all.filter((cell) => {
      const tenants = wanted?.get(testIdOf(cell.request));
      return tenants === undefined || (cell.tenant !== undefined && tenants.has(cell.tenant.toLowerCase()));
    });
    const targets = cells.map((cell) => targetOf(item.children.get(testIdOf(cell.request))!, cell, deps));
    suites.push({ document, file, cells, targets });
  }
  return suites;
}

/** A cell of a matrix reports to its tenant's child of the test (made when the tree did not list it), else to the test. */
function targetOf(test: vscode.TestItem, cell: MatrixCell, deps: TestRunDeps): vscode.TestItem {
  if (cell.tenant === undefined || (!cell.multiTenant && cell.run.tenant === undefined)) return test;
  return deps.items.tenantItem(test, cell.tenant, test.uri!);
}

/** Runs the requested tests through the runner (and so the shared throttle); see the README's "Testing view". */
export async function runTests(request: vscode.TestRunRequest, token: vscode.CancellationToken, deps: TestRunDeps): Promise<TestRunReport> {
  const suites = await loadSuites(request, deps);
  // A test run starts afresh, as the command line would: chained requests are sent again, once.
  for (const suite of suites) deps.runner.forget(suite.document.uri.toString());
  const calls = suites.flatMap((suite) => fileMatrixCalls(suite.document.uri.toString(), suite.file, suite.cells, deps.runner));
  const cost = deps.cost && (await callsRunCost(calls, deps.cost));
  const costText = cost && describeRunCost(cost, vscode.env.language);
  const name = costText ? vscode.l10n.t('Tenant API tests: {0}', costText) : vscode.l10n.t('Tenant API tests');
  const run = deps.controller.createTestRun(request, name, true);
  const report: TestRunReport = { name, cost: costText, results: [] };
  // Every test of the run ends with a state of its own: one left queued would show so until the next run.
  const waiting = new Set(suites.flatMap((suite) => suite.targets));
  for (const item of waiting) run.enqueued(item);
  if (costText) run.appendOutput(`${vscode.l10n.t('Cost of this run: {0}', costText)}\r\n`);
  try {
    if (!(await mayStart(calls, cost, deps.environment())) || token.isCancellationRequested) {
      run.appendOutput(`${vscode.l10n.t('Not started: nothing was sent.')}\r\n`);
      return { ...report, declined: true };
    }
    await withConfirmedCalls(deps.environment().id, () => sendSuites(suites, run, token, deps, report, (item) => waiting.delete(item)));
    return report;
  } finally {
    // Whatever happens (a declined question, Cancel, a question or a send that throws), the tests not
    // reported are skipped and the run ends: the view never shows them queued or running.
    for (const item of waiting) run.skipped(item);
    run.end();
  }
}

/** The cost's question (above the setting's share) and a protected environment's (once, when the run writes); true to go. */
async function mayStart(calls: readonly PlannedCall[], cost: RunCost | undefined, environment: Environment): Promise<boolean> {
  const writes = calls.filter((call) => call.request.method.toUpperCase() !== 'GET').map((call) => ({ method: call.request.method.toUpperCase(), url: call.request.url }));
  if (cost && !(await confirmRunCost(cost, readConfirmRunPercent(), TEST_RUN_WORDING))) return false;
  return !environment.protected || confirmProtectedRun(environment, writes);
}

/** A cell's verdict: a tenant without a licence key skipped with the sentence that names what to set. */
function cellVerdict(result: CellResult, cancelled: boolean): TestVerdict {
  if (result.kind === 'notRun') return { kind: 'skipped', reason: vscode.l10n.t('The run was cancelled.') };
  if (result.kind === 'skipped') return { kind: 'skipped', reason: result.reason };
  return verdictOf(result.outcome, cancelled);
}

/**
 * Each suite's cells in order; Cancel aborts the call in flight and skips it and the rest. Each item's
 * cells (its rows) make one verdict. `reported` is told of each item given its state.
 */
async function sendSuites(
  suites: readonly Suite[],
  run: vscode.TestRun,
  token: vscode.CancellationToken,
  deps: TestRunDeps,
  report: TestRunReport,
  reported: (item: vscode.TestItem) => void,
): Promise<void> {
  const abort = new AbortController();
  const listener = token.onCancellationRequested(() => abort.abort());
  try {
    for (const suite of suites) {
      let index = 0;
      const { results } = await runMatrix(deps.runner, requestDocument(suite.document), suite.cells, {
        signal: abort.signal,
        before: () => {
          run.started(suite.targets[index++]);
          return undefined;
        },
      });
      const byItem = new Map<vscode.TestItem, Array<{ verdict: TestVerdict; cell: MatrixCell }>>();
      results.forEach((result, at) => {
        const verdict = cellVerdict(result, token.isCancellationRequested && result.kind === 'notRun');
        if (verdict.kind === 'errored' && result.kind === 'ran') report.firstError ??= { outcome: result.outcome, item: suite.targets[at] };
        byItem.set(suite.targets[at], [...(byItem.get(suite.targets[at]) ?? []), { verdict, cell: result.cell }]);
      });
      for (const [item, verdicts] of byItem) {
        reportVerdict(run, item, suite.document, combineVerdicts(verdicts), report);
        reported(item);
      }
    }
  } finally {
    listener.dispose();
  }
}
