// How the runner splits the in-editor suite between editors that run at the same time: whole test
// files (a file's tests share hooks and run in order), balanced by how long each file took.
// Two editors keep both cores of the CI machine busy (Chromium running the workbench is most of it), so
// the run ends when the slower editor does: the balance is what a good split buys.

/**
 * Seconds each test file took in one editor: the `suite timings` of a two-editor `.ci/run` on the 2-core
 * CI machine kind (2026-11-27, load average 4-6), redisLedger and windows as measured after their first
 * key waited for the extension (about half). `locale:<tag>` is the run of a display language's tests
 * (`--and-locale`), its editor's start included. Only the balance between the editors depends on them;
 * a file missing here counts as `unknownFileSeconds`. Refresh them when a file grows a lot (each editor
 * prints its files' seconds at the end).
 */
export const fileSeconds: Readonly<Record<string, number>> = {
  'requestFiles.test.js': 76,
  'dailyUse.test.js': 65,
  'testing.test.js': 64,
  'tableAndUsage.test.js': 54,
  'watchAndCache.test.js': 53,
  'sendRequestChecks.test.js': 48,
  'redisLedger.test.js': 42,
  'otherTools.test.js': 41,
  'assertions.test.js': 39,
  'ui.test.js': 39,
  'largeResponses.test.js': 35,
  'workbench.test.js': 35,
  'matrix.test.js': 35,
  'auth.test.js': 33,
  'windows.test.js': 30,
  'screenshots.test.js': 30,
  'environments.test.js': 28,
  'catalogues.test.js': 27,
  'firstUseDetails.test.js': 25,
  'signInCancel.test.js': 24,
  'licenceKeyHolder.test.js': 24,
  'accounts.test.js': 23,
  'requestFileQuickFixes.test.js': 19,
  'foundation.test.js': 19,
  'proxy.test.js': 16,
  'signOutLogin.test.js': 15,
  'walkthrough.test.js': 11,
  'responses.test.js': 9,
  'getSession.test.js': 8,
  'cliTerminal.test.js': 5,
  'licenceKeys.test.js': 4,
  'italian.test.js': 1,
  // The Italian run (--and-locale it): its editor's start (about 20 s) and its tests (24 s).
  'locale:it': 45,
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
