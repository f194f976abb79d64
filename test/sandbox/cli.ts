// `npm run sandbox`: the sandbox on fixed loopback ports until Ctrl+C.
// `npm run -s sandbox -- --json` prints one line of JSON on stdout and nothing else
// (-s keeps npm's own banner off stdout).
import { startSandbox } from './index';
import { CLI_HELP, parseCliOptions } from './cliOptions';
import { CLI_PORTS } from './seed';
import { summaryJson, summaryText } from './summary';

async function main(): Promise<void> {
  const options = parseCliOptions(process.argv.slice(2), {
    authPort: CLI_PORTS.auth, apiPort: CLI_PORTS.api, clusterPorts: [...CLI_PORTS.clusters],
  });
  if (options.help) {
    process.stdout.write(`npm run sandbox -- [options]\n${CLI_HELP}\n`);
    return;
  }
  let sandbox;
  try {
    sandbox = await startSandbox({ ...options.sandbox, logErrors: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(`A sandbox port is already in use (${(err as Error).message}). Is another sandbox running? Stop it or pick ports with --auth-port/--api-port/--cluster-ports (0 = free port).`);
    }
    throw err;
  }
  if (options.json) process.stdout.write(`${JSON.stringify(summaryJson(sandbox))}\n`);
  else process.stdout.write(`${summaryText(sandbox)}\n\nPress Ctrl+C to stop.\n`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await sandbox.close();
    process.stderr.write('sandbox stopped\n');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((err: unknown) => {
  process.stderr.write(`sandbox: ${(err as Error).message ?? err}\n`);
  process.exit(1);
});
