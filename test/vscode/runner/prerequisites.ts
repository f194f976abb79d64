// Checks for what the code-server runner needs from the system, with the Debian package that provides it.
import * as fs from 'node:fs';
import { spawnSync } from 'node:child_process';

export const chromiumPath = process.env.TENANT_API_TEST_CHROMIUM ?? '/usr/bin/chromium';
export const ripgrepPath = '/usr/bin/rg';

interface Requirement {
  what: string;
  aptPackage: string;
  present: () => boolean;
}

const onPath = (command: string) => () =>
  spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
const fileExists = (file: string) => () => fs.existsSync(file);

/**
 * Needed to compile the native modules the runner builds (first install only): node-pty, spdlog,
 * native-watchdog and argon2 need a compiler and nothing else from the system (no X11, libsecret or
 * Kerberos headers: the server has no keymap or keychain module, and kerberos is not built).
 */
const buildRequirements: Requirement[] = [
  { what: 'a C/C++ compiler (g++)', aptPackage: 'g++', present: onPath('g++') },
  { what: 'make', aptPackage: 'make', present: onPath('make') },
  { what: 'python3 (node-gyp)', aptPackage: 'python3', present: onPath('python3') },
  { what: `ripgrep (${ripgrepPath})`, aptPackage: 'ripgrep', present: fileExists(ripgrepPath) },
];

/** Needed on every run. */
const runRequirements: Requirement[] = [
  { what: `Chromium (${chromiumPath})`, aptPackage: 'chromium', present: fileExists(chromiumPath) },
];

export class MissingPrerequisiteError extends Error {}

function check(requirements: Requirement[], purpose: string): void {
  const missing = requirements.filter((requirement) => !requirement.present());
  if (missing.length === 0) return;
  const packages = [...new Set(missing.map((requirement) => requirement.aptPackage))].join(' ');
  throw new MissingPrerequisiteError(
    `Missing ${purpose}: ${missing.map((requirement) => requirement.what).join(', ')}.\n` +
      `On Debian/Ubuntu install them with:  sudo apt-get update && sudo apt-get install -y ${packages}`,
  );
}

export function checkBuildPrerequisites(): void {
  check(buildRequirements, 'prerequisites to install code-server');
}

export function checkRunPrerequisites(): void {
  check(runRequirements, 'prerequisites to run VS Code tests');
}
