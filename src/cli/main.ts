/**
 * The runner's composition root (`tenant-api`, bundled into dist/cli.js): the process's streams,
 * environment, clock and fetch handed to the commands. No logic lives here.
 */
import { version } from '../../package.json';
import { systemClock } from '../common/clock';
import type { Logger } from '../common/logger';
import { redactValue } from '../common/redact';
import { runCli } from './commands';
import { INTERNAL_ERROR_CODE } from './exitCodes';
import type { cliNetwork } from './network';
import { parseArguments, UsageError } from './options';
import { streamOutput, type Output } from './output';
import { AnswerInterrupted, askHidden } from './terminalInput';

/** Warnings (an HTTP error the run reports anyway, a ledger that could not be shared) with --verbose only. */
function stderrLogger(output: Output, verbose: boolean): Logger {
  const line = (level: string) => (message: string | Error, ...args: unknown[]) => output.err(`[${level}] ${[message, ...args].map(redactValue).join(' ')}`);
  const quiet = () => undefined;
  return { trace: verbose ? line('trace') : quiet, debug: verbose ? line('debug') : quiet, info: verbose ? line('info') : quiet, warn: verbose ? line('warn') : quiet, error: line('error') };
}

/** A person at the terminal answers hidden; Ctrl+C at the question ends the run as Ctrl+C does (130). */
function ask(question: string): Promise<string> {
  return askHidden(question, process.stdin, process.stderr).catch((error: unknown) => (error instanceof AnswerInterrupted ? process.exit(130) : Promise.reject(error)));
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parsed(argv: string[]) {
  try {
    return parseArguments(argv);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
}

const output = streamOutput(process.stdout, process.stderr);
runCli(parsed(process.argv.slice(2)), {
  env: process.env,
  cwd: process.cwd(),
  output,
  readStdin,
  // undici, a third of the bundle, loads for the commands that call out, not for --help, --version or import.
  network: (options) => (require('./network') as { cliNetwork: typeof cliNetwork }).cliNetwork(options),
  clock: systemClock,
  logger: (verbose) => stderrLogger(output, verbose),
  version,
  // Only a person at a terminal is asked: a run in CI or fed by a pipe never waits for an answer.
  ask: process.stdin.isTTY ? ask : undefined,
}).then(
  (code) => process.stdout.write('', () => process.exit(code)),
  (error: unknown) => {
    output.err(`tenant-api: ${redactValue(error)}`);
    process.stdout.write('', () => process.exit(INTERNAL_ERROR_CODE));
  },
);
