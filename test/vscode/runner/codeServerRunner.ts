// `npm run test:vscode [-- --grep <pattern>]`: runs the in-editor suite (dist/test/suite/index.js)
// inside a real VS Code extension host: code-server 4.100.3 (VS Code 1.100.3) on 127.0.0.1, driven by
// the system Chromium. Exits non-zero when a test fails or is pending, the editor does not start, or no test ran.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { codeServerVersion, ensureCodeServer } from './codeServer';
import { runEditor, type EditorRunOptions, type EditorRunResult } from './editorRun';
import { repoRoot, logsDir, runsDir, suiteEntry } from './paths';
import { checkRunPrerequisites } from './prerequisites';
import { run, tail } from './processes';
import { splitFiles } from './shards';

interface Options extends EditorRunOptions {
  build: boolean;
  /** How many editors run the suite at once, each a share of the test files (--editors). */
  editors: number;
  /** --and-locale: also run this display language's tests (LOCALE_SUITES), in the editor slot with the least to do, after its share. */
  andLocale?: string;
}

/** The tests that run only in a display language (`--locale it --grep ...`), by locale. */
const LOCALE_SUITES: Readonly<Record<string, string>> = { it: 'Italian display language' };

/**
 * Three editors for a whole run: the suite mostly waits (about 200 s of CPU in a 187-203 s run of three
 * editors on two cores), so three share two cores well; one for --grep, --locale or --headed.
 */
function defaultEditors(options: Options): number {
  const fromEnvironment = Number(process.env.TENANT_API_TEST_EDITORS);
  if (Number.isInteger(fromEnvironment) && fromEnvironment > 0) return fromEnvironment;
  return options.grep || options.locale || options.headed ? 1 : 3;
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
    editors: 0,
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
    else if (arg === '--editors') options.editors = Number(value());
    else if (arg === '--and-locale') options.andLocale = value();
    else if (arg === '--help' || arg === '-h') usage();
    else usage(`unknown argument ${arg}`);
  }
  if (!(options.suiteTimeoutMs > 0)) usage('--timeout needs a number of seconds');
  if (options.editors === 0) options.editors = defaultEditors(options);
  if (!Number.isInteger(options.editors) || options.editors < 1) usage('--editors needs a whole number from 1');
  if (options.andLocale !== undefined && (!LOCALE_SUITES[options.andLocale] || options.grep || options.locale)) {
    usage(`--and-locale takes one of ${Object.keys(LOCALE_SUITES).join(', ')}, without --grep or --locale`);
  }
  return options;
}

function usage(problem?: string): never {
  if (problem) console.error(problem);
  (problem ? console.error : console.log)(
    'usage: npm run test:vscode -- [--grep <pattern>] [--locale <tag>] [--editors <n>] [--timeout <seconds>] [--no-build] [--verbose] [--keep] [--headed] [--update-screenshots]\n' +
      '  --locale    VS Code\'s display language, e.g. it (a language pack built from npm packages; the italian tests run only so)\n' +
      '  --grep      run only tests whose full title matches the pattern (a regular expression)\n' +
      '  --editors   how many editors run the suite at once, each a share of the test files (default 3, 1 with --grep,\n' +
      '              --locale or --headed; or TENANT_API_TEST_EDITORS)\n' +
      '  --and-locale  also run that display language\'s tests (it: "Italian display language"), in the editor with the\n' +
      '              least to do, after its share (what npm run test:vscode:it runs alone)\n' +
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
    say(`${signal}: stopping the browsers and the editors ...`);
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
  const failWith = (message: string): number => {
    console.error(`\n[runner] FAILED: ${message}`);
    return 1;
  };

  try {
    checkRunPrerequisites();
    if (options.build && !(await build())) return failWith('the build failed (node esbuild.mjs --tests)');
    if (!fs.existsSync(suiteEntry)) return failWith(`${path.relative(repoRoot, suiteEntry)} is missing: run node esbuild.mjs --tests`);

    const installStarted = Date.now();
    const install = await ensureCodeServer();
    say(`code-server ${install.version} ready in ${seconds(installStarted)}`);

    const slots = editorSlots(options);
    if (slots.length > 1) say(`${slots.length} editors at once, each running a share of the test files (--editors ${options.editors})`);
    const setup = (files: readonly string[] | undefined, name: string | undefined) => ({
      install,
      files,
      name,
      onCleanup: (step: () => Promise<unknown>) => cleanup.add(step),
      interrupted: () => interrupted,
    });
    const results = (
      await Promise.all(
        slots.map(async (slot, index) => {
          const name = slots.length > 1 ? String(index + 1) : undefined;
          const runs: LabelledResult[] = [];
          if (!slot.files || slot.files.length > 0) runs.push({ label: `editor ${index + 1}`, ...(await runEditor(options, setup(slot.files, name))) });
          // A new editor (the display language is the server's): the locale's tests, after this slot's share.
          if (slot.locale && !interrupted) {
            const locale = { ...options, locale: slot.locale, grep: LOCALE_SUITES[slot.locale] };
            runs.push({ label: `editor ${index + 1} (${slot.locale})`, ...(await runEditor(locale, setup(undefined, `${name ?? ''}${slot.locale}`))) });
          }
          return runs;
        }),
      )
    ).flat();
    if (interrupted) return 130;
    return verdict(results, options, install.vscodeVersion, runStarted);
  } catch (error) {
    return failWith((error as Error).message);
  } finally {
    await cleanup.run();
  }
}

async function build(): Promise<boolean> {
  const started = Date.now();
  fs.mkdirSync(logsDir, { recursive: true });
  const buildLog = path.join(logsDir, 'build.log');
  fs.writeFileSync(buildLog, '');
  const code = await run(process.execPath, ['esbuild.mjs', '--tests'], { cwd: repoRoot, logFile: buildLog, env: process.env });
  if (code !== 0) {
    console.error(tail(buildLog, 60));
    return false;
  }
  say(`built the extension and the suite in ${seconds(started)}`);
  return true;
}

/** What each editor slot runs: a share of the test files (all: undefined), then maybe a locale's tests. */
function editorSlots(options: Options): Array<{ files?: readonly string[]; locale?: string }> {
  const localeRun = options.andLocale ? `locale:${options.andLocale}` : undefined;
  if (options.editors === 1) return [{ files: undefined, locale: options.andLocale }];
  // The locale's run is balanced like a file (its seconds include its editor's start).
  const groups = splitFiles([...suiteFiles(), ...(localeRun ? [localeRun] : [])], options.editors);
  return groups.map((files) => ({ files: files.filter((file) => file !== localeRun), locale: localeRun && files.includes(localeRun) ? options.andLocale : undefined }));
}

/** The suite's test files, as esbuild wrote them beside its entry. */
function suiteFiles(): string[] {
  return fs
    .readdirSync(path.dirname(suiteEntry))
    .filter((name) => name.endsWith('.test.js'))
    .sort();
}

type LabelledResult = EditorRunResult & { label: string };

/** The run's exit code from every editor's result: 0 only when tests ran, none failed and none is pending. */
function verdict(results: LabelledResult[], options: Options, vscodeVersion: string, runStarted: number): number {
  const failWith = (message: string): number => {
    console.error(`\n[runner] FAILED: ${message}`);
    return 1;
  };
  const total = results.reduce(
    (sum, result) => ({
      passed: sum.passed + (result.summary?.passed ?? 0),
      failed: sum.failed + (result.summary?.failed ?? 0),
      pending: sum.pending + (result.summary?.pending ?? 0),
    }),
    { passed: 0, failed: 0, pending: 0 },
  );
  const several = results.length > 1;
  results.forEach((result) => {
    const name = several ? `${result.label}: ` : '';
    say(`${name}${result.summary ? `${result.summary.passed} passed, ${result.summary.failed} failed, ${result.summary.pending} pending` : 'no summary'} in ${(result.suiteMs / 1000).toFixed(1)} s${result.failure ? ` (${result.failure})` : ''}`);
  });
  say(`whole run ${seconds(runStarted)}; VS Code ${vscodeVersion} (code-server ${codeServerVersion})`);
  // Repeated last, where a CI log's tail shows them.
  results.forEach((result) => result.failedTests?.forEach((line) => say(`failed${several ? ` in ${result.label}` : ''}: ${line}`)));
  const failures = results.map((result) => result.failure && `${several ? `${result.label}: ` : ''}${result.failure}`).filter(Boolean);
  if (failures.length > 0) return failWith(failures.join('; '));
  if (total.failed > 0) return failWith(`${total.failed} test(s) failed, ${total.passed} passed`);
  // In this editor the driver is there for every test: a pending test (this.skip(), xit, a skipped
  // hook) would count as passing what it never checked. test:electron may skip the browser tests.
  if (total.pending > 0) return failWith(`${total.pending} test(s) pending, ${total.passed} passed: under the code-server runner every test must run (see the list above)`);
  if (total.passed === 0) return failWith(`no test ran${options.grep ? ` (does --grep /${options.grep}/ match any test?)` : ''}`);
  say(`PASSED: ${total.passed} passed, 0 pending`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error);
    process.exit(1);
  },
);
