// How the runner splits the in-editor suite between editors that run at the same time: whole test
// files (a file's tests share hooks and run in order), balanced by how long each file took.
// The suite waits on the browser, the sandbox and the editor far more than it computes, so two editors
// on two cores take little more than half the time of one.

/**
 * Seconds each test file took in one editor (measured 2026-11-24 on the 2-core CI machine kind, load
 * average about 10: the `suite timings` the suite prints). Only the balance between the editors depends
 * on them; a file missing here counts as `unknownFileSeconds`. Refresh them when a file grows a lot.
 */
export const fileSeconds: Readonly<Record<string, number>> = {
  // Measured 2026-11-26 alone in one editor, load average 16-17 (its two tests and hooks: 102 s).
  'tableAndUsage.test.js': 100,
  'windows.test.js': 52,
  'watchAndCache.test.js': 50,
  'testing.test.js': 48,
  'workbench.test.js': 38,
  'sendRequestChecks.test.js': 34,
  'ui.test.js': 34,
  'auth.test.js': 31,
  'requestFiles.test.js': 26,
  'assertions.test.js': 23,
  'firstUseDetails.test.js': 22,
  'environments.test.js': 21,
  'licenceKeyHolder.test.js': 17,
  'signInCancel.test.js': 17,
  'accounts.test.js': 14,
  'walkthrough.test.js': 10,
  'signOutLogin.test.js': 7,
  'getSession.test.js': 6,
  'responses.test.js': 6,
  'foundation.test.js': 5,
  'licenceKeys.test.js': 3,
  'italian.test.js': 1,
  'dailyUse.test.js': 140,
  'proxy.test.js': 76,
  'matrix.test.js': 70,
  'catalogues.test.js': 47,
  'otherTools.test.js': 101,
  'screenshots.test.js': 70,
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
