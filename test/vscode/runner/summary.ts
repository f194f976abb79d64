// The suite's machine-readable last line, printed by test/vscode/suite/index.ts.
export interface SuiteSummary {
  passed: number;
  failed: number;
  pending: number;
}

/** The suite's first line: the editor is up and the extension host runs the suite. */
export function startLine(description: string): string {
  return `SUITE: started in ${description}`;
}

export const startPattern = /(?:^|\s)SUITE: started in /;

export const summaryPattern = /(?:^|\s)TESTS: (\d+) passed, (\d+) failed, (\d+) pending$/;

export function formatSummary(summary: SuiteSummary): string {
  return `TESTS: ${summary.passed} passed, ${summary.failed} failed, ${summary.pending} pending`;
}

/** The last summary line among the suite's output, or undefined when there is none. */
export function parseSummary(lines: string[]): SuiteSummary | undefined {
  for (const text of [...lines].reverse()) {
    for (const line of text.split('\n').reverse()) {
      const match = summaryPattern.exec(line.trim());
      if (match) return { passed: Number(match[1]), failed: Number(match[2]), pending: Number(match[3]) };
    }
  }
  return undefined;
}

/** One line per failed test, printed by the suite before its summary so the run's last lines can name them. */
export const failedTestPrefix = 'FAILED TEST: ';

export function formatFailedTest(title: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `${failedTestPrefix}${title}: ${message.split('\n').slice(0, 3).join(' / ').slice(0, 400)}`;
}

/** The failed tests' lines among the suite's output, without the prefix. */
export function parseFailedTests(lines: string[]): string[] {
  return lines
    .flatMap((text) => text.split('\n'))
    .map((line) => line.trim())
    .filter((line) => line.startsWith(failedTestPrefix))
    .map((line) => line.slice(failedTestPrefix.length));
}
