// `npm run test:vscode [-- --grep <pattern>]`: runs the in-editor suite (dist/test/suite/index.js)
// inside a real VS Code extension host: code-server 4.100.3 (VS Code 1.100.3) on 127.0.0.1, driven by
// the system Chromium. Exits non-zero when a test fails, the editor does not start, or no test ran.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from './browser';
import { ensureCodeServer, startCodeServer, type RunningCodeServer } from './codeServer';
import { startDriverServer, type DriverServer } from './driverServer';
import { repoRoot, logsDir, runsDir, screenshotsDir, suiteEntry } from './paths';
import { checkRunPrerequisites } from './prerequisites';
import { run, tail } from './processes';
import { SignInRobot } from './robot';
import { parseSummary, startPattern, type SuiteSummary } from './summary';

interface Options {
  grep?: string;
  /** VS Code's display language (--locale it): a language pack built from npm, see languagePack.ts. */
  locale?: string;
  build: boolean;
  /** Time for the editor to start and the suite to print its first line. */
  startTimeoutMs: number;
  /** Time for the whole suite. */
  suiteTimeoutMs: number;
  verbose: boolean;
  keep: boolean;
  headed: boolean;
  updateScreenshots: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = {
    build: true,
    startTimeoutMs: 120_000,
    suiteTimeoutMs: Number(process.env.TENANT_API_TEST_TIMEOUT_SECONDS ?? 900) * 1000,
    verbose: process.env.TENANT_API_TEST_VERBOSE === '1',
    keep: false,
    headed: false,
    updateScreenshots: false,
  };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    const value = () => {
      const next = argv[++index];
      if (next === undefined) usage(`${arg} needs a value`);
      return next;
    };
    if (arg === '--grep' || arg === '-g') options.grep = value();
    else if (arg.startsWith('--grep=')) options.grep = arg.slice('--grep='.length);
    else if (arg === '--locale') options.locale = value();
    else if (arg === '--no-build') options.build = false;
    else if (arg === '--verbose') options.verbose = true;
    else if (arg === '--keep') options.keep = true;
    else if (arg === '--headed') options.headed = true;
    else if (arg === '--update-screenshots') options.updateScreenshots = true;
    else if (arg === '--timeout') options.suiteTimeoutMs = Number(value()) * 1000;
    else if (arg === '--help' || arg === '-h') usage();
    else usage(`unknown argument ${arg}`);
  }
  if (!(options.suiteTimeoutMs > 0)) usage('--timeout needs a number of seconds');
  return options;
}

function usage(problem?: string): never {
  if (problem) console.error(problem);
  (problem ? console.error : console.log)(
    'usage: npm run test:vscode -- [--grep <pattern>] [--locale <tag>] [--timeout <seconds>] [--no-build] [--verbose] [--keep] [--headed] [--update-screenshots]\n' +
      '  --locale    VS Code\'s display language, e.g. it (a language pack built from npm packages; the italian tests run only so)\n' +
      '  --grep      run only tests whose full title matches the pattern (a regular expression)\n' +
      '  --timeout   time limit for the whole suite (default 900 s, or TENANT_API_TEST_TIMEOUT_SECONDS)\n' +
      '  --no-build  use the existing dist/ (skip node esbuild.mjs --tests)\n' +
      '  --verbose   also print the browser console and the driver\'s calls\n' +
      '  --keep      keep the editor\'s user-data-dir under .vscode-test/runs/\n' +
      '  --headed    show the browser window (needs a display)\n' +
      '  --update-screenshots  write the README\'s screenshots into media/ (otherwise test/vscode/screenshots/)',
  );
  process.exit(problem ? 2 : 0);
}

/** Keeps the newest server logs and run folders (runs killed hard leave theirs behind). */
function pruneOldFiles(): void {
  const prune = (dir: string, match: RegExp, keep: number, olderThanMs = 0) => {
    if (!fs.existsSync(dir)) return;
    const entries = fs
      .readdirSync(dir)
      .filter((name) => match.test(name))
      .map((name) => ({ file: path.join(dir, name), mtime: fs.statSync(path.join(dir, name)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    for (const entry of entries.slice(keep)) {
      if (Date.now() - entry.mtime > olderThanMs) fs.rmSync(entry.file, { recursive: true, force: true });
    }
  };
  prune(logsDir, /^code-server-\d{4}-.*\.log$/, 30);
  prune(logsDir, /^editor-logs-\d+$/, 10);
  // A run folder in use is younger than a day; older ones belong to runs that were killed.
  prune(runsDir, /^(run|workspace)-/, 0, 24 * 3600_000);
}

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const say = (line: string) => process.stdout.write(`[runner] ${line}\n`);

/** Everything the run started, stopped in reverse order whatever happens. */
class Cleanup {
  private readonly steps: Array<() => Promise<unknown>> = [];
  private done: Promise<void> | undefined;
  add(step: () => Promise<unknown>): void {
    this.steps.push(step);
  }
  run(): Promise<void> {
    this.done ??= (async () => {
      for (const step of this.steps.reverse()) {
        await Promise.race([step().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 10_000))]);
      }
    })();
    return this.done;
  }
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const runStarted = Date.now();
  const cleanup = new Cleanup();
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    say(`${signal}: stopping the browser and the editor ...`);
    void cleanup.run().then(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  const onUncaught = (error: unknown) => {
    console.error('[runner] unexpected error:', error);
    void cleanup.run().then(() => process.exit(1));
  };
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
  pruneOldFiles();

  let server: RunningCodeServer | undefined;
  let workbench: Page | undefined;
  const failWith = async (message: string): Promise<number> => {
    console.error(`\n[runner] FAILED: ${message}`);
    if (workbench && !workbench.isClosed()) {
      const file = path.join(screenshotsDir, 'failure-workbench.png');
      fs.mkdirSync(screenshotsDir, { recursive: true });
      await workbench.screenshot({ path: file, timeout: 5000 }).then(
        () => console.error(`[runner] screenshot of the workbench: ${path.relative(repoRoot, file)}`),
        () => undefined,
      );
    }
    if (server) console.error(`[runner] code-server log (${server.logFile}), last lines:\n${tail(server.logFile, 60)}`);
    return 1;
  };

  try {
    checkRunPrerequisites();
    if (options.build) {
      const started = Date.now();
      fs.mkdirSync(logsDir, { recursive: true });
      const buildLog = path.join(logsDir, 'build.log');
      fs.writeFileSync(buildLog, '');
      const code = await run(process.execPath, ['esbuild.mjs', '--tests'], { cwd: repoRoot, logFile: buildLog, env: process.env });
      if (code !== 0) {
        console.error(tail(buildLog, 60));
        return await failWith('the build failed (node esbuild.mjs --tests)');
      }
      say(`built the extension and the suite in ${seconds(started)}`);
    }
    if (!fs.existsSync(suiteEntry)) return await failWith(`${path.relative(repoRoot, suiteEntry)} is missing: run node esbuild.mjs --tests`);

    const installStarted = Date.now();
    const install = await ensureCodeServer();
    say(`code-server ${install.version} ready in ${seconds(installStarted)}`);

    const driver: DriverServer = await startDriverServer((line) => (options.verbose || !line.startsWith('[driver]') || line.includes('failed')) && say(line));
    cleanup.add(() => driver.close());

    // An empty folder outside the repository (no git parent, no file watching of node_modules).
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-workspace-'));
    cleanup.add(async () => options.keep || fs.rmSync(workspace, { recursive: true, force: true }));

    const serverStarted = Date.now();
    server = await startCodeServer({
      folder: workspace,
      keepUserData: options.keep,
      locale: options.locale,
      env: {
        // Environment variables of the server reach its extension host's process.env.
        TENANT_API_TEST_DRIVER: driver.url,
        TENANT_API_TEST_GREP: options.grep ?? '',
        TENANT_API_TEST_REPO: repoRoot,
        TENANT_API_TEST_UPDATE_SCREENSHOTS: options.updateScreenshots ? '1' : '',
      },
    });
    const running = server;
    cleanup.add(() => running.stop());
    say(`code-server listening on ${server.url} after ${seconds(serverStarted)} (log: ${path.relative(repoRoot, server.logFile)})`);

    const browserStarted = Date.now();
    const browser: LaunchedBrowser = await launchBrowser({ headless: !options.headed });
    cleanup.add(() => browser.close());
    say(`Chromium ${browser.version} started in ${seconds(browserStarted)}`);
    if (interrupted) return 130;

    const page = await browser.context.newPage();
    workbench = page;
    const robot = new SignInRobot(browser.context, { codeServerPort: server.port, isIgnoredPage: (candidate) => candidate === page, log: say });
    driver.attach({ context: browser.context, workbench: page, robot, browserVersion: browser.version, vscodeVersion: install.vscodeVersion });

    let firstLine: (() => void) | undefined;
    const started = new Promise<void>((resolve) => (firstLine = resolve));
    let exitCode: ((code: number) => void) | undefined;
    const exited = new Promise<number>((resolve) => (exitCode = resolve));
    const suiteLines: string[] = [];
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
      suiteLines.push(text);
      (type === 'error' ? process.stderr : process.stdout).write(`${text}\n`);
    });
    await page.exposeFunction('codeAutomationExit', (code: number, logs?: Array<{ relativePath: string; contents: string }>) => {
      if (Array.isArray(logs) && logs.length > 0) {
        const dir = path.join(logsDir, `editor-logs-${running.port}`);
        say(`the editor's own logs: ${path.relative(repoRoot, dir)}`);
        fs.rmSync(dir, { recursive: true, force: true });
        for (const entry of logs) {
          const file = path.join(dir, entry.relativePath.replace(/\.\.+/g, '_'));
          fs.mkdirSync(path.dirname(file), { recursive: true });
          fs.writeFileSync(file, entry.contents);
        }
      }
      suiteEnded = true;
      exitCode?.(code);
    });
    page.on('pageerror', (error) => options.verbose && say(`[page error] ${error.message}`));
    page.on('console', (message) => options.verbose && say(`[browser ${message.type()}] ${message.text()}`));
    let died: ((what: string) => void) | undefined;
    const death = new Promise<string>((resolve) => (died = resolve));
    page.on('crash', () => died?.('the workbench page crashed'));
    browser.browser.on('disconnected', () => died?.('the browser exited'));
    void running.exited.then((code) => died?.(`code-server exited (${code})`));

    const payload: Array<[string, string]> = [
      ['extensionDevelopmentPath', server.remoteUri(repoRoot)],
      ['extensionTestsPath', server.remoteUri(suiteEntry)],
      ['skipWelcome', 'true'],
    ];
    const suiteStarted = Date.now();
    say(`opening the workbench (VS Code ${install.vscodeVersion})${options.grep ? `, tests matching /${options.grep}/` : ''}`);
    await page.goto(server.workbenchUrl(payload), { timeout: 60_000 });

    const timeout = (ms: number, what: string) => new Promise<string>((resolve) => setTimeout(() => resolve(what), ms).unref());
    const startResult = await Promise.race([started.then(() => 'started'), exited.then(() => 'exited'), death, timeout(options.startTimeoutMs, 'timeout')]);
    if (interrupted) return 130;
    if (startResult === 'started') say(`the editor started the suite ${seconds(suiteStarted)} after opening the workbench`);
    if (startResult !== 'started') {
      if (startupLines.length > 0) console.error(`[runner] the workbench said, before that:\n${startupLines.slice(-80).join('\n')}`);
      if (startResult === 'timeout') return await failWith(`the editor did not start the test suite within ${options.startTimeoutMs / 1000} s`);
      if (startResult === 'exited') return await failWith('the editor ended the test run before the suite started (could it load dist/test/suite/index.js?)');
      return await failWith(`${startResult} before the suite started`);
    }
    const result = await Promise.race([exited, death, timeout(options.suiteTimeoutMs, 'timeout')]);
    if (interrupted) return 130;
    if (result === 'timeout') return await failWith(`the suite did not finish within ${options.suiteTimeoutMs / 1000} s`);
    if (typeof result === 'string') return await failWith(`${result} while the suite ran`);

    const summary: SuiteSummary | undefined = parseSummary(suiteLines);
    say(`suite finished in ${seconds(suiteStarted)} (whole run ${seconds(runStarted)}) with exit code ${result}`);
    say(`VS Code ${install.vscodeVersion} (code-server ${install.version}), Chromium ${browser.version}`);
    if (!summary) return await failWith('the suite printed no "TESTS:" summary line: it did not run (see the output above)');
    if (summary.failed > 0) return await failWith(`${summary.failed} test(s) failed, ${summary.passed} passed`);
    if (summary.passed === 0) return await failWith(`no test ran${options.grep ? ` (does --grep /${options.grep}/ match any test?)` : ''}`);
    if (result !== 0) return await failWith(`the suite's run() failed (exit code ${result}) although no test failed`);
    say(`PASSED: ${summary.passed} passed, ${summary.pending} pending`);
    return 0;
  } catch (error) {
    return await failWith((error as Error).message);
  } finally {
    await cleanup.run();
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error);
    process.exit(1);
  },
);
