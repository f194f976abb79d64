// Where the in-editor suite's time goes: each test file's share (its tests and hooks together) and
// the slowest tests and hooks, printed by test/vscode/suite/index.ts before the summary line.
import type Mocha from 'mocha';

export interface TimedStep {
  /** 'test' or 'hook'. */
  kind: 'test' | 'hook';
  title: string;
  file: string;
  ms: number;
}

/** Records the duration of every test and hook, and of every file's top-level describe blocks. */
export class SuiteTimings {
  readonly steps: TimedStep[] = [];
  private readonly fileMs = new Map<string, number>();
  private readonly suiteStarts = new Map<Mocha.Suite, number>();
  private readonly started = Date.now();

  constructor(runner: Mocha.Runner) {
    runner.on('suite', (suite: Mocha.Suite) => {
      if (suite.parent?.root) this.suiteStarts.set(suite, Date.now());
    });
    runner.on('suite end', (suite: Mocha.Suite) => {
      const start = this.suiteStarts.get(suite);
      if (start === undefined) return;
      const file = fileName(suite.file);
      this.fileMs.set(file, (this.fileMs.get(file) ?? 0) + Date.now() - start);
    });
    runner.on('test end', (test: Mocha.Test) => this.record('test', test));
    runner.on('hook end', (hook: Mocha.Hook) => this.record('hook', hook));
  }

  private record(kind: TimedStep['kind'], runnable: Mocha.Runnable): void {
    if (runnable.duration === undefined) return;
    this.steps.push({ kind, title: runnable.fullTitle(), file: fileName(runnable.file), ms: runnable.duration });
  }

  /** Lines for the log: the files by time taken, then the `slowest` slowest tests and hooks. */
  report(slowest = 15): string[] {
    const totalMs = Date.now() - this.started;
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1).padStart(6)} s`;
    const lines = [`suite timings (total ${seconds(totalMs).trim()}):`];
    for (const [file, ms] of [...this.fileMs].sort((a, b) => b[1] - a[1])) {
      lines.push(`  ${seconds(ms)} ${((ms / totalMs) * 100).toFixed(0).padStart(3)} %  ${file}`);
    }
    lines.push(`slowest tests and hooks:`);
    for (const step of [...this.steps].filter((step) => step.ms >= 100).sort((a, b) => b.ms - a.ms).slice(0, slowest)) {
      lines.push(`  ${seconds(step.ms)}  ${step.kind === 'hook' ? '[hook] ' : ''}${step.title.slice(0, 140)}`);
    }
    return lines;
  }
}

function fileName(file: string | undefined): string {
  return file?.split(/[\\/]/).pop()?.replace(/\.js$/, '.ts') ?? '(no file)';
}
