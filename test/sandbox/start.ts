// `npm start`: builds the extension, starts the sandbox and opens the extension against it.
// - `code` on PATH: VS Code desktop with --extensionDevelopmentPath and a throwaway user-data-dir
//   whose settings are the sandbox's (the top-level settings it prints: the default environment, the
//   only one, so no environment is shown unconfigured); stops when that window closes or on Ctrl+C.
// Both open the example request file.
// - otherwise: the browser-based VS Code (code-server) of the test runner; prints the URL to open
//   and runs until Ctrl+C.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { freePort } from '../helpers/freePort';
import { startCodeServer } from '../vscode/runner/codeServer';
import { startSandbox } from './index';
import { CLI_HELP, parseCliOptions } from './cliOptions';
import { CLI_PORTS } from './seed';
import { NEXT_STEPS, SETTINGS_TITLE, editorSettings, summaryText } from './summary';
import { splitStartArgs } from './startArgs';
import type { Sandbox, SandboxOptions } from './types';

const repoRoot = path.resolve(__dirname, '..', '..');
/** The workspace the editor opens: the example request files for the sandbox. */
const requestsFolder = path.join(__dirname, 'requests');
/** The request file opened at start, beside the Explorer that lists it. */
const exampleFile = path.join(requestsFolder, 'example.http');
const say = (message: string) => process.stdout.write(`${message}\n`);

function onPath(command: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() || undefined : undefined;
}

function build(): void {
  say('Building the extension (node esbuild.mjs) ...');
  const result = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`The build failed (exit code ${result.status ?? result.signal}).`);
}

/** Fixed ports when free (the settings printed by `npm run sandbox` stay valid), else free ones. */
async function startOnPreferredPorts(options: SandboxOptions): Promise<Sandbox> {
  try {
    return await startSandbox({ authPort: CLI_PORTS.auth, apiPort: CLI_PORTS.api, clusterPorts: [...CLI_PORTS.clusters], ...options, logErrors: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    say(`Ports ${CLI_PORTS.auth}-${CLI_PORTS.clusters[1]} are busy (is \`npm run sandbox\` running?): using free ports.`);
    return startSandbox({ ...options, authPort: 0, apiPort: 0, clusterPorts: [0, 0], logErrors: true });
  }
}


/** Set once something runs: stops it (Ctrl+C, the editor window closing, or a failure). */
let stopAll: ((code: number) => Promise<void>) | undefined;

function waitForStop(cleanup: () => Promise<void>): (code: number) => Promise<void> {
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('\nStopping ...');
    await cleanup().catch((err: unknown) => process.stderr.write(`cleanup failed: ${(err as Error).message}\n`));
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  stopAll = stop;
  return stop;
}

async function runDesktop(code: string, options: SandboxOptions, locale?: string): Promise<void> {
  const sandbox = await startOnPreferredPorts(options);
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-workbench-'));
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify({
    ...editorSettings(sandbox),
    'security.workspace.trust.enabled': false,
    'workbench.startupEditor': 'none',
  }, null, 2));
  say(summaryText(sandbox, SETTINGS_TITLE));
  say(`\nOpening VS Code (${code}) with the extension from ${repoRoot} and a throwaway profile in ${userDataDir}.`);
  say(NEXT_STEPS);
  say('Close that window or press Ctrl+C here to stop.');
  const localeArgs = locale ? [`--locale=${locale}`] : []; // desktop VS Code: its own installed language pack
  const child = spawn(code, ['--wait', '--new-window', ...localeArgs, `--extensionDevelopmentPath=${repoRoot}`, `--user-data-dir=${userDataDir}`, requestsFolder, exampleFile], { stdio: 'inherit' });
  const cleanup = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await sandbox.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  };
  const stop = waitForStop(cleanup);
  child.on('exit', () => void stop(0));
  child.on('error', (err) => {
    process.stderr.write(`Could not start ${code}: ${err.message}\n`);
    void stop(1);
  });
}

async function runBrowser(options: SandboxOptions, locale?: string): Promise<void> {
  const port = await freePort();
  // code-server hands the sign-in back through http://127.0.0.1:<port>/...callback?vscode-reqid=...
  const sandbox = await startOnPreferredPorts({
    ...options,
    devRedirectPrefixes: [...(options.devRedirectPrefixes ?? []), `http://127.0.0.1:${port}/`],
  });
  say(summaryText(sandbox, SETTINGS_TITLE));
  say('\nStarting the browser-based VS Code (code-server; installed into the cache on first use, which takes a minute) ...');
  let server: Awaited<ReturnType<typeof startCodeServer>> | undefined;
  waitForStop(async () => {
    await server?.stop();
    await sandbox.close();
  });
  server = await startCodeServer({ settings: editorSettings(sandbox), port, folder: requestsFolder, locale });
  const url = server.workbenchUrl([
    ['extensionDevelopmentPath', server.remoteUri(repoRoot)],
    ['openFile', server.remoteUri(exampleFile)],
  ]);
  say(`\nOpen this URL in a browser on this machine (Chromium: /usr/bin/chromium):\n\n  ${url}\n`);
  say(NEXT_STEPS);
  say('Press Ctrl+C here to stop everything.');
}

async function main(): Promise<void> {
  const { locale, sandboxArgs } = splitStartArgs(process.argv.slice(2));
  const options = parseCliOptions(sandboxArgs, {});
  if (options.help) {
    say(`npm start -- [options]\n${CLI_HELP.replace(/\n\s+--json[^\n]*/, '')}\n  --locale <tag>              the editor's display language, e.g. it (the browser editor builds a language pack from npm)`);
    return;
  }
  build();
  const code = onPath('code');
  if (code) await runDesktop(code, options.sandbox, locale);
  else await runBrowser(options.sandbox, locale);
}

main().catch((err: unknown) => {
  process.stderr.write(`npm start: ${(err as Error).message ?? err}\n`);
  if (stopAll) void stopAll(1);
  else process.exit(1);
});
