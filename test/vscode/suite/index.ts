// The in-editor suite's entry: run() is called in the extension host by both runners
// (code-server: npm run test:vscode; @vscode/test-electron: npm run test:electron).
// It loads every *.test.js that esbuild wrote beside it (one per test/vscode/suite/*.test.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as util from 'node:util';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { formatFailedTest, formatSummary, startLine } from '../runner/summary';
import { SuiteTimings } from '../runner/suiteTimings';
import { driver, driverVariable } from './helpers/driver';

/** Set by the runner from --grep: only tests whose full title matches run. */
const grepVariable = 'TENANT_API_TEST_GREP';
/** Set by the runner when it splits the suite between editors: the test files (a.test.js,b.test.js) this editor runs. */
const filesVariable = 'TENANT_API_TEST_FILES';

// The extension host forwards console.log's arguments without applying printf-style formats.
Mocha.reporters.Base.consoleLog = (...args: unknown[]) => console.log(util.format(...args));

export function run(): Promise<void> {
  // The runner waits for this line to know that the editor started the suite.
  console.log(startLine(`VS Code ${vscode.version} (${vscode.env.appName}, ui kind ${vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop'}, remote ${vscode.env.remoteName ?? 'none'})`));
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    // The spec reporter prints with console.log, which reaches the runner through codeAutomationLog.
    reporter: 'spec',
    timeout: 60_000,
    slow: 5_000,
    forbidOnly: true,
    rootHooks: {
      // A failed test leaves a picture of the workbench behind: test/vscode/screenshots/failed-<title>.png
      async afterEach(this: Mocha.Context) {
        const test = this.currentTest;
        if (test?.state !== 'failed' || !driver.available()) return;
        const name = `failed-${test.fullTitle().replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80)}`;
        try {
          console.log(`      screenshot of the failure: ${await driver.screenshot(name)}`);
        } catch (error) {
          console.log(`      (no screenshot of the failure: ${(error as Error).message})`);
        }
      },
    },
  });
  const grep = process.env[grepVariable];
  if (grep) {
    try {
      mocha.grep(new RegExp(grep));
    } catch (error) {
      return Promise.reject(new Error(`--grep ${grep} is not a valid regular expression: ${(error as Error).message}`));
    }
    console.log(`only tests matching /${grep}/`);
  }
  // The code-server runner drives a browser-hosted editor, where every test can run: there a missing
  // driver (which makes `if (!driver.available()) return` tests pass without their UI part) or a
  // skipped test (this.skip() in a test or a hook) fails the run. test:electron may still skip them.
  const everyTestMustRun = vscode.env.uiKind === vscode.UIKind.Web;
  if (everyTestMustRun && !driver.available()) {
    console.log(formatSummary({ passed: 0, failed: 1, pending: 0 }));
    return Promise.reject(new Error(`a browser-hosted editor without ${driverVariable}: the code-server runner gives every test the browser driver, so no test may skip its UI part`));
  }
  const only = process.env[filesVariable] ? new Set(process.env[filesVariable].split(',')) : undefined;
  const files = fs
    .readdirSync(__dirname)
    .filter((name) => name.endsWith('.test.js') && (!only || only.has(name)))
    .sort();
  if (only && files.length !== only.size) {
    console.log(formatSummary({ passed: 0, failed: 1, pending: 0 }));
    return Promise.reject(new Error(`${filesVariable} names files that are not in ${__dirname}: ${[...only].filter((name) => !files.includes(name)).join(', ')}`));
  }
  for (const name of files) mocha.addFile(path.join(__dirname, name));

  return new Promise((resolve, reject) => {
    try {
      const pending: string[] = [];
      const failed: string[] = [];
      const runner = mocha.run(() => {
        const stats = runner.stats ?? { passes: 0, failures: 0, pending: 0 };
        writeTimings(timings);
        for (const line of failed) console.log(line);
        if (everyTestMustRun && pending.length > 0) {
          console.log(`${pending.length} test(s) pending, which the code-server runner does not allow:\n${pending.map((title) => `  - ${title}`).join('\n')}`);
        }
        // The runner reads this line: it fails the run when a test failed, when one is pending, or when no test ran.
        console.log(formatSummary({ passed: stats.passes, failed: stats.failures, pending: stats.pending }));
        if (stats.failures > 0) reject(new Error(`${stats.failures} test(s) failed`));
        else if (everyTestMustRun && stats.pending > 0) reject(new Error(`${stats.pending} test(s) pending in a browser-hosted editor, where every test must run`));
        else if (stats.passes === 0) reject(new Error(grep ? `no test matches /${grep}/` : 'no test ran'));
        else resolve();
      });
      const timings = new SuiteTimings(runner);
      runner.on('pending', (test: Mocha.Test) => pending.push(test.fullTitle()));
      runner.on('fail', (test: Mocha.Runnable, error: unknown) => failed.push(formatFailedTest(test.fullTitle(), error)));
    } catch (error) {
      // A test file that throws while loading (or a .only with forbidOnly) lands here.
      console.error(error);
      console.log(formatSummary({ passed: 0, failed: 1, pending: 0 }));
      reject(error);
    }
  });
}

/** Prints where the time went, and keeps every step's time in .vscode-test/logs/suite-timings[-<editor>].json. */
function writeTimings(timings: SuiteTimings): void {
  console.log(timings.report().join('\n'));
  const repo = process.env.TENANT_API_TEST_REPO;
  if (!repo) return;
  try {
    const dir = path.join(repo, '.vscode-test', 'logs');
    fs.mkdirSync(dir, { recursive: true });
    const editor = process.env.TENANT_API_TEST_EDITOR;
    fs.writeFileSync(path.join(dir, `suite-timings${editor ? `-${editor}` : ''}.json`), JSON.stringify(timings.steps, undefined, 1));
  } catch (error) {
    console.log(`(suite timings not saved: ${(error as Error).message})`);
  }
}
