// How the runner splits the in-editor suite between editors that run at the same time: whole test
// files (a file's tests share hooks and run in order), balanced by how long each file took.
// The suite waits on the browser, the sandbox and the editor far more than it computes, so two editors
// on two cores take little more than half the time of one.

/**
 * Seconds each test file took in one editor (the `suite timings` of a three-editor `.ci/run` on the 2-core
 * CI machine kind, 2026-11-26, at load average 10-20, times 0.4 to be near a quiet machine's); `locale:<tag>`
 * is the run of a display language's tests (`--and-locale`), its editor's start included. Only the
 * balance between the editors depends on them; a file missing here counts as `unknownFileSeconds`.
 * Refresh them when a file grows a lot (each editor prints its files' seconds at the end).
 */
export const fileSeconds: Readonly<Record<string, number>> = {
  'requestFiles.test.js': 73,
  'windows.test.js': 71,
  'sendRequestChecks.test.js': 65,
  'testing.test.js': 56,
  'redisLedger.test.js': 45,
  'workbench.test.js': 36,
  'watchAndCache.test.js': 35,
  'largeResponses.test.js': 32,
  'ui.test.js': 31,
  'environments.test.js': 27,
  'auth.test.js': 25,
  'firstUseDetails.test.js': 24,
  'responses.test.js': 18,
  'accounts.test.js': 18,
  'signInCancel.test.js': 17,
  'assertions.test.js': 15,
  'walkthrough.test.js': 15,
  'licenceKeyHolder.test.js': 15,
  'signOutLogin.test.js': 11,
  'requestFileQuickFixes.test.js': 11,
  'foundation.test.js': 9,
  'getSession.test.js': 7,
  'cliTerminal.test.js': 6,
  'licenceKeys.test.js': 2,
  'italian.test.js': 1,
  // Measured on their branches in the old table's scale (where windows.test.js was 52), times 71/52.
  'proxy.test.js': 104,
  'matrix.test.js': 95,
  'catalogues.test.js': 73,
  'otherTools.test.js': 138,
  // Measured on its branch alone in one editor (124 s, the slower of two runs, load average about 8), times 71/52.
  'dailyUse.test.js': 169,
  // The Italian run (--and-locale it): its editor's start and its tests.
  'locale:it': 32,
  // Measured on main in the old table's scale (tableAndUsage alone in one editor), times 71/52.
  'tableAndUsage.test.js': 137,
  'screenshots.test.js': 96,
};

export const unknownFileSeconds = 15;

/**
 * Splits `files` into at most `count` groups of about equal expected time (longest file first, each to
 * the group with the least so far). The same files always give the same groups, each sorted by name,
 * as the suite runs them; no group is empty.
 */
export function splitFiles(files: readonly string[], count: number, seconds: (file: string) => number = expectedSeconds): string[][] {
  const groups = Array.from({ length: Math.max(1, Math.min(count, files.length)) }, () => ({ files: [] as string[], seconds: 0 }));
  const longestFirst = [...files].sort((a, b) => seconds(b) - seconds(a) || a.localeCompare(b));
  for (const file of longestFirst) {
    const lightest = groups.reduce((best, group) => (group.seconds < best.seconds ? group : best));
    lightest.files.push(file);
    lightest.seconds += seconds(file);
  }
  return groups.map((group) => group.files.sort()).filter((group) => group.length > 0);
}

export function expectedSeconds(file: string): number {
  return fileSeconds[file] ?? unknownFileSeconds;
}
