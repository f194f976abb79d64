// `npm run test:electron [-- --grep <pattern>]`: the same in-editor suite (dist/test/suite/index.js)
// in a desktop VS Code that @vscode/test-electron downloads from Microsoft's update servers.
// For contributors with internet; machines without it use `npm run test:vscode` (code-server).
// Browser driving (helpers/driver.ts) is not available here: those tests skip themselves.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { repoRoot, logsDir, suiteEntry } from './paths';
import { run, tail } from './processes';

/** The VS Code the extension targets (engines.vscode ^1.100.0); override with VSCODE_TEST_VERSION. */
const vscodeVersion = process.env.VSCODE_TEST_VERSION ?? '1.100.3';

function grepArgument(argv: string[]): string | undefined {
  const index = argv.findIndex((arg) => arg === '--grep' || arg === '-g');
  if (index >= 0) return argv[index + 1];
  return argv.find((arg) => arg.startsWith('--grep='))?.slice('--grep='.length);
}

function looksOffline(error: unknown): boolean {
  const text = String((error as Error)?.message ?? error);
  return /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|getaddrinfo|socket hang up|Failed to get|download/i.test(text);
}

async function main(): Promise<number> {
  fs.mkdirSync(logsDir, { recursive: true });
  const buildLog = path.join(logsDir, 'build.log');
  fs.writeFileSync(buildLog, '');
  if ((await run(process.execPath, ['esbuild.mjs', '--tests'], { cwd: repoRoot, logFile: buildLog, env: process.env })) !== 0) {
    console.error(`${tail(buildLog, 60)}\nthe build failed (node esbuild.mjs --tests)`);
    return 1;
  }
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-electron-'));
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-workspace-'));
  try {
    await runTests({
      version: vscodeVersion,
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: suiteEntry,
      extensionTestsEnv: { TENANT_API_TEST_GREP: grepArgument(process.argv.slice(2)) ?? '', TENANT_API_TEST_REPO: repoRoot },
      launchArgs: [workspace, '--user-data-dir', userDataDir, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
    });
    return 0;
  } catch (error) {
    if (looksOffline(error)) {
      console.error(
        `Could not download VS Code ${vscodeVersion} (${(error as Error)?.message ?? error}).\n` +
          '@vscode/test-electron needs internet access to update.code.visualstudio.com.\n' +
          'Without it, run the same suite with: npm run test:vscode (code-server from the npm registry, system Chromium).',
      );
    } else {
      console.error(`The in-editor suite failed: ${(error as Error)?.message ?? error}`);
    }
    return 1;
  } finally {
    fs.rmSync(userDataDir, { recursive: true, force: true });
    fs.rmSync(workspace, { recursive: true, force: true });
  }
}

main().then((code) => process.exit(code));
