import * as vscode from 'vscode';
import { describeRunCost, type RunCost } from '../../../api/runCost';
import { confirmProtectedRun, withConfirmedCalls } from '../../../commands/protectedCallPrompt';
import type { ParsedFile, ParsedRequest } from '../../../engine/parser';
import type { RequestFileRunner, RunOutcome } from '../../../engine/runner';
import { dependencyNames, plannedCalls, selectTests, testIdOf } from '../../../engine/testing/testPlan';
import { verdictOf, type TestVerdict } from '../../../engine/testing/testVerdict';
import { readConfirmRunPercent } from '../../../settings/editorSettings';
import type { Environment } from '../../../settings/environments';
import { requestDocument, type ParsedDocuments } from '../documents';
import { callsRunCost, confirmRunCost, type RunCostDeps, type RunCostWording } from '../runCostPrompt';
import { reportVerdict, type TestRunReport } from './testResults';
import type { RequestFileTestItems } from './testItems';

export interface TestRunDeps {
  controller: vscode.TestController;
  items: RequestFileTestItems;
  runner: RequestFileRunner;
  parsed: ParsedDocuments;
  cost?: RunCostDeps;
  /** The environment the run sends to (the profile's, made active before the run). */
  environment(): Environment;
}

/** One file of a run: its document, its parse, its tests to run and their items. */
interface Suite {
  document: vscode.TextDocument;
  file: ParsedFile;
  tests: ParsedRequest[];
  items: Map<number, vscode.TestItem>;
}

const TEST_RUN_WORDING: RunCostWording = {
  question: (cost) => vscode.l10n.t('This test run makes {0}. Run it?', cost),
  go: () => vscode.l10n.t('Run Tests'),
};

/** The files of a run, in order, each with the ids of its tests to run (undefined: all). */
function requestedFiles(request: vscode.TestRunRequest, controller: vscode.TestController): Map<string, { uri: vscode.Uri; ids?: Set<string> }> {
  const excluded = new Set(request.exclude ?? []);
  const files = new Map<string, { uri: vscode.Uri; ids?: Set<string> }>();
  const included = request.include ?? [...iterate(controller.items)].sort((a, b) => a.id.localeCompare(b.id));
  for (const item of included) {
    if (excluded.has(item) || !item.uri) continue;
    const file = item.parent ?? item;
    const entry = files.get(file.id) ?? { uri: item.uri, ids: new Set<string>() };
    files.set(file.id, entry);
    const children = item.parent ? [item] : [...iterate(item.children)];
    for (const child of children) if (!excluded.has(child)) entry.ids?.add(child.id);
  }
  return files;
}

function* iterate(collection: vscode.TestItemCollection): Generator<vscode.TestItem> {
  for (const [, item] of collection) yield item;
}

/** Reads each file as it is now (its item updated too) and its tests to run. */
async function loadSuites(request: vscode.TestRunRequest, deps: TestRunDeps): Promise<Suite[]> {
  const suites: Suite[] = [];
  for (const { uri, ids } of requestedFiles(request, deps.controller).values()) {
    const document = await vscode.workspace.openTextDocument(uri).then(undefined, () => undefined);
    if (!document) {
      // Deleted since it was listed: no longer a test.
      deps.controller.items.delete(uri.toString());
      continue;
    }
    const file = deps.parsed.get(document);
    const item = deps.items.update(uri, file);
    const tests = selectTests(file, ids);
    const items = new Map(tests.flatMap((test) => {
      const child = item?.children.get(testIdOf(test));
      return child ? [[test.index, child] as const] : [];
    }));
    if (tests.length > 0) suites.push({ document, file, tests: tests.filter((test) => items.has(test.index)), items });
  }
  return suites;
}

/** Runs the requested tests through the runner (and so the shared throttle); see the README's "Testing view". */
export async function runTests(request: vscode.TestRunRequest, token: vscode.CancellationToken, deps: TestRunDeps): Promise<TestRunReport> {
  const suites = await loadSuites(request, deps);
  // A test run starts afresh, as the command line would: chained requests are sent again, once.
  for (const suite of suites) deps.runner.forget(suite.document.uri.toString());
  const calls = suites.flatMap((suite) => plannedFor(suite, deps));
  const cost = deps.cost && (await callsRunCost(calls, deps.cost));
  const costText = cost && describeRunCost(cost, vscode.env.language);
  const name = costText ? vscode.l10n.t('Tenant API tests: {0}', costText) : vscode.l10n.t('Tenant API tests');
  const run = deps.controller.createTestRun(request, name, true);
  const report: TestRunReport = { name, cost: costText, results: [] };
  // Every test of the run ends with a state of its own: one left queued would show so until the next run.
  const waiting = new Set(suites.flatMap((suite) => [...suite.items.values()]));
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
async function mayStart(calls: readonly ParsedRequest[], cost: RunCost | undefined, environment: Environment): Promise<boolean> {
  const writes = calls.filter((call) => call.method.toUpperCase() !== 'GET').map((call) => ({ method: call.method.toUpperCase(), url: call.url }));
  if (cost && !(await confirmRunCost(cost, readConfirmRunPercent(), TEST_RUN_WORDING))) return false;
  return !environment.protected || confirmProtectedRun(environment, writes);
}

function plannedFor(suite: Suite, deps: TestRunDeps): ParsedRequest[] {
  const sources = { ...deps.runner.sources(suite.document.uri.toString(), suite.file), result: () => undefined };
  return plannedCalls(suite.file, suite.tests, (request) => dependencyNames(request, sources));
}

/** Each test in order; Cancel aborts the call in flight and skips it and the rest. `reported` is told of each test given its state. */
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
      // A request that failed in this run is not sent again for the tests that read it (SendOptions.attempted).
      const attempted = new Map<number, RunOutcome>();
      for (const test of suite.tests) {
        const item = suite.items.get(test.index)!;
        let verdict: TestVerdict;
        if (token.isCancellationRequested) {
          verdict = { kind: 'skipped' };
        } else {
          run.started(item);
          const outcome = await deps.runner.send(requestDocument(suite.document), test.index, { signal: abort.signal, attempted });
          verdict = verdictOf(outcome, token.isCancellationRequested);
          if (verdict.kind === 'errored') report.firstError ??= { outcome, item };
        }
        reportVerdict(run, item, suite.document, verdict, report);
        reported(item);
      }
    }
  } finally {
    listener.dispose();
  }
}
