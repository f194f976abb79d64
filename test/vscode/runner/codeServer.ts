// Installs code-server (VS Code's server, from the npm registry) into the git-ignored cache on first
// use, and starts/stops it on 127.0.0.1. Shared by the test runner and `npm start`.
// Why this way: @vscode/test-electron downloads VS Code from Microsoft and electron from GitHub,
// neither reachable here; see ../shared/vscode-in-ci.md for the recipe this follows.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { onFreePort, PortTaken } from '../../helpers/freePort';
import { cacheRoot, logsDir, runsDir } from './paths';
import { directLoopbackTemplate, patchWorkbench } from './codeServerPatch';
import { checkBuildPrerequisites, ripgrepPath } from './prerequisites';
import { ensureLanguagePack } from './languagePack';
import { cleanEnv, run, stopProcess, tail } from './processes';

export const codeServerVersion = '4.100.3';
export const installDir = path.join(cacheRoot, `code-server-${codeServerVersion}`);
const packageDir = path.join(installDir, 'node_modules', 'code-server');
const vscodeDir = path.join(packageDir, 'lib', 'vscode');
const entry = path.join(packageDir, 'out', 'node', 'entry.js');
const marker = path.join(installDir, '.install-complete');
const lockDir = path.join(cacheRoot, `code-server-${codeServerVersion}.installing`);

/** node-gyp's make with one job per core (its JOBS variable). */
const compileOnEveryCore = cleanEnv({ JOBS: 'max' });

/** Native addons that must exist after the rebuilds (their build scripts' exit codes are unreliable). */
const requiredAddons = [
  path.join(vscodeDir, 'node_modules', 'node-pty', 'build', 'Release', 'pty.node'),
  path.join(vscodeDir, 'node_modules', '@vscode', 'spdlog', 'build', 'Release', 'spdlog.node'),
  path.join(vscodeDir, 'node_modules', 'native-watchdog', 'build', 'Release', 'watchdog.node'),
];

function containsAddon(dir: string): boolean {
  return fs.existsSync(dir) && fs.readdirSync(dir, { recursive: true }).some((file) => String(file).endsWith('.node'));
}

export interface CodeServerInstall {
  /** node <entry> starts the server. */
  entry: string;
  version: string;
  /** The VS Code version it bundles. */
  vscodeVersion: string;
}

function vscodeVersionOf(): string {
  try {
    return JSON.parse(fs.readFileSync(path.join(vscodeDir, 'package.json'), 'utf8')).version as string;
  } catch {
    return 'unknown';
  }
}

function say(message: string): void {
  process.stderr.write(`[code-server] ${message}\n`);
}

async function withInstallLock<T>(work: () => Promise<T>): Promise<T> {
  fs.mkdirSync(cacheRoot, { recursive: true });
  const deadline = Date.now() + 15 * 60_000;
  let waitingSaid = false;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      break;
    } catch {
      let holder = 0;
      let lockAgeMs = 0;
      try {
        holder = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8')) || 0;
      } catch {
        /* not written yet */
      }
      try {
        lockAgeMs = Date.now() - fs.statSync(lockDir).mtimeMs;
      } catch {
        continue; // released meanwhile
      }
      let alive = false;
      try {
        if (holder) process.kill(holder, 0);
        alive = holder > 0;
      } catch {
        alive = false;
      }
      // A lock without a live owner is stale, unless it is so young that its owner is still writing its pid.
      if (!alive && (holder > 0 || lockAgeMs > 10_000)) {
        fs.rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (!waitingSaid) {
        waitingSaid = true;
        say(`waiting for another process${holder ? ` (pid ${holder})` : ''} that is installing code-server ...`);
      }
      if (Date.now() > deadline) throw new Error(`Another process (pid ${holder}) has been installing code-server for 15 minutes; remove ${lockDir} if it is stuck.`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

/** Installs code-server once (about a minute with a warm npm cache); later calls return at once. */
/**
 * The line printed after an install step. A step whose exit code is not trusted (node-pty's build
 * script exits non-zero after building its addon) says that a non-zero code is expected there, so a
 * first `npm start` does not look like a failure; the built files are checked right after it.
 */
export function stepEndMessage(label: string, code: number | string, mustSucceed: boolean, elapsedMs: number): string {
  const seconds = `${(elapsedMs / 1000).toFixed(1)} s`;
  if (code === 0) return `${label}: done in ${seconds}`;
  if (mustSucceed) return `${label}: exit code ${code} in ${seconds}`;
  return `${label}: finished in ${seconds} (exit code ${code}, expected here: node-pty's build script exits non-zero after building; the built modules are checked next)`;
}

export async function ensureCodeServer(): Promise<CodeServerInstall> {
  const result = (): CodeServerInstall => {
    // Cheap when already applied; also brings caches installed before the patch existed up to date.
    const applied = patchWorkbench(vscodeDir);
    if (applied.length > 0) say(`patched the workbench: ${applied.join(', ')} (see codeServerPatch.ts)`);
    return { entry, version: codeServerVersion, vscodeVersion: vscodeVersionOf() };
  };
  if (fs.existsSync(marker)) return result();
  return withInstallLock(async () => {
    if (fs.existsSync(marker)) return result();
    checkBuildPrerequisites();
    fs.mkdirSync(logsDir, { recursive: true });
    const logFile = path.join(logsDir, `code-server-install-${Date.now()}.log`);
    const started = Date.now();
    say(`installing code-server ${codeServerVersion} into ${path.relative(process.cwd(), installDir) || installDir} (first use only; log: ${logFile})`);
    const fail = (what: string): never => {
      throw new Error(`code-server install failed: ${what}.\nLast lines of ${logFile}:\n${tail(logFile, 40)}`);
    };
    const step = async (label: string, command: string, args: string[], cwd: string, mustSucceed = true, env?: NodeJS.ProcessEnv) => {
      const stepStarted = Date.now();
      say(`${label} ...`);
      const code = await run(command, args, { cwd, logFile, timeoutMs: 15 * 60_000, env });
      say(stepEndMessage(label, code, mustSucceed, Date.now() - stepStarted));
      if (code !== 0 && mustSucceed) fail(`${command} ${args.join(' ')} exited with ${code}`);
    };

    fs.mkdirSync(installDir, { recursive: true });
    // A package.json of its own, or npm would climb up and install into the project's node_modules.
    fs.writeFileSync(path.join(installDir, 'package.json'), JSON.stringify({ name: 'code-server-cache', private: true }, null, 2));
    const quiet = ['--no-audit', '--no-fund', '--loglevel=error'];
    // --ignore-scripts: its postinstall refuses to run as root, then downloads ripgrep from GitHub.
    await step('npm install code-server', 'npm', ['install', '--ignore-scripts', ...quiet, `code-server@${codeServerVersion}`], installDir);
    await step('rebuild argon2', 'npm', ['rebuild', 'argon2', ...quiet], installDir, true, compileOnEveryCore);
    await step('install VS Code server dependencies', 'npm', ['install', '--omit=dev', '--ignore-scripts', ...quiet], vscodeDir);
    // node-pty's postinstall exits non-zero after building its addon: judge by the built files below.
    // Not kerberos: the server imports it only for a proxy that asks for Kerberos, which no test has.
    await step('rebuild native modules', 'npm', ['rebuild', '@parcel/watcher', '@vscode/spdlog', 'native-watchdog', 'node-pty', ...quiet], vscodeDir, false, compileOnEveryCore);
    const missing = requiredAddons.filter((file) => !fs.existsSync(file));
    if (missing.length > 0) fail(`native modules not built: ${missing.map((file) => path.relative(installDir, file)).join(', ')}`);
    // These come as prebuilt binaries (argon2 in its package, @parcel/watcher as a platform package).
    if (!containsAddon(path.join(installDir, 'node_modules', 'argon2'))) fail('native module argon2 not built');
    if (!containsAddon(path.join(vscodeDir, 'node_modules', '@parcel'))) fail('native module @parcel/watcher not built');
    say('native modules: all built');

    // Debian's ripgrep replaces the binary @vscode/ripgrep would download (search, file finder).
    const rgTarget = path.join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg');
    fs.mkdirSync(path.dirname(rgTarget), { recursive: true });
    fs.copyFileSync(ripgrepPath, rgTarget);
    fs.chmodSync(rgTarget, 0o755);
    // What the skipped postinstall does: the server loads modules through node_modules.asar.
    const asar = path.join(vscodeDir, 'node_modules.asar');
    if (!fs.existsSync(asar)) fs.symlinkSync('node_modules', asar);
    if (!fs.existsSync(entry)) fail(`${entry} is missing`);

    fs.writeFileSync(marker, `code-server ${codeServerVersion} installed ${new Date().toISOString()}\n`);
    say(`installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return result();
  });
}

/** The display-language pack of `locale` for the installed code-server, built on first use (languagePack.ts). */
export function ensureDisplayLanguage(locale: string) {
  return ensureLanguagePack(locale, path.join(vscodeDir, 'out'));
}

/**
 * A tiny detached watcher that stops the server's process group when this process dies without
 * cleaning up (SIGKILL, or tsx force-killing us when a relayed Ctrl+C is not acknowledged in 30 ms).
 * It ends by itself when the server's group is gone.
 */
function startReaper(serverPid: number): void {
  const script = `
    const [parent, group] = process.argv.slice(1).map(Number);
    const alive = (pid) => { try { process.kill(pid, 0); return true; } catch { return false; } };
    const timer = setInterval(() => {
      if (!alive(-group)) process.exit(0);
      if (alive(parent)) return;
      clearInterval(timer);
      try { process.kill(-group, 'SIGTERM'); } catch {}
      setTimeout(() => { try { process.kill(-group, 'SIGKILL'); } catch {} process.exit(0); }, 3000);
    }, 1000);`;
  const reaper = spawn(process.execPath, ['-e', script, String(process.pid), String(serverPid)], { detached: true, stdio: 'ignore' });
  reaper.unref();
}

export interface StartOptions {
  /** User settings, merged over the defaults (workspace trust off). */
  settings?: Record<string, unknown>;
  /** Folder the workbench URL opens (default: none). */
  folder?: string;
  /** Extra environment for the server and so its extension host. */
  env?: Record<string, string>;
  /**
   * How loopback URLs opened by extensions reach the browser: 'direct' (default) leaves
   * http://127.0.0.1:<p>/... as it is, as a desktop VS Code does (browser and server share this
   * machine); 'proxy' is code-server's own behaviour, through http://127.0.0.1:<cs>/proxy/<p>/...
   */
  loopbackUrls?: 'direct' | 'proxy';
  /** Fixed port (default: a free one). */
  port?: number;
  /** Time to wait for "HTTP server listening" (default 60 s). */
  startTimeoutMs?: number;
  /** Keep the user-data-dir after stop (default: removed). */
  keepUserData?: boolean;
  /** VS Code's display language (an IETF tag such as 'it'): installs a language pack built from npm (languagePack.ts). */
  locale?: string;
  /** An environment variable the server (and so its extension host) gets with the user-data-dir in it. */
  userDataVariable?: string;
}

export interface RunningCodeServer {
  /** http://127.0.0.1:<port> (no trailing slash). */
  url: string;
  port: number;
  pid: number;
  userDataDir: string;
  extensionsDir: string;
  /** The server's stdout and stderr. Kept after stop. */
  logFile: string;
  /** Resolves with the exit code (or signal) when the server process ends, for whatever reason. */
  exited: Promise<number | string>;
  /** The workbench URL, opening `folder` (or opts.folder) with a payload of [name, value] pairs. */
  workbenchUrl(payload?: Array<[string, string]>, folder?: string): string;
  /** vscode-remote URI of a local path, for payload entries such as extensionDevelopmentPath. */
  remoteUri(localPath: string): string;
  stop(): Promise<void>;
}

export async function startCodeServer(options: StartOptions = {}): Promise<RunningCodeServer> {
  if (options.port !== undefined) return startCodeServerOn(options, options.port);
  return onFreePort(async (port) => {
    try {
      return await startCodeServerOn(options, port);
    } catch (error) {
      const message = (error as Error).message;
      throw /EADDRINUSE/.test(message) ? new PortTaken(message) : error;
    }
  });
}

async function startCodeServerOn(options: StartOptions, port: number): Promise<RunningCodeServer> {
  const install = await ensureCodeServer();
  fs.mkdirSync(runsDir, { recursive: true });
  fs.mkdirSync(logsDir, { recursive: true });
  const runDir = fs.mkdtempSync(path.join(runsDir, 'run-'));
  const userDataDir = path.join(runDir, 'user-data');
  const extensionsDir = path.join(runDir, 'extensions');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(extensionsDir, { recursive: true });
  const settings = {
    // The trust dialog is refused in test runs and covers the window in UI runs.
    'security.workspace.trust.enabled': false,
    'workbench.startupEditor': 'none',
    'telemetry.telemetryLevel': 'off',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'update.mode': 'none',
    // The test workspace may sit below a git repository: no "open the parent repository?" toast.
    'git.openRepositoryInParentFolders': 'never',
    ...options.settings,
  };
  fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  if (options.locale && !options.locale.startsWith('en')) {
    const pack = await ensureDisplayLanguage(options.locale);
    fs.copyFileSync(pack.languagePacksJson, path.join(userDataDir, 'languagepacks.json'));
    fs.writeFileSync(path.join(userDataDir, 'User', 'argv.json'), JSON.stringify({ locale: options.locale }));
  }
  // code-server reads ~/.config/code-server/config.yaml unless told otherwise: keep the user's out.
  const configFile = path.join(runDir, 'config.yaml');
  fs.writeFileSync(configFile, '');
  const proxyEnv: Record<string, string> =
    (options.loopbackUrls ?? 'direct') === 'direct' ? { VSCODE_PROXY_URI: directLoopbackTemplate } : {};
  const logFile = path.join(logsDir, `code-server-${new Date().toISOString().replace(/[:.]/g, '-')}-${port}.log`);
  const log = fs.openSync(logFile, 'a');
  const child = spawn(
    process.execPath,
    [
      install.entry,
      '--config', configFile,
      '--auth', 'none',
      '--bind-addr', `127.0.0.1:${port}`,
      '--user-data-dir', userDataDir,
      '--extensions-dir', extensionsDir,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
    ],
    {
      cwd: os.tmpdir(),
      env: cleanEnv({ ...proxyEnv, ...options.env, ...(options.userDataVariable ? { [options.userDataVariable]: userDataDir } : {}) }),
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so stop() reaches the extension host and file watchers too.
      detached: true,
    },
  );
  startReaper(child.pid!);
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  let output = '';
  const onData = (chunk: Buffer) => {
    fs.writeSync(log, chunk);
    if (output.length < 100_000) output += chunk.toString();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await stopProcess(child);
    try {
      fs.closeSync(log);
    } catch {
      /* closed */
    }
    if (!options.keepUserData) fs.rmSync(runDir, { recursive: true, force: true });
  };
  // A server left behind by a crashed runner would hold its port: stop it when we exit.
  const onExit = () => {
    try {
      if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  };
  process.once('exit', onExit);

  const timeoutMs = options.startTimeoutMs ?? 60_000;
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`code-server did not report "HTTP server listening" within ${timeoutMs / 1000} s`)), timeoutMs);
      const check = () => {
        if (/HTTP server listening on/.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', check);
      child.stderr!.on('data', check);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`code-server exited during start-up (${code ?? signal})`));
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\nServer log (${logFile}):\n${tail(logFile, 60)}`);
  }

  const url = `http://127.0.0.1:${port}`;
  const remoteUri = (localPath: string) => `vscode-remote://127.0.0.1:${port}${path.resolve(localPath)}`;
  return {
    url,
    port,
    pid: child.pid!,
    userDataDir,
    extensionsDir,
    logFile,
    exited,
    remoteUri,
    workbenchUrl(payload = [], folder = options.folder) {
      const query = new URLSearchParams();
      if (folder) query.set('folder', path.resolve(folder));
      if (payload.length > 0) query.set('payload', JSON.stringify(payload));
      const text = query.toString();
      return `${url}/${text ? `?${text}` : ''}`;
    },
    async stop() {
      process.removeListener('exit', onExit);
      await stop();
    },
  };
}
