// One editor's part of `npm run test:vscode`: its driver, code-server, Chromium and workbench, and the
// suite (or the test files given) run in it. The runner starts one or several of these at once.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from './browser';
import { startCodeServer, type CodeServerInstall, type RunningCodeServer } from './codeServer';
import { startDriverServer } from './driverServer';
import { repoRoot, logsDir, screenshotsDir, suiteEntry } from './paths';
import { tail } from './processes';
import { SignInRobot } from './robot';
import { parseFailedTests, parseSummary, startPattern, type SuiteSummary } from './summary';

/**
 * The suite keeps both cores busy, most of it in Chromium running the workbench: no animation,
 * blinking cursor or minimap to draw, and no git extension scanning the test workspace (no test
 * needs them).
 */
const QUIET_WORKBENCH: Record<string, unknown> = {
  'workbench.reduceMotion': 'on',
  'editor.cursorBlinking': 'solid',
  'editor.minimap.enabled': false,
  'editor.smoothScrolling': false,
  'workbench.list.smoothScrolling': false,
  'git.enabled': false,
};

export interface EditorRunOptions {
  grep?: string;
  locale?: string;
  /** Time for the editor to start and the suite to print its first line. */
  startTimeoutMs: number;
  /** Time for the whole suite. */
  suiteTimeoutMs: number;
  verbose: boolean;
  keep: boolean;
  headed: boolean;
  updateScreenshots: boolean;
}

export interface EditorRunSetup {
  install: CodeServerInstall;
  /** Only these test files (a.test.js), or the whole suite. */
  files?: readonly string[];
  /** Names this editor when several run at once ('1', '2'): its output lines start with `<name>| `. */
  name?: string;
  /** Whatever is started is stopped by the caller through this. */
  onCleanup(step: () => Promise<unknown>): void;
  interrupted(): boolean;
}

export interface EditorRunResult {
  /** The suite's TESTS line, when it printed one. */
  summary?: SuiteSummary;
  /** Why the run failed before or outside the tests (the editor did not start, the suite's run() failed ...). */
  failure?: string;
  /** From opening the workbench to the suite's end. */
  suiteMs: number;
  /** "title: message" of each failed test, for the run's last lines. */
  failedTests?: string[];
}

/** Writes one line of this editor's output, prefixed with its name when several editors run at once. */
export function lineWriter(name: string | undefined): (text: string, stream?: NodeJS.WriteStream) => void {
  return (text, stream = process.stdout) => {
    const prefixed = name ? text.split('\n').map((line) => `${name}| ${line}`).join('\n') : text;
    stream.write(`${prefixed}\n`);
  };
}

export async function runEditor(options: EditorRunOptions, setup: EditorRunSetup): Promise<EditorRunResult> {
  const write = lineWriter(setup.name);
  const say = (line: string) => write(`[runner] ${line}`);
  let server: RunningCodeServer | undefined;
  let workbench: Page | undefined;
  const opened = Date.now();
  const fail = async (failure: string, summary?: SuiteSummary): Promise<EditorRunResult> => {
    await reportFailure(write, failure, server, workbench, setup.name);
    return { failure, summary, suiteMs: Date.now() - opened };
  };
  try {
    const driver = await startDriverServer((line) => (options.verbose || !line.startsWith('[driver]') || line.includes('failed')) && say(line));
    setup.onCleanup(() => driver.close());
    // An empty folder outside the repository (no git parent, no file watching of node_modules).
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-workspace-'));
    setup.onCleanup(async () => options.keep || fs.rmSync(workspace, { recursive: true, force: true }));

    const serverStarted = Date.now();
    server = await startCodeServer({
      folder: workspace,
      keepUserData: options.keep,
      locale: options.locale,
      userDataVariable: 'TENANT_API_TEST_USER_DATA',
      settings: QUIET_WORKBENCH,
      env: {
        // Environment variables of the server reach its extension host's process.env.
        TENANT_API_TEST_DRIVER: driver.url,
        TENANT_API_TEST_GREP: options.grep ?? '',
        TENANT_API_TEST_FILES: setup.files?.join(',') ?? '',
        TENANT_API_TEST_EDITOR: setup.name ?? '',
        TENANT_API_TEST_REPO: repoRoot,
        TENANT_API_TEST_UPDATE_SCREENSHOTS: options.updateScreenshots ? '1' : '',
      },
    });
    const running = server;
    setup.onCleanup(() => running.stop());
    say(`code-server listening on ${server.url} after ${seconds(serverStarted)} (log: ${path.relative(repoRoot, server.logFile)})`);

    const browserStarted = Date.now();
    const browser: LaunchedBrowser = await launchBrowser({ headless: !options.headed });
    setup.onCleanup(() => browser.close());
    say(`Chromium ${browser.version} started in ${seconds(browserStarted)}`);
    if (setup.interrupted()) return { failure: 'interrupted', suiteMs: 0 };

    const page = await browser.context.newPage();
    workbench = page;
    const robot = new SignInRobot(browser.context, { codeServerPort: server.port, isIgnoredPage: (candidate) => candidate === page, log: say });
    driver.attach({ context: browser.context, workbench: page, robot, browserVersion: browser.version, vscodeVersion: setup.install.vscodeVersion });
    const suite = await watchSuite(page, running, browser, options, write);
    if (options.verbose) {
      page.on('pageerror', (error) => say(`[page error] ${error.message}`));
      page.on('console', (message) => say(`[browser ${message.type()}] ${message.text()}`));
    }

    const payload: Array<[string, string]> = [
      ['extensionDevelopmentPath', server.remoteUri(repoRoot)],
      ['extensionTestsPath', server.remoteUri(suiteEntry)],
      ['skipWelcome', 'true'],
    ];
    const files = setup.files ? `, ${setup.files.length} test files: ${setup.files.map((file) => file.replace(/\.test\.js$/, '')).join(' ')}` : '';
    say(`opening the workbench (VS Code ${setup.install.vscodeVersion})${options.grep ? `, tests matching /${options.grep}/` : ''}${files}`);
    await page.goto(server.workbenchUrl(payload), { timeout: 60_000 });
    const outcome = await suite.outcome(options, setup.interrupted);
    if (outcome.failure) return await fail(outcome.failure);
    say(`suite finished ${seconds(opened)} after the editor's start with exit code ${outcome.exitCode}`);
    const summary = parseSummary(suite.lines);
    if (!summary) return await fail('the suite printed no "TESTS:" summary line: it did not run (see the output above)');
    // run() also fails when no test ran: a group of files where --grep matches nothing; the whole run judges that.
    if (outcome.exitCode !== 0 && summary.failed === 0 && summary.pending === 0 && summary.passed > 0) {
      return await fail(`the suite's run() failed (exit code ${outcome.exitCode}) although no test failed`, summary);
    }
    if (summary.failed > 0 || summary.pending > 0) await reportFailure(write, `${summary.failed} failed, ${summary.pending} pending`, server, workbench, setup.name);
    return { summary, suiteMs: Date.now() - opened, failedTests: parseFailedTests(suite.lines) };
  } catch (error) {
    return await fail((error as Error).message);
  }
}

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

async function reportFailure(
  write: ReturnType<typeof lineWriter>,
  failure: string,
  server: RunningCodeServer | undefined,
  workbench: Page | undefined,
  name: string | undefined,
): Promise<void> {
  write(`\n[runner] FAILED: ${failure}`, process.stderr);
  if (workbench && !workbench.isClosed()) {
    const file = path.join(screenshotsDir, `failure-workbench${name ? `-${name}` : ''}.png`);
    fs.mkdirSync(screenshotsDir, { recursive: true });
    await workbench.screenshot({ path: file, timeout: 5000 }).then(
      () => write(`[runner] screenshot of the workbench: ${path.relative(repoRoot, file)}`, process.stderr),
      () => undefined,
    );
  }
  if (server) write(`[runner] code-server log (${server.logFile}), last lines:\n${tail(server.logFile, 60)}`, process.stderr);
}

interface WatchedSuite {
  /** The suite's output lines. */
  lines: string[];
  /** Waits for the suite to start, then to end (or for the editor to die, or a time limit). */
  outcome(options: EditorRunOptions, interrupted: () => boolean): Promise<{ exitCode?: number; failure?: string }>;
}

/** Hooks the workbench page's test-automation callbacks: the suite's output, its exit, a crash. */
async function watchSuite(page: Page, server: RunningCodeServer, browser: LaunchedBrowser, options: EditorRunOptions, write: ReturnType<typeof lineWriter>): Promise<WatchedSuite> {
  let firstLine: (() => void) | undefined;
  const started = new Promise<void>((resolve) => (firstLine = resolve));
  let exitCode: ((code: number) => void) | undefined;
  const exited = new Promise<number>((resolve) => (exitCode = resolve));
  const lines: string[] = [];
  // The workbench's own start-up chatter arrives here too: keep it for a failed start (or --verbose),
  // and print everything from the suite's first line on.
  const startupLines: string[] = [];
  let suiteRunning = false;
  let suiteEnded = false;
  await page.exposeFunction('codeAutomationLog', (type: string, message: unknown) => {
    const text = typeof message === 'string' ? message : Array.isArray(message) ? message.join(' ') : JSON.stringify(message);
    if (!suiteRunning && startPattern.test(text)) {
      suiteRunning = true;
      firstLine?.();
    }
    if ((!suiteRunning || suiteEnded) && !options.verbose) {
      // Before the suite: kept for a failed start. After it: the workbench shutting down.
      if (!suiteRunning) startupLines.push(`[${type}] ${text}`);
      return;
    }
    lines.push(text);
    write(text, type === 'error' ? process.stderr : process.stdout);
  });
  await page.exposeFunction('codeAutomationExit', (code: number, logs?: Array<{ relativePath: string; contents: string }>) => {
    if (Array.isArray(logs) && logs.length > 0) saveEditorLogs(server.port, logs, write);
    suiteEnded = true;
    exitCode?.(code);
  });
  let died: ((what: string) => void) | undefined;
  const death = new Promise<string>((resolve) => (died = resolve));
  page.on('crash', () => died?.('the workbench page crashed'));
  browser.browser.on('disconnected', () => died?.('the browser exited'));
  void server.exited.then((code) => died?.(`code-server exited (${code})`));
  const timeout = (ms: number, what: string) => new Promise<string>((resolve) => setTimeout(() => resolve(what), ms).unref());

  return {
    lines,
    async outcome(limits, interrupted) {
      const opened = Date.now();
      const startResult = await Promise.race([started.then(() => 'started'), exited.then(() => 'exited'), death, timeout(limits.startTimeoutMs, 'timeout')]);
      if (interrupted()) return { failure: 'interrupted' };
      if (startResult !== 'started') {
        if (startupLines.length > 0) write(`[runner] the workbench said, before that:\n${startupLines.slice(-80).join('\n')}`, process.stderr);
        if (startResult === 'timeout') return { failure: `the editor did not start the test suite within ${limits.startTimeoutMs / 1000} s` };
        if (startResult === 'exited') return { failure: 'the editor ended the test run before the suite started (could it load dist/test/suite/index.js?)' };
        return { failure: `${startResult} before the suite started` };
      }
      write(`[runner] the editor started the suite ${seconds(opened)} after opening the workbench`);
      const result = await Promise.race([exited, death, timeout(limits.suiteTimeoutMs, 'timeout')]);
      if (interrupted()) return { failure: 'interrupted' };
      if (result === 'timeout') return { failure: `the suite did not finish within ${limits.suiteTimeoutMs / 1000} s` };
      if (typeof result === 'string') return { failure: `${result} while the suite ran` };
      return { exitCode: result };
    },
  };
}

function saveEditorLogs(port: number, logs: Array<{ relativePath: string; contents: string }>, write: ReturnType<typeof lineWriter>): void {
  const dir = path.join(logsDir, `editor-logs-${port}`);
  write(`[runner] the editor's own logs: ${path.relative(repoRoot, dir)}`);
  fs.rmSync(dir, { recursive: true, force: true });
  for (const entry of logs) {
    const file = path.join(dir, entry.relativePath.replace(/\.\.+/g, '_'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, entry.contents);
  }
}
