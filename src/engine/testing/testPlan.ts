/**
 * A request file as a test suite, for the Testing view (and the command line next): which requests are
 * tests (those with `??` assertions), their ids and labels, and the calls a run will make, in order,
 * chained requests first, as the runner sends them. No `vscode` here.
 */
import type { ParsedFile, ParsedRequest } from '../parser';
import { labelOf } from '../runner';
import { resolveText, type VariableSources } from '../variables';

export interface TestCase {
  /** The request's position in its file. */
  index: number;
  /** Stable while the file is edited: `name:<name>` for a named request, else `line:<N>` (1-based). */
  id: string;
  /** The request's name, or "line N". */
  label: string;
  /** 0-based lines of the block, for the item's range (the gutter's run button sits on its first line). */
  startLine: number;
  requestLine: number;
  endLine: number;
  /** How many assertions it has (the item's description). */
  assertions: number;
}

/** Runner.ts's depth of chained requests: a run never follows more. */
const MAX_DEPENDENCY_DEPTH = 5;

export function testIdOf(request: ParsedRequest): string {
  return request.name !== undefined ? `name:${request.name}` : `line:${request.requestLine + 1}`;
}

/** The requests with at least one assertion, in file order. */
export function testCasesOf(file: ParsedFile): TestCase[] {
  return file.requests
    .filter((request) => request.assertions.length > 0)
    .map((request) => ({
      index: request.index,
      id: testIdOf(request),
      label: labelOf(request),
      startLine: request.startLine,
      requestLine: request.requestLine,
      endLine: request.endLine,
      assertions: request.assertions.length,
    }));
}

/** The tests of `file` whose ids are in `ids` (all of them when `ids` is undefined), in file order. */
export function selectTests(file: ParsedFile, ids?: ReadonlySet<string>): ParsedRequest[] {
  const tests = new Set(testCasesOf(file).map((test) => test.index));
  return file.requests.filter((request) => tests.has(request.index) && (ids === undefined || ids.has(testIdOf(request))));
}

/**
 * The named requests `request` reads (in its line, headers, inline body, `@tenant`, or an assertion's
 * expected value, through file variables too): the same rule the runner follows to send them first.
 * `sources` should know no results, so every reference counts.
 */
export function dependencyNames(request: ParsedRequest, sources: VariableSources): string[] {
  const texts = [
    request.url,
    ...request.headers.map((header) => header.value),
    ...(request.body?.kind === 'inline' ? [request.body.text] : []),
    ...(request.metadata.tenant ? [request.metadata.tenant.value] : []),
    ...request.assertions.flatMap((assertion) => (assertion.expected !== undefined ? [assertion.expected] : [])),
  ];
  const names = texts.flatMap((text) => resolveText(text, sources).problems.filter((problem) => problem.kind === 'notSent').map((problem) => problem.name!));
  return [...new Set(names)];
}

/**
 * Every call a run of `tests` makes, in order: each test in file order (each test is sent, even one sent
 * before as another's dependency), preceded by the requests it reads that were not sent yet in this run
 * (each once, at most MAX_DEPENDENCY_DEPTH deep), as the runner sends them. What the run's cost and the
 * protected-environment question are made from.
 */
export function plannedCalls(file: ParsedFile, tests: readonly ParsedRequest[], dependenciesOf: (request: ParsedRequest) => readonly string[]): ParsedRequest[] {
  const sent = new Set<number>();
  const calls: ParsedRequest[] = [];
  const sendFirst = (request: ParsedRequest, visiting: ReadonlySet<number>) => {
    if (visiting.size > MAX_DEPENDENCY_DEPTH) return;
    for (const name of dependenciesOf(request)) {
      const dependency = file.requests.find((candidate) => candidate.name === name);
      if (!dependency || sent.has(dependency.index) || visiting.has(dependency.index)) continue;
      sendFirst(dependency, new Set([...visiting, dependency.index]));
      sent.add(dependency.index);
      calls.push(dependency);
    }
  };
  for (const test of [...tests].sort((a, b) => a.index - b.index)) {
    sendFirst(test, new Set([test.index]));
    sent.add(test.index);
    calls.push(test);
  }
  return calls;
}

/** Whether any call is not a GET (a protected environment asks once before such a run). */
export function writesAny(calls: readonly ParsedRequest[]): boolean {
  return calls.some((call) => call.method.toUpperCase() !== 'GET');
}
